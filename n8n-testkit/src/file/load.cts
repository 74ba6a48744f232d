/**
 * Reads a test file (YAML, or JSON, which is YAML too) and the workflow it names, and checks both
 * before anything runs: every problem is named with its file, line and path, so a wrong file is
 * fixed in one go (the command exits 2 and runs nothing).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { isNode, LineCounter, parseDocument } from 'yaml';
import type { z } from 'zod';
import type { WorkflowTestService } from '../services/service.cjs';
import { Services } from '../services/services.cjs';
import type { Claimed } from '../workflow/node-kinds.cjs';
import { nextFiring, scheduleCrons, schedulesOf, workflowZone } from '../workflow/schedule.cjs';
import { findStart } from '../workflow/start.cjs';
import { findSubWorkflows, type SubWorkflow } from '../workflow/sub-workflows.cjs';
import type { Workflow } from '../workflow/workflow.cjs';
import { field, keysOf, type Misfit, misfits, nodeNamesIn } from './misfits.cjs';
import type { ClockSpec, TestFile } from './schema.cjs';

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
	/** The exports of the workflows it calls, callees first (sub-workflows.cts). */
	subWorkflows: SubWorkflow[];
	/** A problem at a path of the file, with its line: for checks made after loading. */
	problem(path: PropertyKey[], message: string): FileProblem;
	/** The services the file uses (a node of its workflows they claim, or their fields). */
	services: WorkflowTestService[];
	/** Whether a service of the run claims a node type: it runs for real against it. */
	claims: Claimed;
	/** Whether a node type is a service's polling trigger. */
	polls: Claimed;
}

export type { Connections, Workflow, WorkflowNode } from '../workflow/workflow.cjs';

export function loadTestFile(
	path: string,
	cwd = process.cwd(),
	services = new Services(),
): LoadedTestFile {
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
	const parsed = services.fileSchema().safeParse(raw);
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
	const listed = field(raw, 'workflows');
	const fromFile = (f: string) => resolve(dirname(resolve(cwd, path)), f);
	const errorWorkflow = field(raw, 'errorWorkflow');
	const errorWorkflowPath =
		typeof errorWorkflow === 'string' && errorWorkflow ? fromFile(errorWorkflow) : undefined;
	const subWorkflows =
		workflow && workflowPath
			? findSubWorkflows(workflow, workflowPath, {
					listed: [
						...(Array.isArray(listed) ? listed : [])
							.filter((f): f is string => typeof f === 'string')
							.map(fromFile),
						...(errorWorkflowPath ? [errorWorkflowPath] : []),
					],
					errorWorkflow: errorWorkflowPath,
					stubbed: (node) => keysOf(field(raw, 'stubs')).includes(node),
					shown: (p) => relative(cwd, p),
					refuse: (at, message) => problems.push(problem(at, message)),
				})
			: [];
	if (workflow)
		problems.push(
			...unknownNames(raw, workflow, subWorkflows).map(({ at, message }) => problem(at, message)),
		);
	if (parsed.success && workflow) {
		const spec = parsed.data;
		for (const service of services.list)
			for (const { path, message } of service.check?.(spec as Record<string, unknown>) ?? [])
				problems.push(problem(path, message));
		const start = findStart(workflow, spec.start);
		if (typeof start === 'string')
			problems.push(problem(spec.start ? ['start'] : ['workflow'], start));
		else
			problems.push(
				...misfits(spec, workflow, start, subWorkflows, (type) => services.claims(type)).map(
					({ at, message }) => problem(at, message),
				),
			);
		problems.push(...resolveClocks(spec, workflow).map(({ at, message }) => problem(at, message)));
	}
	if (problems.length || !parsed.success || !workflow || !workflowPath)
		throw new TestFileError(problems);
	const nodes = [workflow, ...subWorkflows.map((s) => s.workflow)].flatMap((w) => w.nodes);
	return {
		file,
		spec: parsed.data,
		workflowPath,
		workflow,
		subWorkflows,
		problem,
		services: services.usedBy(parsed.data as Record<string, unknown>, nodes),
		claims: (type) => services.claims(type),
		polls: (type) => services.polls(type),
	};
}

/**
 * Every clock of the file that names a Schedule's next firing, turned into that instant (the
 * runner reads instants only); what cannot be resolved is said where it is.
 */
