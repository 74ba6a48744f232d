/**
 * Reads a test file (YAML, or JSON, which is YAML too) and the workflow it names, and checks both
 * before anything runs: every problem is named with its file, line and path, so a wrong file is
 * fixed in one go (the command exits 2 and runs nothing).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { isNode, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import { isChatModel, needsStub, WEBHOOK } from '../workflow/node-kinds.cjs';
import { findStart } from '../workflow/start.cjs';
import type { Workflow, WorkflowNode } from '../workflow/workflow.cjs';
import { type RunExpectation, type TestFile, testFileSchema } from './schema.cjs';

export interface FileProblem {
	file: string;
	/** 1-based; absent when the place is not in the file (a workflow's own problem). */
	line?: number;
	/** Where in the file: cases.1.expect.nodes.HubSpot.items */
	path: string;
	message: string;
}

export class TestFileError extends Error {
	constructor(readonly problems: FileProblem[]) {
		super(problems.map(describeProblem).join('\n'));
		this.name = 'TestFileError';
	}
}

export const describeProblem = (p: FileProblem): string =>
	`${p.file}${p.line ? `:${p.line}` : ''}: ${p.path ? `${p.path}: ` : ''}${p.message}`;

export interface LoadedTestFile {
	/** As given (relative to the working folder), for reports. */
	file: string;
	spec: TestFile;
	workflowPath: string;
	workflow: Workflow;
}

export type { Connections, Workflow, WorkflowNode } from '../workflow/workflow.cjs';

export function loadTestFile(path: string, cwd = process.cwd()): LoadedTestFile {
	const file = relative(cwd, resolve(cwd, path)) || path;
	const text = readFileSync(resolve(cwd, path), 'utf8');
	const lines = new LineCounter();
	const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
	const lineAt = (offset: number | undefined) =>
		offset === undefined ? undefined : lines.linePos(offset).line;
	if (doc.errors.length)
		throw new TestFileError(
			doc.errors.map((e) => ({
				file,
				line: lineAt(e.pos[0]),
				path: '',
				message: e.message.split('\n')[0],
			})),
		);
	/** The line of a path in the file: its own node, or the nearest parent the file has. */
	const lineOf = (path: PropertyKey[]): number | undefined => {
		for (let n = path.length; n >= 0; n--) {
			const node = doc.getIn(path.slice(0, n) as (string | number)[], true);
			if (isNode(node) && node.range) return lineAt(node.range[0]);
		}
		return undefined;
	};
	const problem = (path: PropertyKey[], message: string): FileProblem => ({
		file,
		line: lineOf(path),
		path: path.map(String).join('.'),
		message,
	});
	// Every problem of the file in one pass: its shape, the workflow it names, the node names it
	// uses (read from the file as written, even where its shape is wrong), the start node and the
	// nodes left to call other services.
	const problems: FileProblem[] = [];
	const raw: unknown = doc.toJS();
	const parsed = testFileSchema.safeParse(raw);
	if (!parsed.success)
		for (const issue of parsed.error.issues) {
			const { path: at, line, message } = explain(issue);
			problems.push({ ...problem(at, message), line: lineOf(line) });
		}
	const named = field(raw, 'workflow');
	const workflowPath =
		typeof named === 'string' && named ? resolve(dirname(resolve(cwd, path)), named) : undefined;
	const workflow = workflowPath
		? readWorkflow(workflowPath, (m) => problems.push(problem(['workflow'], m)))
		: undefined;
	if (workflow) {
		const names = new Set(workflow.nodes.map((n) => n.name));
		for (const { path: at, name } of nodeNamesIn(raw))
			if (!names.has(name))
				problems.push(
					problem(
						at,
						`the workflow has no node named "${name}" (it has: ${workflow.nodes.map((n) => n.name).join(', ')})`,
					),
				);
	}
	if (parsed.success && workflow) {
		const spec = parsed.data;
		if (
			spec.credential !== undefined &&
			!spec.seed?.accounts.some((a) => a.apiKey === spec.credential)
		)
			problems.push(
				problem(
					['credential'],
					`no account of the file's seed has this key: give one of ${spec.seed?.accounts.map((a) => a.apiKey).join(', ') || "the seed's keys (the file has no seed)"}`,
				),
			);
		const start = findStart(workflow, spec.start);
		if (typeof start === 'string')
			problems.push(problem(spec.start ? ['start'] : ['workflow'], start));
		else
			problems.push(
				...unstubbed(spec, workflow, start).map(({ at, message }) => problem(at, message)),
			);
		problems.push(...sentWithoutStub(spec).map(({ at, message }) => problem(at, message)));
		problems.push(...modelStubsOff(spec, workflow).map(({ at, message }) => problem(at, message)));
		if (typeof start !== 'string')
			problems.push(...requestsOff(spec, start).map(({ at, message }) => problem(at, message)));
	}
	if (problems.length || !parsed.success || !workflow || !workflowPath)
		throw new TestFileError(problems);
	return { file, spec: parsed.data, workflowPath, workflow };
}

