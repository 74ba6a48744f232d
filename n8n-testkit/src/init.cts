/**
 * `n8n-testkit test init WORKFLOW.json`: a first test file from the workflow itself. The file's
 * frame comes from the export (the start node's kind and what it takes, a stub for every node of
 * another service, its sub-workflows' included, and what each service it uses drafts: a seed);
 * its expectations come from a real run of that frame (the status, each node's items, fields every
 * item has such as an email, and what each service drafts from what it got: credits charged,
 * requests). The file passes as written; its comments say what to tighten, and what could not be
 * inferred is said on stderr.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { Document, type Pair, type YAMLMap, isMap, isPair, isScalar, isSeq } from 'yaml';
import { readWorkflow } from './file/load.cjs';
import { shippedFor } from './http-mocks/shipped/index.cjs';
import { runWorkflowTests, type WorkflowTestOptions } from './run.cjs';
import type { WorkflowTestService } from './services/service.cjs';
import { Services } from './services/services.cjs';
import type { WorkflowTestCaseDetail } from './types.cjs';
import { formFieldNames } from './workflow/form.cjs';
import {
	FORM_TRIGGER,
	hasTimeLimit,
	isChatModel,
	isTrigger,
	needsStub,
	resumeMethod,
	resumesOnForm,
	speaksHttp,
	WEBHOOK,
	writtenRequest,
} from './workflow/node-kinds.cjs';
import { parameterNames } from './workflow/outputs.cjs';
import { readersOf, requestFieldsRead, sampleFor, timeReaders } from './workflow/reads.cjs';
import { SCHEDULE_TRIGGER, scheduleCrons } from './workflow/schedule.cjs';
import { findStart } from './workflow/start.cjs';
import { callsOf, findSubWorkflows, type SubWorkflow } from './workflow/sub-workflows.cjs';
import type { Workflow, WorkflowNode } from './workflow/workflow.cjs';

export interface InitOptions
	extends Pick<WorkflowTestOptions, 'n8n' | 'n8nNode' | 'nodes' | 'services'> {
	/** The command as users type it, for the file's first comment (default n8n-testkit test). */
	program?: string;
	/** Exported workflows: a test file each. */
	workflows: string[];
	/** Where the test files go (default the working folder). */
	out?: string;
	force?: boolean;
	cwd?: string;
	progress?: (line: string) => void;
}

/** What init did for one workflow. */
export interface InitResult {
	workflow: string;
	/** The test file written. */
	file?: string;
	/** What the file leaves for the user to say, one line each. */
	notes: string[];
	/** Why nothing was written. */
	error?: string;
}

/** A first value for a form field, by its type. */
const SAMPLE: Record<string, unknown> = {
	number: 1,
	email: 'someone@example.com',
	date: '2026-01-15',
	textarea: 'A longer answer',
	password: 'a-secret',
};

