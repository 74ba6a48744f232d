/**
 * Reads a test file (YAML, or JSON, which is YAML too) and the workflow it names, and checks both
 * before anything runs: every problem is named with its file, line and path, so a wrong file is
 * fixed in one go (the command exits 2 and runs nothing).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { isNode, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
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

export interface WorkflowNode {
	name: string;
	type: string;
	typeVersion?: number;
	parameters?: Record<string, unknown>;
	credentials?: Record<string, { id?: string; name?: string }>;
	disabled?: boolean;
	[key: string]: unknown;
}

/** A node's connections onward: per connection type (main), per output, the nodes it feeds. */
export type Connections = Record<
	string,
	({ node: string; type: string; index: number }[] | null)[]
>;

export interface Workflow {
	name?: string;
	id?: string;
	nodes: WorkflowNode[];
	connections: Record<string, Connections>;
	settings?: Record<string, unknown>;
	[key: string]: unknown;
}

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
	const parsed = testFileSchema.safeParse(doc.toJS());
	if (!parsed.success)
		throw new TestFileError(
			parsed.error.issues.map((issue) => {
				const { path: at, line, message } = explain(issue);
				return { ...problem(at, message), line: lineOf(line) };
			}),
		);
	const spec = parsed.data;
	const workflowPath = resolve(dirname(resolve(cwd, path)), spec.workflow);
	if (!existsSync(workflowPath))
		throw new TestFileError([
			problem(
				['workflow'],
				`no such file: ${workflowPath} (the path is relative to the test file)`,
			),
		]);
	let workflow: Workflow;
	try {
		workflow = JSON.parse(readFileSync(workflowPath, 'utf8')) as Workflow;
	} catch (error) {
		throw new TestFileError([
			problem(['workflow'], `${workflowPath} is not JSON: ${(error as Error).message}`),
		]);
	}
	if (!Array.isArray(workflow?.nodes) || typeof workflow.connections !== 'object')
		throw new TestFileError([
			problem(
				['workflow'],
				`${workflowPath} is not an n8n workflow (no nodes and connections): export it from n8n's editor (Download)`,
			),
		]);
	if (
		spec.credential !== undefined &&
		!spec.seed?.accounts.some((a) => a.apiKey === spec.credential)
	)
		throw new TestFileError([
			problem(
				['credential'],
				`no account of the file's seed has this key: give one of ${spec.seed?.accounts.map((a) => a.apiKey).join(', ') || "the seed's keys (the file has no seed)"}`,
			),
		]);
	const unknown = unknownNodes(spec, new Set(workflow.nodes.map((n) => n.name)));
	if (unknown.length)
		throw new TestFileError(
			unknown.map(({ path: at, name }) =>
				problem(
					at,
					`the workflow has no node named "${name}" (it has: ${workflow.nodes.map((n) => n.name).join(', ')})`,
				),
			),
		);
	return { file, spec, workflowPath, workflow };
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

/** Every node name the file mentions that the workflow does not have, with where it is. */
function unknownNodes(spec: TestFile, names: Set<string>): { path: PropertyKey[]; name: string }[] {
	const found: { path: PropertyKey[]; name: string }[] = [];
	const check = (name: string | undefined, path: PropertyKey[]) => {
		if (name !== undefined && !names.has(name)) found.push({ path, name });
	};
	const checkRun = (e: RunExpectation | undefined, at: PropertyKey[]) => {
		if (!e) return;
		check(e.error?.node, [...at, 'error', 'node']);
		for (const name of Object.keys(e.nodes ?? {})) check(name, [...at, 'nodes', name]);
	};
	check(spec.start, ['start']);
	for (const name of Object.keys(spec.stubs ?? {})) check(name, ['stubs', name]);
	spec.cases.forEach((c, i) => {
		const at = ['cases', i];
		for (const name of Object.keys(c.stubs ?? {})) check(name, [...at, 'stubs', name]);
		checkRun(c.expect, [...at, 'expect']);
		checkRun(c.expect?.everyRun, [...at, 'expect', 'everyRun']);
		check(c.expect?.distinct?.node, [...at, 'expect', 'distinct', 'node']);
		if (Array.isArray(c.runs))
			c.runs.forEach((r, j) => checkRun(r.expect, [...at, 'runs', j, 'expect']));
	});
	return found;
}
