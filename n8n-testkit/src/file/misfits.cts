/**
 * A test file against the workflow it tests: what it asks that the workflow cannot do, each with
 * where it is in the file (load.cts adds the line). Read before anything runs, all in one pass.
 */
import type { Exchange } from '../http-mocks/exchange.cjs';
import { misses } from '../http-mocks/mock-set.cjs';
import { expandUse, shippedFor, useProblem } from '../http-mocks/shipped/index.cjs';
import { formFieldNames } from '../workflow/form.cjs';
import {
	FORM_TRIGGER,
	hasTimeLimit,
	isChatModel,
	type Claimed,
	needsStub,
	resumeMethod,
	resumesOnForm,
	speaksHttp,
	resumesOnWebhook,
	takesRequests,
	waitsForRequest,
	writtenRequest,
} from '../workflow/node-kinds.cjs';
import type { SubWorkflow } from '../workflow/sub-workflows.cjs';
import type { Workflow, WorkflowNode } from '../workflow/workflow.cjs';
import type { MockSpec, RequestSpec, ResumeSpec, TestFile } from './schema.cjs';
import { nodeExpectationsOf } from './walk.cjs';

export interface Misfit {
	at: PropertyKey[];
	message: string;
}

/** Every check below that needs the file's shape right. */
export function misfits(
	spec: TestFile,
	workflow: Workflow,
	start: WorkflowNode,
	subWorkflows: SubWorkflow[] = [],
	claimed?: Claimed,
): Misfit[] {
	return [
		...unstubbed(spec, workflow, start.name, '', claimed),
		// A sub-workflow starts at its Execute Workflow Trigger, which runs inside n8n.
		...subWorkflows.flatMap((sub) =>
			unstubbed(spec, sub.workflow, '', ` in sub-workflow "${sub.name}"`, claimed),
		),
		...unknownShipped(spec),
		...unmockedUrls(spec, workflow, start.name),
		...sentWithoutStub(spec),
		...modelStubsOff(spec, [workflow, ...subWorkflows.map((s) => s.workflow)]),
		...requestsOff(spec, start),
		...resumesOff(spec, [workflow, ...subWorkflows.map((s) => s.workflow)]),
		...credentialsOff(spec, [workflow, ...subWorkflows.map((s) => s.workflow)]),
	];
}

/** Credential values the file gives for a credential no node of the workflows names. */
function credentialsOff(spec: TestFile, workflows: Workflow[]): Misfit[] {
	const named = [
		...new Set(
			workflows.flatMap((w) =>
				w.nodes.flatMap((n) => Object.values(n.credentials ?? {}).map((c) => c.name ?? '')),
			),
		),
	].filter(Boolean);
	return Object.keys(spec.credentials ?? {})
		.filter((name) => !named.includes(name))
		.map((name) => ({
			at: ['credentials', name],
			message: `no node of the workflow names a credential "${name}" (they name: ${named.map((n) => `"${n}"`).join(', ') || 'none'}): give the credential's name as the export has it`,
		}));
}

/** A field of the file as written, whatever its shape. */
export function field(value: unknown, key: string): unknown {
	return value && typeof value === 'object' && !Array.isArray(value)
		? (value as Record<string, unknown>)[key]
		: undefined;
}

/** The names of a map as written (none when it is not one). */
export const keysOf = (value: unknown): string[] =>
	value && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value) : [];

/**
 * The nodes a case would run that call another service and have no stub (the file's or the
 * case's): one problem at the file's stubs when no case stubs a node, else one per case that
 * does not.
 */
function unstubbed(
	spec: TestFile,
	workflow: Workflow,
	start: string,
	where = '',
	claimed?: Claimed,
): Misfit[] {
	const found: Misfit[] = [];
	for (const node of workflow.nodes.filter((n) => needsStub(n, start, claimed))) {
		if (spec.stubs?.[node.name]) continue;
		const http = speaksHttp(node.type);
		const shipped = shippedFor(node.type);
		const advice = http
			? `node "${node.name}" (${node.type})${where} would call another service: stub it in the test file (stubs: { "${node.name}": passThrough }, or { items: [...] } for what it should hand on), or let it run for real and answer its requests with mocks (${shipped ? `mocks: [{ use: ${shipped} }], the answers shipped for it` : 'mocks: [{ request: { url: ... }, answer: { json: ... } }]'})`
			: `node "${node.name}" (${node.type})${where} would call another service over a protocol the runner's HTTP mocks cannot answer: stub it in the test file (stubs: { "${node.name}": passThrough }, or { items: [...] } for what it should hand on)`;
		// A case with mocks runs the node for real: its requests go to the mocks.
		const missing = spec.cases.flatMap((c, i) =>
			c.stubs?.[node.name] || (http && mocksIn(spec, c)) ? [] : [i],
		);
		if (!missing.length) continue;
		if (missing.length === spec.cases.length)
			found.push({ at: spec.stubs ? ['stubs'] : ['workflow'], message: advice });
		else
			for (const i of missing)
				found.push({
					at: ['cases', i, 'name'],
					message: `${advice} (other cases stub or mock it; this one does not)`,
				});
	}
	return found;
}