/** The frame of the file: everything but the expectations, with what it could not infer. */
function frame(
	workflow: Workflow,
	workflowPath: string,
	start: WorkflowNode,
	outDir: string,
	services: Services,
): {
	spec: Record<string, unknown>;
	notes: string[];
	subs: SubWorkflow[];
	used: WorkflowTestService[];
} {
	const notes: string[] = [];
	const subs = findSubWorkflows(workflow, workflowPath, {
		listed: [],
		stubbed: () => false,
		shown: (p) => relative(outDir, p) || '.',
		refuse: (_at, message) => notes.push(`${message} (the file stubs it instead)`),
	});
	// Calls of workflows not among the exports beside it: stubbed, said above.
	const unfollowed = new Set(
		[workflow, ...subs.map((s) => s.workflow)].flatMap((w) =>
			callsOf(w)
				.filter((call) => !subs.some((s) => s.id === call.id))
				.map((call) => call.node.name),
		),
	);
	const stubs: Record<string, unknown> = {};
	// Stubbed nodes that could run for real against HTTP mocks, with the mock that would answer.
	const couldRunReal: string[] = [];
	for (const [w, startName] of [
		[workflow, start.name] as const,
		...subs.map((s) => [s.workflow, ''] as const),
	])
		for (const node of w.nodes) {
			if (
				!needsStub(node, startName, (type) => services.claims(type)) &&
				!unfollowed.has(node.name)
			)
				continue;
			if (isChatModel(node.type)) {
				stubs[node.name] = { model: [{ answer: 'An answer written by test init.' }] };
				notes.push(
					`"${node.name}" (a chat model) is scripted with one answer: script the tool calls your case needs (toolCalls)`,
				);
			} else {
				stubs[node.name] = 'passThrough';
				const mock = mockFor(node);
				if (mock) couldRunReal.push(`"${node.name}": ${mock}`);
				// passThrough hands on what the node was given: advice only where that is read.
				const readers = readersOf(w, node);
				if (readers.length)
					notes.push(
						`"${node.name}" (${node.type}) is stubbed with passThrough, which hands on what it was given, but ${readers.map((r) => `"${r}"`).join(', ')} read${readers.length === 1 ? 's' : ''} its answer: give { items: [...] } with what ${node.name} answers`,
					);
			}
		}
	if (couldRunReal.length)
		notes.push(
			`to run a stubbed node for real (n8n's own code sending its requests, its answer read as in production), take away its stub and answer its requests with mocks: ${couldRunReal.join('; ')}`,
		);
	const nodes = [workflow, ...subs.map((s) => s.workflow)].flatMap((w) => w.nodes);
	const used = services.usedBy({}, nodes);
	const testCase: Record<string, unknown> = { name: 'runs as exported (written by test init)' };
	if (start.type === WEBHOOK) {
		const method = (start.parameters?.httpMethod as string | undefined) ?? 'GET';
		const read = requestFieldsRead(workflow, start);
		testCase.request = {
			method,
			...(read.query.length ? { query: sample(read.query) } : {}),
			...(method === 'GET' || method === 'HEAD' ? {} : { body: sample(read.body) }),
		};
		const filled = [...read.body.map((f) => `body.${f}`), ...read.query.map((f) => `query.${f}`)];
		notes.push(
			filled.length
				? `the request to "${start.name}" has sample values for the fields the workflow reads (${filled.join(', ')}): give what its callers send`
				: `the request to "${start.name}" carries no fields (the workflow reads none of its body or query): give what its callers send`,
		);
	} else if (start.type === FORM_TRIGGER) {
		const values = (start.parameters?.formFields as { values?: Record<string, unknown>[] })?.values;
		testCase.request = {
			form: Object.fromEntries(
				formFieldNames(start)
					.filter((name) => values?.some((f) => f.fieldLabel === name))
					.map((name) => {
						const field = values?.find((f) => f.fieldLabel === name);
						return [name, SAMPLE[String(field?.fieldType)] ?? 'An answer'];
					}),
			),
		};
		notes.push(`the form of "${start.name}" is filled in with sample values: give a real answer`);
	} else if (/chatTrigger$/i.test(start.type)) {
		testCase.input = [{ sessionId: 'test-init', action: 'sendMessage', chatInput: 'Hello' }];
		notes.push(`the chat message to "${start.name}" is "Hello": write what a user would ask`);
	} else if (services.polls(start.type)) {
		testCase.runs = 2;
		notes.push(
			`"${start.name}" is checked twice (the first check remembers, the second finds no change): add a run with a change between them (runs: [{...}, { before: [...] }])`,
		);
	}
	const triggers = workflow.nodes.filter((n) => isTrigger(n.type) && !n.disabled);
	if (triggers.length > 1)
		notes.push(
			`it starts at "${start.name}" of the workflow's ${triggers.length} triggers (${triggers.map((t) => t.name).join(', ')}): set start: to test another`,
		);
	// A workflow reading the time gets the minute the file was written as its clock, so the file
	// plays that day however late it runs (a weekday's branch, a date in a subject).
	const readingTime = [workflow, ...subs.map((s) => s.workflow)].flatMap(timeReaders);
	const written = new Date(Math.floor(Date.now() / 60_000) * 60_000)
		.toISOString()
		.replace('.000Z', 'Z');
	// A scheduled workflow runs when its Schedule fires: the first firing after that minute.
	const fires = start.type === SCHEDULE_TRIGGER && Array.isArray(scheduleCrons(start));
	const clock = !readingTime.length ? undefined : fires ? { nextFiringAfter: written } : written;
	if (clock)
		notes.push(
			fires
				? `it reads the time (${readingTime.map((n) => `"${n}"`).join(', ')}), so its cases run when "${start.name}" first fires after the minute this file was written (clock: { nextFiringAfter: ${written} }): set the instant your case needs`
				: `it reads the time (${readingTime.map((n) => `"${n}"`).join(', ')}), so its cases run at the minute this file was written (clock: ${written}): set the instant your case needs`,
		);
	const waitCases = limitedWaitCases(workflow, testCase);
	if (waitCases.length)
		notes.push(
			`"${waitCases[0].wait}" waits for a request with a time limit: a case resumes it by a request (with sample values for what the workflow reads of it: give what really comes) and a case lets its limit pass`,
		);
	const spec: Record<string, unknown> = {
		workflow: relative(outDir, workflowPath) || basename(workflowPath),
		...(triggers.length > 1 ? { start: start.name } : {}),
		...(clock ? { clock } : {}),
		// What each service the workflow uses starts every case with (a seed).
		...drafted(used.map((service) => service.draft?.file?.(nodes))),
		...(Object.keys(stubs).length ? { stubs } : {}),
		cases: [testCase, ...waitCases.map((c) => c.testCase)],
	};
	return { spec, notes, subs, used };
}