function resolveClocks(spec: TestFile, workflow: Workflow): Misfit[] {
	const found: Misfit[] = [];
	const zone = workflowZone(workflow);
	const schedules = schedulesOf(workflow);
	const resolved = (value: ClockSpec | undefined, at: PropertyKey[]): ClockSpec | undefined => {
		if (value === undefined || typeof value === 'string') return value;
		const node = value.of
			? workflow.nodes.find((n) => n.name === value.of)
			: schedules.length === 1
				? schedules[0]
				: undefined;
		const names = schedules.map((n) => `"${n.name}"`).join(', ');
		const crons = node
			? scheduleCrons(node)
			: value.of
				? `the workflow has no node named "${value.of}" (its Schedule Triggers: ${names || 'none'})`
				: schedules.length
					? `the workflow has ${schedules.length} Schedule Triggers (${names}): name one with of`
					: 'the workflow has no Schedule Trigger (enabled) to fire: give the clock as an instant';
		if (typeof crons === 'string') {
			found.push({ at: [...at, value.of ? 'of' : 'nextFiringAfter'], message: crons });
			return value;
		}
		return new Date(nextFiring(crons, Date.parse(value.nextFiringAfter), zone)).toISOString();
	};
	spec.clock = resolved(spec.clock, ['clock']);
	spec.cases.forEach((c, i) => {
		c.clock = resolved(c.clock, ['cases', i, 'clock']);
		if (Array.isArray(c.runs))
			c.runs.forEach((r, j) => (r.clock = resolved(r.clock, ['cases', i, 'runs', j, 'clock'])));
	});
	return found;
}

/**
 * Names the file uses that are not where it uses them: a stub's in the workflow or any
 * sub-workflow, a sub-workflow's among those the workflow calls, a sub-workflow expectation's node
 * in that sub-workflow, every other in the workflow.
 */
function unknownNames(raw: unknown, workflow: Workflow, subs: SubWorkflow[]): Misfit[] {
	const has = (w: Workflow, name: string) => w.nodes.some((n) => n.name === name);
	const list = (w: Workflow) => w.nodes.map((n) => n.name).join(', ');
	const found: Misfit[] = [];
	for (const { path: at, name, scope } of nodeNamesIn(raw)) {
		const sub = subs.find(
			(s) => s.name === (scope.of === 'subWorkflowNode' ? scope.workflow : name),
		);
		if (scope.of === 'workflow' && !has(workflow, name))
			found.push({
				at,
				message: `the workflow has no node named "${name}" (it has: ${list(workflow)})`,
			});
		else if (
			scope.of === 'stub' &&
			![workflow, ...subs.map((s) => s.workflow)].some((w) => has(w, name))
		)
			found.push({
				at,
				message: `the workflow has no node named "${name}" (it has: ${list(workflow)}${subs.map((s) => `; sub-workflow "${s.name}" has: ${list(s.workflow)}`).join('')})`,
			});
		else if (scope.of === 'subWorkflow' && !sub)
			found.push({
				at,
				message: `the workflow calls no sub-workflow named "${name}" (${subs.length ? `it calls: ${subs.map((s) => `"${s.name}"`).join(', ')}` : 'it calls none the runner creates'})`,
			});
		else if (scope.of === 'subWorkflowNode' && sub && !has(sub.workflow, name))
			found.push({
				at,
				message: `sub-workflow "${sub.name}" has no node named "${name}" (it has: ${list(sub.workflow)})`,
			});
	}
	return found;
}

/** The exported workflow, or undefined with why (told to `refuse`). */
export function readWorkflow(
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

type Issue = z.core.$ZodIssue;

const article = (type: string): string => `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;

/**
 * zod's issues as a user fixes them: an unknown field at its own line; of a value that matches no
 * form of a union, the form it came closest to (the deepest issue), or the forms it may take.
 */
/**
 * Where services add their fields (the file, a case, a case's expect): an unknown field there may
 * be a service's whose package is not installed.
 */
const servicesPlace = (path: PropertyKey[]): boolean =>
	path.length === 0 ||
	(path.length === 2 && path[0] === 'cases') ||
	(path.length === 3 && path[0] === 'cases' && path[2] === 'expect');

const SERVICE_HINT =
	" (a service simulator's field? it joins the run when the project installs its package, or with --service)";

function explain(
	issue: Issue,
	base: PropertyKey[] = [],
): { path: PropertyKey[]; line: PropertyKey[]; message: string } {
	const path = [...base, ...issue.path];
	if (issue.code === 'unrecognized_keys')
		return {
			path,
			line: [...path, issue.keys[0]],
			message: `unknown field ${issue.keys.map((k) => `"${k}"`).join(', ')}${servicesPlace(path) ? SERVICE_HINT : ''}`,
		};
	// A change no form takes: each form is an object of one field, which it misses, and the field
	// given is one it does not know.
	const changes =
		issue.code === 'invalid_union'
			? issue.errors.map((branch) =>
					branch.some((i) => i.code === 'unrecognized_keys' && i.path.length === 0)
						? branch.find((i) => i.code !== 'unrecognized_keys' && i.path.length === 1)?.path[0]
						: undefined,
				)
			: [];
	if (changes.length > 1 && changes.every(Boolean))
		return {
			path,
			line: path,
			message: `not a change this run knows: give one of ${changes.map(String).join(', ')}${SERVICE_HINT}`,
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