/** A case's own mocks (its list, its and its runs' `before` changes), with where each is in it. */
function mocksOfCase(c: TestFile['cases'][number]): { mock: MockSpec; at: PropertyKey[] }[] {
	const before = (changes: NonNullable<typeof c.before>, at: PropertyKey[]) =>
		changes.flatMap((change, k) =>
			'mock' in change ? [{ mock: change.mock, at: [...at, k, 'mock'] }] : [],
		);
	return [
		...(c.mocks ?? []).map((mock, j) => ({ mock, at: ['mocks', j] })),
		...before(c.before ?? [], ['before']),
		...(Array.isArray(c.runs) ? c.runs : []).flatMap((r, j) =>
			before(r.before ?? [], ['runs', j, 'before']),
		),
	];
}

/** Every mock of the file with where it is: the file's, then each case's. */
const mocksWithPlaces = (spec: TestFile): { mock: MockSpec; at: PropertyKey[] }[] => [
	...(spec.mocks ?? []).map((mock, i) => ({ mock, at: ['mocks', i] })),
	...spec.cases.flatMap((c, i) =>
		mocksOfCase(c).map(({ mock, at }) => ({ mock, at: ['cases', i, ...at] })),
	),
];

/** The mocks a case runs with: the file's and its own. */
const caseMocks = (spec: TestFile, c: TestFile['cases'][number]): MockSpec[] => [
	...(spec.mocks ?? []),
	...mocksOfCase(c).map(({ mock }) => mock),
];

/** `use:` naming answers the runner does not ship, or overriding a whole service's. */
function unknownShipped(spec: TestFile): Misfit[] {
	return mocksWithPlaces(spec).flatMap(({ mock, at }) => {
		if (mock.use === undefined) return [];
		const problem = useProblem(mock.use, mock.answer !== undefined || mock.answers !== undefined);
		return problem ? [{ at: [...at, 'use'], message: problem }] : [];
	});
}

/**
 * HTTP Request nodes with a URL written out (no expression) that run for real in some case, and
 * whose host no mock the file gives (its own, a case's, a run's) answers: mocks forgotten, said
 * before n8n starts with the mock to add. A URL built by an expression is known only when sent,
 * and a request a mock of its host does not take fails its case (the proxy names it).
 */
function unmockedUrls(spec: TestFile, workflow: Workflow, start: string): Misfit[] {
	return workflow.nodes
		.filter((n) => needsStub(n, start) && !spec.stubs?.[n.name])
		.flatMap((node) => {
			const written = writtenRequest(node);
			if (!written) return [];
			const { method, url, parsed } = written;
			const real = spec.cases.filter((c) => !c.stubs?.[node.name] && mocksIn(spec, c));
			const sent: Exchange = {
				method,
				url,
				host: parsed.host,
				path: parsed.pathname,
				query: {},
				headers: {},
			};
			// Only the method and URL are known before it runs. A mock for the node's service at all
			// will do: its URL (any method), or its host. One that differs in method or path is a
			// case's failure to show, not a file's to refuse (the workflow may be what changed: a
			// PUT where the service takes a POST).
			const answers = (mock: MockSpec) =>
				// A use: naming nothing shipped is said on its own (unknownShipped).
				(mock.use === undefined || !useProblem(mock.use, false)) &&
				expandUse(mock).some(
					({ spec: m }) =>
						!misses(m.request!, sent).includes('url') ||
						(URL.canParse(m.request!.url) && new URL(m.request!.url).host === parsed.host),
				);
			if (!real.length || real.some((c) => caseMocks(spec, c).some(answers))) return [];
			return [
				{
					at: spec.mocks ? ['mocks'] : ['workflow'],
					message: `node "${node.name}" sends ${method} ${url}, and no mock of the file answers ${parsed.host}: add mocks: [{ request: { method: ${method}, url: ${url} }, answer: { status: 200, json: { ... } } }], or stub the node`,
				},
			];
		});
}

/** Whether a case gives mocks (its own, the file's, or a run's): its unstubbed nodes run for real. */
export const mocksIn = (spec: TestFile, c: TestFile['cases'][number]): boolean =>
	caseMocks(spec, c).length > 0;

/**
 * Requests and their answers where they cannot be: a request to a workflow whose start is neither
 * a Webhook nor a Form Trigger, a body to a form or fields to a Webhook, a field the form lacks, an
 * expected response in a case that sends no request.
 */