/** Sample values for request fields, so a first run follows the happy path. */
const sample = (fields: string[]): Record<string, string | number> =>
	Object.fromEntries(fields.map((field) => [field, sampleFor(field)]));

/**
 * For a workflow whose run waits for a request with a time limit (a Wait on a webhook or a form,
 * a Form node): a case that resumes it by a request, and one that lets the limit pass, each
 * starting as the first case does. Kept only if that first run ends waiting (initTestFiles).
 */
function limitedWaitCases(
	workflow: Workflow,
	first: Record<string, unknown>,
): { wait: string; testCase: Record<string, unknown> }[] {
	const wait = workflow.nodes.find((n) => !n.disabled && hasTimeLimit(n));
	if (!wait || first.runs !== undefined) return [];
	const { name: _name, ...start } = first;
	let resume: Record<string, unknown>;
	if (resumesOnForm(wait))
		resume = { form: Object.fromEntries(formFieldNames(wait).map((f) => [f, 'An answer'])) };
	else {
		const method = resumeMethod(wait);
		const read = requestFieldsRead(workflow, wait);
		resume =
			method === 'GET' || method === 'HEAD'
				? read.query.length || read.body.length
					? { query: sample([...read.query, ...read.body]) }
					: {}
				: { body: sample(read.body), ...(read.query.length ? { query: sample(read.query) } : {}) };
	}
	return [
		{ resume, name: `"${wait.name}" is resumed by a request (written by test init)` },
		{
			resume: { timeout: true },
			name: `"${wait.name}" times out, no request coming (written by test init)`,
		},
	].map(({ resume: r, name }) => ({
		wait: wait.name,
		testCase: { name, ...start, runs: [{}, { resume: r }] },
	}));
}

/** A field every item has with an email in it: the stable field a first test checks. */
function everyOf(items: Record<string, unknown>[]): Record<string, string> | undefined {
	if (!items.length) return undefined;
	for (const field of ['email', 'emailAddress'])
		if (items.every((item) => typeof item[field] === 'string' && /@/.test(item[field])))
			return { [field]: '/@/' };
	return undefined;
}

type RunNodes = WorkflowTestCaseDetail['runs'][number]['nodes'];

/** Each node of the export: its items (per output where it has several), or that it did not run. */
function nodeExpectations(workflow: Workflow, ran: RunNodes): Record<string, unknown> {
	const nodes: Record<string, unknown> = {};
	for (const node of workflow.nodes) {
		if (node.type === 'n8n-nodes-base.stickyNote' || node.disabled) continue;
		const did = ran[node.name];
		if (!did) {
			nodes[node.name] = { ran: false };
			continue;
		}
		const every = everyOf(did.first[0] ?? []);
		// Outputs by the names the editor shows where the node's parameters give them (a Switch's).
		const names = parameterNames(node);
		if (did.items.length > 1)
			nodes[node.name] = did.items.map((items, output) => ({
				output: names?.[output] ?? output,
				items,
			}));
		else nodes[node.name] = { items: did.items[0] ?? 0, ...(every ? { every } : {}) };
	}
	return nodes;
}