/** A field of the file as written, whatever its shape. */
function field(value: unknown, key: string): unknown {
	return value && typeof value === 'object' && !Array.isArray(value)
		? (value as Record<string, unknown>)[key]
		: undefined;
}

/** The names of a map as written (none when it is not one). */
const keysOf = (value: unknown): string[] =>
	value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];

/** The exported workflow, or undefined with why (told to `refuse`). */
function readWorkflow(
	workflowPath: string,
	refuse: (message: string) => void,
): Workflow | undefined {
	if (!existsSync(workflowPath)) {
		refuse(`no such file: ${workflowPath} (the path is relative to the test file)`);
		return undefined;
	}
	let workflow: Workflow;
	try {
		workflow = JSON.parse(readFileSync(workflowPath, 'utf8')) as Workflow;
	} catch (error) {
		refuse(`${workflowPath} is not JSON: ${(error as Error).message}`);
		return undefined;
	}
	if (!Array.isArray(workflow?.nodes) || typeof workflow.connections !== 'object') {
		refuse(
			`${workflowPath} is not an n8n workflow (no nodes and connections): export it from n8n's editor (Download)`,
		);
		return undefined;
	}
	return workflow;
}

/**
 * The nodes a case would run that call another service and have no stub (the file's or the
 * case's): one problem at the file's stubs when no case stubs a node, else one per case that
 * does not.
 */
function unstubbed(
	spec: TestFile,
	workflow: Workflow,
	start: WorkflowNode,
): { at: PropertyKey[]; message: string }[] {
	const found: { at: PropertyKey[]; message: string }[] = [];
	for (const node of workflow.nodes.filter((n) => needsStub(n, start.name))) {
		const advice = `node "${node.name}" (${node.type}) would call another service: stub it in the test file (stubs: { "${node.name}": passThrough }, or { items: [...] } for what it should hand on)`;
		if (spec.stubs?.[node.name]) continue;
		const missing = spec.cases.flatMap((c, i) => (c.stubs?.[node.name] ? [] : [i]));
		if (missing.length === spec.cases.length)
			found.push({ at: spec.stubs ? ['stubs'] : ['workflow'], message: advice });
		else
			for (const i of missing)
				found.push({
					at: ['cases', i, 'name'],
					message: `${advice} (other cases stub it; this one does not)`,
				});
	}
	return found;
}

type Issue = z.core.$ZodIssue;