function requestsOff(spec: TestFile, start: WorkflowNode): Misfit[] {
	const found: Misfit[] = [];
	const form = start.type === FORM_TRIGGER ? formFieldNames(start) : undefined;
	spec.cases.forEach((c, i) => {
		const runs = Array.isArray(c.runs) ? c.runs : [];
		const requests: [PropertyKey[], RequestSpec][] = [
			...(c.request ? [[['cases', i, 'request'], c.request] as [PropertyKey[], RequestSpec]] : []),
			...runs.flatMap((r, j) =>
				r.request
					? [[['cases', i, 'runs', j, 'request'], r.request] as [PropertyKey[], RequestSpec]]
					: [],
			),
		];
		for (const [at, request] of requests) {
			if (!takesRequests(start.type))
				found.push({
					at,
					message: `the workflow starts at "${start.name}" (${start.type}), not a Webhook or a Form Trigger: a request calls one of those; give input items instead`,
				});
			else if (form && request.body !== undefined)
				found.push({
					at: [...at, 'body'],
					message: `"${start.name}" is a Form Trigger: give its fields as form: { <label>: value } (it has: ${form.join(', ')})`,
				});
			else if (!form && request.form)
				found.push({
					at: [...at, 'form'],
					message: `"${start.name}" is a Webhook, not a Form Trigger: send what it takes as body (JSON or text)`,
				});
			for (const name of Object.keys((form && request.form) || {}))
				if (!form!.includes(name))
					found.push({
						at: [...at, 'form', name],
						message: `the form of "${start.name}" has no field "${name}" (it has: ${form!.join(', ')})`,
					});
		}
		if (requests.length || runs.some((r) => r.resume)) return;
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

/**
 * Resumes that cannot be: in the first run (nothing waits yet), beside a start of the workflow
 * (a run does one or the other), in a workflow with no node that waits for a request, a timeout
 * beside a request or where no such node has a time limit, a form field the form lacks.
 */
function resumesOff(spec: TestFile, workflows: Workflow[]): Misfit[] {
	const found: Misfit[] = [];
	const waits = workflows.flatMap((w) => w.nodes).filter(waitsForRequest);
	spec.cases.forEach((c, i) => {
		(Array.isArray(c.runs) ? c.runs : []).forEach((r, j) => {
			if (!r.resume) return;
			const at = ['cases', i, 'runs', j, 'resume'];
			const requestParts = Object.keys(r.resume).filter((k) => k !== 'timeout');
			if (r.resume.timeout && r.expect?.response)
				found.push({
					at: ['cases', i, 'runs', j, 'expect', 'response'],
					message:
						'the run lets the time limit pass (resume: { timeout: true }): no request is sent, so there is no answer to check',
				});
			if (j === 0)
				found.push({
					at,
					message:
						'the first run has nothing to resume: a resume continues the execution an earlier run left waiting (status: waiting)',
				});
			else if (r.request || r.input)
				found.push({
					at,
					message: `a run starts the workflow (${r.request ? 'request' : 'input'}) or resumes a waiting execution (resume), not both: make them two runs`,
				});
			else if (r.resume.timeout && requestParts.length)
				found.push({
					at,
					message: `a resume sends a request or lets the wait's time limit pass (timeout), not both: leave out ${requestParts.join(', ')}, or timeout`,
				});
			else if (r.resume.timeout && !waits.some(hasTimeLimit))
				found.push({
					at: [...at, 'timeout'],
					message: waits.length
						? `no node that waits for a request has a time limit (${waits.map((w) => `"${w.name}"`).join(', ')}: Limit Wait Time is off): only a request resumes it`
						: 'no node of the workflow waits for a request with a time limit (a Wait on a webhook or a form with Limit Wait Time on): there is nothing to time out',
				});
			else if (!waits.length)
				found.push({
					at,
					message:
						'no node of the workflow waits for a request (a Wait resuming on a webhook or a form, a Form node, a send-and-wait): there is nothing to resume',
				});
			else if (r.resume.form) {
				const forms = waits.filter(resumesOnForm);
				const names = forms.flatMap(formFieldNames);
				if (!forms.length)
					found.push({
						at: [...at, 'form'],
						message: `no node of the workflow waits on a form ("${waits[0].name}" waits on a webhook): send what it takes as body`,
					});
				else
					for (const name of Object.keys(r.resume.form))
						if (!names.includes(name))
							found.push({
								at: [...at, 'form', name],
								message: `the form of "${forms[0].name}" has no field "${name}" (it has: ${names.join(', ')})`,
							});
			} else if (!r.resume.timeout) found.push(...methodOff(r.resume, waits, at));
		});
	});
	return found;
}

/**
 * A resume n8n would not take: a method no waiting node listens for (n8n answers it, and resumes
 * nothing), or a body on a GET (fetch cannot send one; n8n would never read it).
 */
function methodOff(resume: ResumeSpec, waits: WorkflowNode[], at: PropertyKey[]): Misfit[] {
	const hooks = waits.filter(resumesOnWebhook);
	if (!hooks.length) return [];
	const listened = hooks.map((w) => `"${w.name}" listens for ${resumeMethod(w)}`).join(', ');
	if (resume.method && !hooks.some((w) => resumeMethod(w) === resume.method))
		return [
			{
				at: [...at, 'method'],
				message: `no waiting node listens for ${resume.method} (${listened}): n8n would answer and resume nothing. Leave method out (the waiting node's own is used), or change the node's HTTP Method`,
			},
		];
	const methods = resume.method ? [resume.method] : [...new Set(hooks.map(resumeMethod))];
	if (resume.body !== undefined && methods.every((m) => m === 'GET' || m === 'HEAD'))
		return [
			{
				at: [...at, 'body'],
				message: `a ${methods.join(' or ')} request carries no body (${listened}): send what it reads as query, or set the node's HTTP Method to POST`,
			},
		];
	return [];
}

/** A model stub on a node that is not a chat model, or a turn calling a tool the workflow lacks. */
function modelStubsOff(spec: TestFile, workflows: Workflow[]): Misfit[] {
	const found: Misfit[] = [];
	const nodes = new Map(workflows.flatMap((w) => w.nodes).map((n) => [n.name, n]));
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
							message: `turn ${t + 1} calls "${call.tool}", which the workflow does not have (its tools are nodes: ${[...nodes.keys()].join(', ')})`,
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
function sentWithoutStub(spec: TestFile): Misfit[] {
	return spec.cases.flatMap((c, i) =>
		nodeExpectationsOf(c)
			.filter(
				({ node, expectation }) => expectation.sent && !(spec.stubs?.[node] ?? c.stubs?.[node]),
			)
			.map(({ node, at }) => ({
				at: ['cases', i, ...at, 'sent'],
				message: `"${node}" is not stubbed in this case: sent reads what a stubbed node would have sent (a node that runs sends for real: expect on its items)`,
			})),
	);
}

/**
 * Where a name the file mentions must be found: a node of the workflow, a stubbed node (in the
 * workflow or a sub-workflow), a sub-workflow, or a node of that sub-workflow.
 */
export type NameScope =
	| { of: 'workflow' }
	| { of: 'stub' }
	| { of: 'subWorkflow' }
	| { of: 'subWorkflowNode'; workflow: string };

/** Every node (and sub-workflow) name the file mentions, with where it is; read as written. */
export function nodeNamesIn(
	spec: unknown,
): { path: PropertyKey[]; name: string; scope: NameScope }[] {
	const found: { path: PropertyKey[]; name: string; scope: NameScope }[] = [];
	const check = (name: unknown, path: PropertyKey[], scope: NameScope = { of: 'workflow' }) => {
		if (typeof name === 'string') found.push({ path, name, scope });
	};
	const checkRun = (e: unknown, at: PropertyKey[], scope?: NameScope) => {
		check(field(field(e, 'error'), 'node'), [...at, 'error', 'node'], scope);
		for (const name of keysOf(field(e, 'nodes'))) check(name, [...at, 'nodes', name], scope);
	};
	check(field(spec, 'start'), ['start']);
	for (const name of keysOf(field(spec, 'stubs'))) check(name, ['stubs', name], { of: 'stub' });
	const cases = field(spec, 'cases');
	(Array.isArray(cases) ? cases : []).forEach((c: unknown, i) => {
		const at = ['cases', i];
		for (const name of keysOf(field(c, 'stubs')))
			check(name, [...at, 'stubs', name], { of: 'stub' });
		const expect = field(c, 'expect');
		checkRun(expect, [...at, 'expect']);
		checkRun(field(expect, 'everyRun'), [...at, 'expect', 'everyRun']);
		check(field(field(expect, 'distinct'), 'node'), [...at, 'expect', 'distinct', 'node']);
		for (const list of ['http', 'httpOrder'] as const) {
			const entries = field(expect, list);
			(Array.isArray(entries) ? entries : []).forEach((entry: unknown, j) =>
				check(field(entry, 'node'), [...at, 'expect', list, j, 'node']),
			);
		}
		const workflows = field(expect, 'workflows');
		for (const name of keysOf(workflows)) {
			const path = [...at, 'expect', 'workflows', name];
			check(name, path, { of: 'subWorkflow' });
			checkRun(field(workflows, name), path, { of: 'subWorkflowNode', workflow: name });
		}
		const runs = field(c, 'runs');
		if (Array.isArray(runs))
			runs.forEach((r: unknown, j) => checkRun(field(r, 'expect'), [...at, 'runs', j, 'expect']));
	});
	return found;
}