/** The nodes that ran in a run (before a Wait), each with its items. */
function nodesThatRan(workflow: Workflow, ran: RunNodes): Record<string, unknown> {
	return Object.fromEntries(
		Object.entries(nodeExpectations(workflow, ran)).filter(([name]) => name in ran),
	);
}

/**
 * What ran after a Wait: each node that ran with its items, and every node that ran neither
 * before nor after it (the branch not taken) as not run.
 */
function nodesAfter(
	workflow: Workflow,
	before: RunNodes,
	after: RunNodes,
): Record<string, unknown> {
	const all = nodeExpectations(workflow, after);
	return Object.fromEntries(
		Object.entries(all).filter(([name]) => name in after || !(name in before)),
	);
}

/** The expectations of the one case, from what its run did (and what each service drafts of it). */
function expectations(
	workflow: Workflow,
	detail: WorkflowTestCaseDetail,
	subs: { name: string; workflow: Workflow }[],
	used: WorkflowTestService[],
): Record<string, unknown> {
	const last = detail.runs[detail.runs.length - 1];
	const workflows = Object.fromEntries(
		subs.flatMap((sub) => {
			const ran = detail.workflows?.[sub.name];
			return ran
				? [
						[
							sub.name,
							{ executions: ran.executions, nodes: nodeExpectations(sub.workflow, ran.nodes) },
						],
					]
				: [];
		}),
	);
	return {
		status: last.status,
		...(last.error ? { error: { node: last.error.node } } : {}),
		nodes: nodeExpectations(workflow, last.nodes),
		...(Object.keys(workflows).length ? { workflows } : {}),
		...serviceExpectations(detail, used),
	};
}

/** What each service drafts from what it got in the case (Lead Inbox: expect.service). */
function serviceExpectations(
	detail: WorkflowTestCaseDetail,
	used: WorkflowTestService[],
): Record<string, unknown> {
	return drafted(
		used.map((service) => {
			const got = detail.services?.[service.name];
			return got && service.draft?.expect?.(got);
		}),
	);
}

/** The fields services drafted, together. */
const drafted = (parts: (Record<string, unknown> | undefined)[]): Record<string, unknown> =>
	Object.fromEntries(parts.flatMap((part) => Object.entries(part ?? {})));

const SCHEMA = 'workflow-test.schema.json';

/**
 * The test file format's JSON Schema as an editor loads it, relative to the file written: the one
 * a service the file uses ships (its fields composed in), else the runner's, from the project's
 * node_modules when installed there, else beside this program.
 */
function schemaFor(dir: string, used: WorkflowTestService[]): string {
	const own = used.find((s) => s.jsonSchema && existsSync(s.jsonSchema))?.jsonSchema;
	if (own) return relative(dir, own);
	for (let at = dir; ; at = dirname(at)) {
		const installed = join(at, 'node_modules', 'n8n-testkit', SCHEMA);
		if (existsSync(installed)) return relative(dir, installed);
		if (dirname(at) === at) break;
	}
	// Bundled: dist/ beside the package's schema; from the sources: n8n-testkit/.
	const shipped = [join(__dirname, '..', SCHEMA), join(__dirname, '..', '..', SCHEMA)].find(
		existsSync,
	);
	return shipped ? relative(dir, shipped) : SCHEMA;
}