const article = (type: string): string => `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;

/**
 * zod's issues as a user fixes them: an unknown field at its own line; of a value that matches no
 * form of a union, the form it came closest to (the deepest issue), or the forms it may take.
 */
function explain(
	issue: Issue,
	base: PropertyKey[] = [],
): { path: PropertyKey[]; line: PropertyKey[]; message: string } {
	const path = [...base, ...issue.path];
	if (issue.code === 'unrecognized_keys')
		return {
			path,
			line: [...path, issue.keys[0]],
			message: `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}`,
		};
	if (issue.code === 'invalid_type' && / received undefined$/.test(issue.message))
		return { path, line: path, message: `missing: give ${article(issue.expected)}` };
	if (issue.code === 'invalid_union' && issue.errors.length) {
		const depth = (branch: Issue[]) =>
			Math.max(...branch.map((i) => i.path.length + (i.code === 'invalid_type' ? 0 : 1)));
		const deepest = [...issue.errors].sort((a, b) => depth(b) - depth(a))[0];
		if (depth(deepest) > 0 && deepest.length) return explain(deepest[0], path);
		const forms = [
			...new Set(
				issue.errors
					.flat()
					.map((i) => (i.code === 'invalid_type' ? article(i.expected) : i.message)),
			),
		];
		return { path, line: path, message: `expected ${forms.join(' or ')}` };
	}
	return { path, line: path, message: issue.message };
}

/**
 * Requests and their answers where they cannot be: a request to a workflow whose start is not a
 * Webhook, an expected response in a case that sends no request.
 */
function requestsOff(
	spec: TestFile,
	start: WorkflowNode,
): { at: PropertyKey[]; message: string }[] {
	const found: { at: PropertyKey[]; message: string }[] = [];
	spec.cases.forEach((c, i) => {
		const runs = Array.isArray(c.runs) ? c.runs : [];
		const requests: PropertyKey[][] = [
			...(c.request ? [['cases', i, 'request']] : []),
			...runs.flatMap((r, j) => (r.request ? [['cases', i, 'runs', j, 'request']] : [])),
		];
		if (requests.length && start.type !== WEBHOOK)
			for (const at of requests)
				found.push({
					at,
					message: `the workflow starts at "${start.name}" (${start.type}), not a Webhook: a request calls a Webhook; give input items instead`,
				});
		if (requests.length) return;
		const responses: PropertyKey[][] = [
			...(c.expect?.response ? [['cases', i, 'expect', 'response']] : []),
			...(c.expect?.everyRun?.response ? [['cases', i, 'expect', 'everyRun', 'response']] : []),
			...runs.flatMap((r, j) =>
				r.expect?.response ? [['cases', i, 'runs', j, 'expect', 'response']] : [],
			),
		];
		for (const at of responses)
			found.push({
				at,
				message: 'the case sends no request, so there is no answer to check: give it a request',
			});
	});
	return found;
}

/** A model stub on a node that is not a chat model, or a turn calling a tool the workflow lacks. */
function modelStubsOff(
	spec: TestFile,
	workflow: Workflow,
): { at: PropertyKey[]; message: string }[] {
	const found: { at: PropertyKey[]; message: string }[] = [];
	const nodes = new Map(workflow.nodes.map((n) => [n.name, n]));
	const check = (stubs: TestFile['stubs'], at: PropertyKey[]) => {
		for (const [name, stub] of Object.entries(stubs ?? {})) {
			const node = nodes.get(name);
			if (!node || typeof stub !== 'object' || !('model' in stub)) continue;
			if (!isChatModel(node.type))
				found.push({
					at: [...at, name, 'model'],
					message: `"${name}" (${node.type}) is not a chat model: a model script stubs a chat model sub-node (stub this node with passThrough or items)`,
				});
			stub.model.forEach((turn, t) => {
				if (!('toolCalls' in turn)) return;
				turn.toolCalls.forEach((call, k) => {
					if (!nodes.has(call.tool))
						found.push({
							at: [...at, name, 'model', t, 'toolCalls', k, 'tool'],
							message: `turn ${t + 1} calls "${call.tool}", which the workflow does not have (its tools are nodes: ${workflow.nodes.map((n) => n.name).join(', ')})`,
						});
				});
			});
		}
	};
	check(spec.stubs, ['stubs']);
	spec.cases.forEach((c, i) => check(c.stubs, ['cases', i, 'stubs']));
	return found;
}

/** `sent` read of a node the case does not stub: only a stubbed node's sending is recorded. */
function sentWithoutStub(spec: TestFile): { at: PropertyKey[]; message: string }[] {
	const found: { at: PropertyKey[]; message: string }[] = [];
	spec.cases.forEach((c, i) => {
		const stubbed = (node: string) => !!(spec.stubs?.[node] ?? c.stubs?.[node]);
		const check = (e: RunExpectation | undefined, at: PropertyKey[]) => {
			for (const [node, list] of Object.entries(e?.nodes ?? {}))
				(Array.isArray(list) ? list : [list]).forEach((x, k) => {
					if (x.sent && !stubbed(node))
						found.push({
							at: [...at, 'nodes', node, ...(Array.isArray(list) ? [k] : []), 'sent'],
							message: `"${node}" is not stubbed in this case: sent reads what a stubbed node would have sent (a node that runs sends for real: expect on its items)`,
						});
				});
		};
		check(c.expect, ['cases', i, 'expect']);
		check(c.expect?.everyRun, ['cases', i, 'expect', 'everyRun']);
		if (Array.isArray(c.runs))
			c.runs.forEach((r, j) => check(r.expect, ['cases', i, 'runs', j, 'expect']));
	});
	return found;
}

/** Every node name the file mentions, with where it is; read from the file as written. */
function nodeNamesIn(spec: unknown): { path: PropertyKey[]; name: string }[] {
	const found: { path: PropertyKey[]; name: string }[] = [];
	const check = (name: unknown, path: PropertyKey[]) => {
		if (typeof name === 'string') found.push({ path, name });
	};
	const checkRun = (e: unknown, at: PropertyKey[]) => {
		check(field(field(e, 'error'), 'node'), [...at, 'error', 'node']);
		for (const name of keysOf(field(e, 'nodes'))) check(name, [...at, 'nodes', name]);
	};
	check(field(spec, 'start'), ['start']);
	for (const name of keysOf(field(spec, 'stubs'))) check(name, ['stubs', name]);
	const cases = field(spec, 'cases');
	(Array.isArray(cases) ? cases : []).forEach((c: unknown, i) => {
		const at = ['cases', i];
		for (const name of keysOf(field(c, 'stubs'))) check(name, [...at, 'stubs', name]);
		const expect = field(c, 'expect');
		checkRun(expect, [...at, 'expect']);
		checkRun(field(expect, 'everyRun'), [...at, 'expect', 'everyRun']);
		check(field(field(expect, 'distinct'), 'node'), [...at, 'expect', 'distinct', 'node']);
		const runs = field(c, 'runs');
		if (Array.isArray(runs))
			runs.forEach((r: unknown, j) => checkRun(field(r, 'expect'), [...at, 'runs', j, 'expect']));
	});
	return found;
}