/** Comments on the file's parts: where each came from and what to tighten. */
function annotate(
	doc: Document,
	notes: string[],
	schemaPath: string,
	by: { program: string; used: WorkflowTestService[] },
): void {
	doc.commentBefore = [
		` yaml-language-server: $schema=${schemaPath}`,
		` Written by \`${by.program} init\` from one run in real n8n: it passes as written.`,
		' Tighten it: the counts below are what that run did, not what the workflow must do.',
		' Reference: docs/testing-workflows.md.',
		...(notes.length ? [' To do:', ...notes.map((n) => ` - ${n}`)] : []),
	].join('\n');
	const comment = (path: (string | number)[], text: string) => {
		const node = doc.getIn(path, true);
		if (isMap(node) || isSeq(node) || isScalar(node)) node.commentBefore = ` ${text}`;
	};
	const root = doc.contents as YAMLMap;
	const pair = (key: string) =>
		root.items.find((p): p is Pair => isPair(p) && isScalar(p.key) && p.key.value === key);
	// What each service says of the fields it drafted.
	for (const service of by.used)
		for (const [key, text] of Object.entries(service.draft?.comments?.file ?? {})) {
			const field = pair(key);
			if (field && isScalar(field.key)) field.key.commentBefore = ` ${text}`;
		}
	const clock = pair('clock');
	if (clock && isScalar(clock.key))
		clock.key.commentBefore = isMap(clock.value)
			? " The instant each case starts at, read by $now, Code nodes, the Schedule item and Waits: the Schedule's first firing after the minute this file was written."
			: ' The instant each case starts at, read by $now, Code nodes, the Schedule item and Waits: the minute this file was written.';
	const stubs = pair('stubs');
	if (stubs && isScalar(stubs.key))
		stubs.key.commentBefore =
			' Nodes of other services, stubbed so the file runs as written: each stands in here, or runs for real against mocks (see To do above).';
	comment(
		['cases', 0, 'expect', 'nodes'],
		'What each node did in the first run: exact counts. Add `every`/`some` for the fields that matter, or ranges ({ atLeast: 1 }).',
	);
	// The cases of a Wait with a time limit: the run up to the Wait, then what ran after it.
	const cases = doc.getIn(['cases'], true);
	if (isSeq(cases))
		cases.items.forEach((_, i) => {
			comment(
				['cases', i, 'runs', 0, 'expect', 'nodes'],
				'The run up to the Wait, which parks the execution: exact counts.',
			);
			comment(
				['cases', i, 'runs', 1, 'expect', 'nodes'],
				'What ran after the Wait (and what ran in neither run: the branch not taken).',
			);
		});
	for (const service of by.used)
		for (const [key, text] of Object.entries(service.draft?.comments?.expect ?? {}))
			comment(['cases', 0, 'expect', key], text);
}

/**
 * Where a first test starts: the workflow's only trigger, or of several the first that is not a
 * Manual Trigger (the one production runs start from; the file names it with `start:`).
 */
function startOf(workflow: Workflow): WorkflowNode | string {
	const found = findStart(workflow);
	if (typeof found !== 'string' || !/ triggers \(/.test(found)) return found;
	const triggers = workflow.nodes.filter((n) => isTrigger(n.type) && !n.disabled);
	return triggers.find((n) => n.type !== 'n8n-nodes-base.manualTrigger') ?? triggers[0];
}

/**
 * Writes a first test file for each workflow. Every workflow is checked first (nothing is written
 * while one is refused: an unreadable export, a file that exists without `force`, no start node);
 * then all the frames run together on one n8n, and each file is written from its own run.
 */
export async function initTestFiles(
	options: InitOptions,
): Promise<{ exitCode: 0 | 1 | 2; results: InitResult[] }> {
	const cwd = options.cwd ?? process.cwd();
	const outDir = resolve(cwd, options.out ?? '.');
	const services = new Services(options.services);
	const planned = options.workflows.map((given) => {
		const workflowPath = resolve(cwd, given);
		const file = join(outDir, `${basename(workflowPath).replace(/\.json$/i, '')}.test.yaml`);
		let error: string | undefined;
		const workflow = readWorkflow(workflowPath, (m) => (error = m));
		const start = workflow ? startOf(workflow) : undefined;
		if (workflow && existsSync(file) && !options.force)
			error = `${relative(cwd, file)} exists: pass --force to write over it, or --out another folder`;
		else if (typeof start === 'string') error = start;
		return { given, workflowPath, file, workflow, start, error };
	});
	if (planned.some((p) => p.error))
		return {
			exitCode: 2,
			results: planned.map((p) => ({ workflow: p.given, notes: [], error: p.error })),
		};
	const frames = planned.map((p) => ({
		...p,
		...frame(p.workflow!, p.workflowPath, p.start as WorkflowNode, outDir, services),
	}));

	// The frames run once, as files of their own beside where the test files go (so paths hold).
	mkdirSync(outDir, { recursive: true });
	const scratch = mkdtempSync(join(outDir, '.test-init-'));
	const drafts = frames.map((f, i) => {
		const draft = join(scratch, `${String(i).padStart(3, '0')}.test.json`);
		writeFileSync(
			draft,
			JSON.stringify({ ...f.spec, workflow: relative(scratch, f.workflowPath) }),
		);
		return draft;
	});
	let run;
	try {
		run = await runWorkflowTests({
			paths: drafts,
			cwd,
			n8n: options.n8n,
			n8nNode: options.n8nNode,
			nodes: options.nodes,
			services: options.services,
			show: true,
			out: () => undefined,
			progress: options.progress,
		});
	} finally {
		rmSync(scratch, { recursive: true, force: true });
	}
	if (run.exitCode === 2)
		return {
			exitCode: 2,
			results: [
				{
					workflow: options.workflows.join(' '),
					notes: [],
					error: run.problems.map((p) => `${p.path ? `${p.path}: ` : ''}${p.message}`).join('\n'),
				},
			],
		};
	const results = frames.map((f, i): InitResult => {
		const cases = run.files[i]?.cases ?? [];
		const ran = cases[0];
		// The cases of a limited Wait, where the first run did end waiting: they replace the first.
		const waiting = ran?.detail?.runs[0]?.status === 'waiting';
		const waits = (f.spec.cases as Record<string, unknown>[]).slice(1).flatMap((testCase, w) => {
			const detail = cases[w + 1]?.detail;
			return waiting && detail?.runs.length === 2 ? [{ testCase, detail }] : [];
		});
		if (waits.length) {
			for (const { testCase, detail } of waits) {
				const [before, after] = detail.runs;
				const drafted = serviceExpectations(detail, f.used);
				(testCase.runs as Record<string, unknown>[])[0].expect = {
					status: before.status,
					nodes: nodesThatRan(f.workflow!, before.nodes),
				};
				(testCase.runs as Record<string, unknown>[])[1].expect = {
					status: after.status,
					...(after.error ? { error: { node: after.error.node } } : {}),
					nodes: nodesAfter(f.workflow!, before.nodes, after.nodes),
				};
				if (Object.keys(drafted).length) testCase.expect = drafted;
			}
			f.spec.cases = waits.map((w) => w.testCase);
		} else f.spec.cases = [(f.spec.cases as unknown[])[0]];
		if (!ran?.detail)
			return {
				workflow: f.given,
				notes: f.notes,
				error: `its first run could not run: ${ran?.failures.map((x) => x.message).join('; ') ?? run.files[i]?.error}`,
			};
		if (!waits.length)
			(f.spec.cases as Record<string, unknown>[])[0].expect = expectations(
				f.workflow!,
				ran.detail,
				f.subs,
				f.used,
			);
		const doc = new Document(f.spec);
		const notes = [...f.notes];
		const last = ran.detail.runs[ran.detail.runs.length - 1];
		if (last?.status === 'error')
			notes.push(
				`its run failed${last.error?.node ? ` at "${last.error.node}"` : ''}${last.error?.message ? ` (${last.error.message})` : ''}, so the case expects that failure: give the input that makes it succeed, and a case of its own for the failure`,
			);
		annotate(doc, notes, schemaFor(dirname(f.file), f.used), {
			program: options.program ?? 'n8n-testkit test',
			used: f.used,
		});
		mkdirSync(dirname(f.file), { recursive: true });
		writeFileSync(f.file, doc.toString({ lineWidth: 100 }));
		return { workflow: f.given, file: f.file, notes };
	});
	return { exitCode: results.some((r) => r.error) ? 1 : 0, results };
}

/** The mock that would answer a node run for real: the answers shipped for it, or its URL's. */
function mockFor(node: WorkflowNode): string | undefined {
	if (!speaksHttp(node.type)) return undefined;
	const shipped = shippedFor(node.type);
	if (shipped) return `mocks: [{ use: ${shipped} }]`;
	const written = writtenRequest(node);
	return written
		? `mocks: [{ request: { method: ${written.method}, url: ${written.url} }, answer: { json: { ... } } }]`
		: 'mocks: [{ request: { url: ... }, answer: { json: { ... } } }]';
}
