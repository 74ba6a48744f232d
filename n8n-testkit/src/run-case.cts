/**
 * One case: the service put back to the file's seed (and the case's), the workflow created in the
 * file's n8n as the case runs it, each run started as its start node would start it, and what came
 * checked against the case's expectations.
 */
import { applyChange } from './changes.cjs';
import { CaseClock } from './clock/case-clock.cjs';
import { TimeWaits } from './clock/time-waits.cjs';
import {
	checkDistinct,
	checkRun,
	checkSubWorkflow,
	type Failure,
	type RunView,
} from './expect/check.cjs';
import { checkHttp, checkHttpOrder, neverFailures, unansweredFailures } from './expect/http.cjs';
import { shown } from './expect/match.cjs';
import type { LoadedTestFile, Workflow, WorkflowNode } from './file/load.cjs';
import {
	clockInstant,
	type NodeExpectation,
	type RequestSpec,
	type ResumeSpec,
	type RunExpectation,
	type RunSpec,
	type TestCase,
} from './file/schema.cjs';
import { attributeRequests } from './http-mocks/exchange.cjs';
import { MockSet } from './http-mocks/mock-set.cjs';
import {
	type Execution,
	executionList,
	finished,
	type ListedExecution,
	readExecution,
	resting,
} from './n8n/executions.cjs';
import { n8nFetch, until } from './n8n/rest.cjs';
import { type CaseDetail, runDetail } from './report/detail.cjs';
import type { NodeDescription, Session } from './session.cjs';
import { type CreatedSubWorkflow, createSubWorkflow } from './sub-workflow-runs.cjs';
import type { WorkflowTestCaseResult } from './types.cjs';
import { formData } from './workflow/form.cjs';
import { resumeMethod, resumesOnForm } from './workflow/node-kinds.cjs';
import { type OutputRef, resolveOutput, unknownOutput } from './workflow/outputs.cjs';
import { prepareWorkflow, type StartPlan } from './workflow/prepare.cjs';
import { scheduleItem } from './workflow/schedule-item.cjs';
import { offScheduleCheck, workflowZone } from './workflow/schedule.cjs';
import { type SentPlan, sentOf } from './workflow/sent.cjs';
import { findStart } from './workflow/start.cjs';

export type CaseResult = WorkflowTestCaseResult;

export interface CaseOptions {
	/** Keeps what the case did (--show, --report, coverage, the upgrade check). */
	detail?: boolean;
	/** The instant a case's clock starts at when neither it nor its file gives one. */
	clock?: string;
}

const RUN_TIMEOUT_MS = 5 * 60_000;
/**
 * How often n8n's executions are listed while a run goes on: a run is seen ended within this
 * (measured: at 100 ms, a case whose nodes answer 70 ms later was seen up to 100 ms later).
 */
const SETTLED_POLL_MS = 25;
/** How long n8n may take to register a published workflow's webhooks (a bound, not a speed claim). */
const REGISTERED_MS = 2 * 60_000;

export async function runCase(
	session: Session,
	loaded: LoadedTestFile,
	testCase: TestCase,
	options: CaseOptions = {},
): Promise<CaseResult> {
	// Other services' answers: the case's mocks first, then the file's.
	const caseAt = `cases.${loaded.spec.cases.indexOf(testCase)}`;
	const mocks = new MockSet([
		...(testCase.mocks ?? []).map((spec, i) => ({ spec, at: `${caseAt}.mocks.${i}` })),
		...(loaded.spec.mocks ?? []).map((spec, i) => ({ spec, at: `mocks.${i}` })),
	]);
	mocks.secrets = session.secrets;
	session.http.use(mocks);
	try {
		return await playCase(session, loaded, testCase, { mocks, caseAt, ...options });
	} finally {
		session.http.use(undefined);
	}
}

async function playCase(
	session: Session,
	loaded: LoadedTestFile,
	testCase: TestCase,
	options: { mocks: MockSet; caseAt: string } & CaseOptions,
): Promise<CaseResult> {
	const { mocks, caseAt } = options;
	const started = Date.now();
	const { rest } = session;
	const services = session.services.map((s) => s.session);
	const start = findStart(loaded.workflow, loaded.spec.start) as WorkflowNode;
	const stubs = { ...loaded.spec.stubs, ...testCase.stubs };
	const adapt = {
		stubs,
		modelCredential: session.model?.credential,
		polls: loaded.polls,
		serviceCredentials: session.services.flatMap(({ service, credential }) =>
			credential ? [{ claims: (type: string) => service.claims(type), credential }] : [],
		),
		madeUp: session.madeUp,
		label: `test: ${testCase.name}`,
	};
	await session.reset();
	const zone = workflowZone(loaded.workflow);
	// The case's clock, n8n's and the services': from the instant the file or case gives, or now.
	const clock = new CaseClock(session.clock, services);
	// Answers that give the time ({{now}}) give the case's.
	mocks.now = () => clock.now();
	const startsAt = clockInstant(testCase.clock ?? loaded.spec.clock) ?? options.clock;
	await clock.set(startsAt ? Date.parse(startsAt) : Date.now());
	// Sub-workflows first (callees before callers), each published: the workflow calls them by ID.
	const subs: CreatedSubWorkflow[] = [];
	const subIds = new Map<string, string>();
	try {
		for (const sub of loaded.subWorkflows) {
			const one = await createSubWorkflow(session, sub, {
				...adapt,
				created: subIds,
				record: sentRead(testCase.expect?.workflows?.[sub.name]?.nodes),
			});
			subs.push(one);
			subIds.set(sub.id, one.id);
		}
	} catch (error) {
		await Promise.all(subs.map((s) => s.deactivate()));
		throw error;
	}
	const errorWorkflow = subs.find((s) => s.sub.errorWorkflow);
	const prepared = prepareWorkflow(loaded.workflow, {
		...adapt,
		created: subIds,
		errorWorkflow: errorWorkflow?.id,
		start,
		record: sentRead(...nodeExpectationMaps(testCase)),
		viaRequest: usesRequests(testCase),
	});
	session.model?.scripts.load(
		Object.fromEntries(
			Object.entries(stubs).flatMap(([node, stub]) =>
				typeof stub === 'object' && 'model' in stub ? [[node, stub.model]] : [],
			),
		),
	);
	for (const service of services) await service.beginCase(testCase as Record<string, unknown>);
	for (const [i, change] of (testCase.before ?? []).entries())
		await applyChange(services, change, { clock, mocks, at: `${caseAt}.before.${i}` });
	for (const service of services) await service.firstRunStarts?.();

	const created = await rest('POST', '/workflows', prepared.workflow);
	if (created.status !== 200)
		throw new Error(`n8n refused the workflow: ${JSON.stringify(created.body).slice(0, 1000)}`);
	const stored = (created.body as { data: StoredWorkflow }).data;
	const workflowId = String(stored.id);
	let versionId = stored.versionId;
	const activate = async () => {
		const answer = await rest('POST', `/workflows/${workflowId}/activate`, { versionId });
		if (answer.status === 200)
			versionId = (answer.body as { data: StoredWorkflow }).data.versionId ?? versionId;
		return answer as N8nAnswer;
	};
	const deactivate = async () => {
		await rest('POST', `/workflows/${workflowId}/deactivate`, {});
	};

	const specs: RunSpec[] =
		typeof testCase.runs === 'number' || testCase.runs === undefined
			? Array.from({ length: testCase.runs ?? 1 }, () => ({}))
			: testCase.runs;
	const views: RunView[] = [];
	const published: Published = {
		session,
		id: workflowId,
		name: prepared.workflow.name!,
		start: prepared.start,
		seen: new Set(),
		activate,
		deactivate,
		waits: new TimeWaits(
			{ rest, flatted: session.app.runDataReader, clock: session.clock },
			clock,
			() => [workflowId, ...subs.map((sub) => sub.id)],
		),
	};
	// From here on a move of the clock passes the case's waits, each at its own instant.
	clock.timers = published.waits;
	const warnings: Failure[] = [];
	// A run of a Schedule at a time it never fires; a clock left to the machine's is not judged.
	const offSchedule =
		startsAt !== undefined && prepared.start.schedule
			? offScheduleCheck(loaded.workflow, prepared.start.node)
			: undefined;
	try {
		for (const [r, run] of specs.entries()) {
			const skipped = published.waits.skips.length;
			if (r > 0 && testCase.advanceClock !== undefined)
				await applyChange(
					services,
					{ advanceClock: testCase.advanceClock },
					{ clock, mocks, at: `${caseAt}.advanceClock` },
				);
			const runClock = clockInstant(run.clock);
			if (runClock !== undefined) await clock.moveTo(Date.parse(runClock), `runs.${r}.clock`);
			for (const [i, change] of (run.before ?? []).entries())
				await applyChange(services, change, {
					clock,
					mocks,
					at: `${caseAt}.runs.${r}.before.${i}`,
				});
			const items =
				run.input ??
				testCase.input ??
				(prepared.start.schedule ? [scheduleItem(new Date(clock.now()), zone)] : [{}]);
			const startedAt = clock.now();
			const off = offSchedule?.(startedAt);
			if (off) warnings.push({ at: specs.length > 1 ? `runs.${r}` : 'run', message: off });
			const view = run.resume
				? await resumeRun(published, run.resume, `runs.${r}.resume`)
				: prepared.start.kind === 'request'
					? await requestRun(published, run.request ?? testCase.request ?? {}, r === 0)
					: prepared.start.kind === 'webhook'
						? await webhookRun(published, items, r === 0)
						: await check(published, r === 0);
			const skips = published.waits.skips.slice(skipped);
			views.push({
				...view,
				...(skips.length ? { skips } : {}),
				clock: { start: startedAt, end: clock.now() },
			});
		}
	} finally {
		// Nothing of the case waits on in n8n (a later case's clock would resume it).
		await stopWaiting(published).catch(() => undefined);
		await deactivate().catch(() => undefined);
		await Promise.all(subs.map((sub) => sub.deactivate()));
	}
	// Every execution of each sub-workflow in the case, once they have all ended; n8n starts the
	// error workflow's after a failed run has ended: one per failed run is waited for.
	const failedRuns = views.filter(
		(v) => v.status === 'error' && Object.keys(v.nodes).length,
	).length;
	const subViews = await Promise.all(
		subs.map(async (sub) => {
			const executions = await sub.executions(sub.sub.errorWorkflow ? failedRuns : 0);
			return { sub, executions: executions.length, view: viewOf(executions, undefined) };
		}),
	);

	const outputIndex = await outputIndexOf(
		session,
		[loaded.workflow, ...loaded.subWorkflows.map((s) => s.workflow)],
		testCase,
	);
	const told = (node: string) => session.model?.scripts.toldTo(node);
	for (const view of views) completeView(view, loaded.workflow, prepared.sent, outputIndex, told);
	for (const { sub, view } of subViews)
		completeView(view, sub.sub.workflow, sub.sent, outputIndex, told);
	// Each request to another service on the node that sent it.
	attributeRequests(mocks.journal, [
		...views.flatMap((v) => runsOf(v)),
		...subViews.flatMap(({ sub, view }) => runsOf(view, sub.sub.name)),
	]);
	const failures: Failure[] = [];
	// A script that ran out, or a tool the agent did not offer: the turn is named.
	for (const { node, message } of session.model?.scripts.failures ?? [])
		failures.push({ at: `stubs.${node}.model`, message });
	const e = testCase.expect ?? {};
	failures.push(...checkRun(e, views[views.length - 1], 'expect'));
	if (e.everyRun)
		views.forEach((v, r) =>
			failures.push(...checkRun(e.everyRun!, v, `expect.everyRun (run ${r + 1})`)),
		);
	specs.forEach(
		(run, r) => run.expect && failures.push(...checkRun(run.expect, views[r], `runs.${r}.expect`)),
	);
	if (e.distinct) failures.push(...checkDistinct(e.distinct, views, 'expect.distinct'));
	// Requests to other services: each one no mock answered, then what the case expects of them.
	failures.push(
		...unansweredFailures(
			mocks,
			views.flatMap((v) =>
				Object.entries(v.nodes).flatMap(([node, runs]) =>
					runs.flatMap((run) =>
						run.error
							? [{ node, text: `${run.error.message} ${run.error.description ?? ''}` }]
							: [],
					),
				),
			),
		),
	);
	failures.push(...neverFailures(mocks));
	if (e.http) failures.push(...checkHttp(e.http, mocks, 'expect.http'));
	if (e.httpOrder) failures.push(...checkHttpOrder(e.httpOrder, mocks, 'expect.httpOrder'));
	for (const service of services)
		if (service.verify) failures.push(...(await service.verify(e as Record<string, unknown>)));
	for (const [name, expectation] of Object.entries(e.workflows ?? {})) {
		const ran = subViews.find((v) => v.sub.sub.name === name)!;
		failures.push(
			...checkSubWorkflow(expectation, ran.executions, ran.view, `expect.workflows.${name}`),
		);
	}
	return {
		name: testCase.name,
		passed: failures.length === 0,
		failures,
		durationMs: Date.now() - started,
		runs: views.length,
		...(warnings.length ? { warnings } : {}),
		...(options.detail ? { detail: await caseDetail() } : {}),
	};

	/** What the case did, for --show and --report. */
	async function caseDetail(): Promise<CaseDetail> {
		const served = await Promise.all(
			session.services.map(
				async ({ service, session: s }) => [service.name, await s.detail?.()] as const,
			),
		);
		return {
			runs: views.map((view) => runDetail(view, zone)),
			...(subViews.length
				? {
						workflows: Object.fromEntries(
							subViews.map(({ sub, executions, view }) => [
								sub.sub.name,
								{ executions, ...runDetail(view, zone) },
							]),
						),
					}
				: {}),
			...(served.some(([, d]) => d)
				? {
						services: Object.fromEntries(served.flatMap(([name, d]) => (d ? [[name, d]] : []))),
					}
				: {}),
			...(mocks.journal.length ? { http: mocks.reportLines() } : {}),
		};
	}
}

/** Every run of every node of a view (of a sub-workflow, named). */
const runsOf = (view: RunView, workflow?: string) =>
	Object.entries(view.nodes).flatMap(([node, runs]) =>
		runs.map((run) => ({
			node,
			workflow,
			startTime: run.startTime,
			executionTime: run.executionTime,
		})),
	);

/**
 * A run's view as the checks read it: output names resolved, what stubbed nodes would have sent
 * (from their recorders), what models were told, and only the export's own nodes (the runner's
 * start, stub holders and recorders leave it).
 */
function completeView(
	view: RunView,
	exported: Workflow,
	sent: Record<string, SentPlan>,
	outputIndex: RunView['outputIndex'],
	told: RunView['told'],
): void {
	view.outputIndex = outputIndex;
	view.told = told;
	view.sent = Object.fromEntries(
		Object.entries(sent).map(([node, plan]) => [node, sentOf(plan, view.nodes)]),
	);
	const own = new Set(exported.nodes.map((n) => n.name));
	for (const node of Object.keys(view.nodes)) if (!own.has(node)) delete view.nodes[node];
}

type NodeExpectations = RunExpectation['nodes'];

/** The node expectations of the tested workflow in a case: the case's, every run's, each run's. */
const nodeExpectationMaps = (testCase: TestCase): NodeExpectations[] => [
	testCase.expect?.nodes,
	testCase.expect?.everyRun?.nodes,
	...(Array.isArray(testCase.runs) ? testCase.runs.map((r) => r.expect?.nodes) : []),
];

/** Node expectations, one by one, with their node. */
const flattened = (...maps: NodeExpectations[]): [string, NodeExpectation][] =>
	maps.flatMap((nodes) =>
		Object.entries(nodes ?? {}).flatMap(([node, list]) =>
			(Array.isArray(list) ? list : [list]).map((x): [string, NodeExpectation] => [node, x]),
		),
	);

/** Every node expectation of a case, its sub-workflows' included, by node. */
const nodeExpectations = (testCase: TestCase): [string, NodeExpectation][] =>
	flattened(
		...nodeExpectationMaps(testCase),
		...Object.values(testCase.expect?.workflows ?? {}).map((w) => w.nodes),
	);

/** Whether the case calls the workflow's own Webhook with real requests (its own or a run's). */
const usesRequests = (testCase: TestCase): boolean =>
	testCase.request !== undefined ||
	(Array.isArray(testCase.runs) && testCase.runs.some((r) => r.request !== undefined));

/** The stubbed nodes these expectations read what they would have sent of. */
const sentRead = (...maps: NodeExpectations[]): Set<string> =>
	new Set(flattened(...maps).flatMap(([node, e]) => (e.sent ? [node] : [])));

/** n8n's answer to an activation: the workflow, or its error message. */
type N8nAnswer = { status: number; body: { message?: string } | undefined };
type Activation = () => Promise<N8nAnswer>;
/** A workflow as n8n's REST API answers it (the part read here). */
interface StoredWorkflow {
	id: string;
	versionId?: string;
}

/** The case's workflow in n8n, and the executions of it already read. */
interface Published {
	session: Session;
	id: string;
	name: string;
	start: StartPlan;
	seen: Set<string>;
	activate: Activation;
	deactivate: () => Promise<void>;
	/** The case's waits on time, moved past as runs reach them. */
	waits: TimeWaits;
	/** The execution the last run left waiting for a request, and its node runs by then. */
	waiting?: { execution: Execution; runs: Record<string, number> };
}

/** Publishes the case's workflow before its first run: its webhooks are then production ones. */
async function publish(workflow: Published): Promise<void> {
	const answer = await workflow.activate();
	if (answer.status !== 200)
		throw new Error(
			`n8n did not publish the workflow: ${JSON.stringify(answer.body).slice(0, 1000)}`,
		);
}

/**
 * A webhook call, sent again while n8n answers 404: it may answer the activation before its
 * webhooks are registered.
 */
async function whenRegistered(send: () => Promise<Response>, what: string): Promise<Response> {
	let answer = await send();
	if (answer.status === 404)
		await until(async () => (answer = await send()).status !== 404, REGISTERED_MS, what, 200);
	return answer;
}

/** One run started through the webhook in the start node's place; its execution read once it ends. */
async function webhookRun(workflow: Published, items: unknown[], first: boolean): Promise<RunView> {
	const { session, start } = workflow;
	if (first) await publish(workflow);
	const call = () =>
		n8nFetch(`${session.app.url}/webhook/${start.webhookPath}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ items }),
		});
	const answer = await whenRegistered(call, "n8n to register the workflow's webhook");
	if (!answer.ok)
		throw new Error(
			`n8n did not start the run (${answer.status}): ${(await answer.text()).slice(0, 500)}`,
		);
	return viewOf(await settled(workflow, 1), start);
}

/** Statuses n8n answers a webhook call with when it starts no execution. */
const NOT_STARTED = new Set([401, 403, 404, 405]);

/**
 * One run started by a real request to the workflow's Webhook (its production URL): what the caller
 * got, and the execution it started once it ends (a call n8n refuses, 401 to 405, starts none).
 */
async function requestRun(
	workflow: Published,
	request: RequestSpec,
	first: boolean,
): Promise<RunView> {
	const { session, start } = workflow;
	if (first) await publish(workflow);
	const method = request.method ?? start.method ?? 'GET';
	const path = (request.path ?? start.webhookPath ?? '').replace(/^\/+/, '');
	const under = start.form ? 'form' : 'webhook';
	const url = `${session.app.url}/${under}/${path}${request.query ? `?${new URLSearchParams(request.query).toString()}` : ''}`;
	const call = () => sendOnce(url, method, request, start.form);
	// A path or method the Webhook does not have stays 404, and is said so.
	const answer = first
		? await whenRegistered(
				call,
				`n8n to answer ${method} /${under}/${path} (404: is it the node's method and path?)`,
			)
		: await call();
	const response = await responseOf(answer);
	if (NOT_STARTED.has(answer.status))
		return {
			status: 'error',
			error: { node: start.node, message: `n8n answered ${answer.status} and started no run` },
			nodes: {},
			outputIndex: byIndex,
			response,
		};
	return { ...viewOf(await settled(workflow, 1), start), response };
}

/**
 * One check of a Lead Inbox Trigger: an activation of the published workflow, which polls once
 * (n8n's own schedule never comes during a test). A check that finds changes starts an execution;
 * one that finds none starts nothing. An activation n8n refuses is the check's error.
 */
async function check(workflow: Published, first: boolean): Promise<RunView> {
	const { session, start } = workflow;
	const eventsBefore = session.triggerEvents(workflow.name);
	if (!first) await workflow.deactivate();
	const answer = await workflow.activate();
	if (answer.status !== 200) {
		const message = (answer.body?.message ?? JSON.stringify(answer.body)).replace(
			/^There was a problem activating the workflow: "?|"$/g,
			'',
		);
		return {
			status: 'error',
			error: { node: start.node, message },
			nodes: { [start.node]: [{ outputs: [[]], hints: [], error: { message } }] },
			outputIndex: () => 0,
		};
	}
	// n8n logged the check's event (if it found changes) before it answered; one more call to n8n
	// lets this process read what n8n wrote by then.
	await executionList(session.rest, workflow.id);
	const events = session.triggerEvents(workflow.name) - eventsBefore;
	return viewOf(await settled(workflow, events), start);
}

/**
 * The workflow's `expected` executions not seen before (and the one resumed, if any), once n8n has
 * finished them or they wait for a request; waits on time are moved past on the way.
 */
async function settled(
	workflow: Published,
	expected: number,
	resumed?: { id: string; runs: number },
): Promise<Execution[]> {
	const { session, seen } = workflow;
	let fresh: ListedExecution[] = [];
	const restingAgain = async (e: ListedExecution) =>
		finished(e) ||
		(e.status === 'waiting' &&
			totalRuns(await readExecution(session.rest, session.app.runDataReader, resumed!.id)) >
				resumed!.runs);
	let executions: Execution[] = [];
	await until(
		async () => {
			fresh = (await executionList(session.rest, workflow.id)).filter(
				(e) => !seen.has(String(e.id)) || String(e.id) === resumed?.id,
			);
			const again = fresh.find((e) => String(e.id) === resumed?.id);
			if (fresh.length < expected + (resumed ? 1 : 0)) return false;
			if (!fresh.every((e) => (e === again ? true : resting(e)))) return false;
			if (again && !(await restingAgain(again))) return false;
			// Only a waiting execution (a parent waits on its sub-workflow too) can need moving on.
			if (fresh.some((e) => e.status === 'waiting') && (await workflow.waits.moveOn()))
				return false;
			// Read as listed: one n8n resumed meanwhile is waited for (a list can be a moment behind).
			executions = await Promise.all(
				fresh.map((e) => readExecution(session.rest, session.app.runDataReader, String(e.id))),
			);
			return executions.every((e) => resting({ id: e.id, status: e.status }));
		},
		RUN_TIMEOUT_MS,
		`the run of workflow ${workflow.id} to end in n8n`,
		SETTLED_POLL_MS,
	);
	executions.forEach((e) => seen.add(e.id));
	const waiting = executions.filter((e) => e.waiting).pop();
	workflow.waiting = waiting ? { execution: waiting, runs: runCounts(waiting) } : undefined;
	return executions.sort((a, b) => Number(a.id) - Number(b.id));
}

/** How many times each node of an execution has run so far. */
const runCounts = (execution: Execution): Record<string, number> =>
	Object.fromEntries(
		Object.entries(execution.run.nodes).map(([node, runs]) => [node, runs.length]),
	);

const totalRuns = (execution: Execution): number =>
	Object.values(runCounts(execution)).reduce((a, b) => a + b, 0);

/**
 * A run that resumes the execution the last run left waiting, by a request or by its time limit
 * passing (timeout), and what the execution did after it (its node runs before the wait left out).
 */
async function resumeRun(workflow: Published, resume: ResumeSpec, at: string): Promise<RunView> {
	const left = workflow.waiting;
	if (!left)
		throw new Error(
			'there is nothing to resume: the previous run left no execution waiting for a request (expect it with status: waiting)',
		);
	const { execution } = left;
	const timedOut = workflow.waits.timedOutAt(execution.id);
	let response: RunView['response'];
	// A limit the clock passed already: the run shows what the execution did when it timed out.
	if (timedOut && !resume.timeout)
		throw new Error(
			`${at}: "${execution.waiting!.node.name}" timed out at ${timedOut}, when its time limit ended with no request, before this run (the clock is at ${new Date(workflow.waits.now()).toISOString()}): n8n went on without a request, and a request now resumes nothing. To check what ran when it timed out, give this run resume: { timeout: true }; to resume it by a request, move the clock less far`,
		);
	if (resume.timeout && !timedOut) await workflow.waits.passLimit(execution);
	else if (!resume.timeout) {
		const sent = await sendResume(workflow, execution, resume);
		response = sent.response;
		if (response.status >= 400 && (await stillWaiting(workflow, left)))
			throw new Error(
				`${at}: n8n answered ${response.status} to ${sent.method} ${sent.url} and resumed nothing: "${execution.waiting!.node.name}" still waits (execution ${execution.id}). n8n said: ${shown(response.body, 300)}`,
			);
	}
	const [again] = await settled(workflow, 0, { id: execution.id, runs: totalRuns(execution) });
	const view = viewOf([again], undefined);
	// What ran after the resume: each node's runs past those it had when the execution waited.
	for (const [name, runs] of Object.entries(view.nodes)) {
		const after = runs.slice(left.runs[name] ?? 0);
		if (after.length) view.nodes[name] = after;
		else delete view.nodes[name];
	}
	return response ? { ...view, response, resumed: { node: execution.waiting!.node.name } } : view;
}

/**
 * The request to a waiting execution's resume URL as n8n makes it (`$execution.resumeUrl`, or
 * `resumeFormUrl` for a form; with 2.40's token), and n8n's answer.
 */
async function sendResume(
	workflow: Published,
	execution: Execution,
	resume: ResumeSpec,
): Promise<{ method: string; url: string; response: NonNullable<RunView['response']> }> {
	const { node, resumeToken } = execution.waiting!;
	const form = resumesOnForm(node);
	const options = node.parameters?.options as { webhookSuffix?: unknown } | undefined;
	const suffix = (resume.path ?? text(options?.webhookSuffix)).replace(/^\/+/, '');
	const url = new URL(
		`${workflow.session.app.url}/${form ? 'form-waiting' : 'webhook-waiting'}/${execution.id}${resumeToken || !suffix ? '' : `/${suffix}`}`,
	);
	// n8n 2.40 reads its token, and a suffix after it, from the signature parameter.
	if (resumeToken)
		url.searchParams.set('signature', suffix ? `${resumeToken}/${suffix}` : resumeToken);
	for (const [key, value] of Object.entries(resume.query ?? {})) url.searchParams.set(key, value);
	const method = resume.method ?? (form ? 'POST' : resumeMethod(node));
	const response = await responseOf(
		await sendOnce(url.toString(), method, resume, form ? (node as WorkflowNode) : undefined),
	);
	return { method, url: url.pathname, response };
}

/** How long n8n may take to show an execution a request resumed as resumed (a bound, not a speed claim). */
const RESUMING_MS = 5_000;

/**
 * Whether an execution still waits as it did, a while after a request n8n answered with an
 * error: a workflow's own answer (a Respond to Webhook's 4xx) comes from a resumed execution,
 * n8n's refusal (an unknown path, another method) from one still waiting.
 */
async function stillWaiting(
	workflow: Published,
	left: NonNullable<Published['waiting']>,
): Promise<boolean> {
	const { rest, app } = workflow.session;
	const before = totalRuns(left.execution);
	try {
		await until(
			async () => {
				const now = await readExecution(rest, app.runDataReader, left.execution.id);
				return now.status !== 'waiting' || totalRuns(now) > before;
			},
			RESUMING_MS,
			'the execution to resume',
			100,
		);
		return false;
	} catch {
		return true;
	}
}

/**
 * A request to n8n as a test gives it: a form's fields as its page sends them (multipart), JSON (an
 * object, a list, a number) as JSON, text as it is.
 */
function sendOnce(
	url: string,
	method: string,
	request: Pick<RequestSpec, 'headers' | 'body' | 'form'>,
	form: WorkflowNode | undefined,
): Promise<Response> {
	const asText = typeof request.body === 'string' ? request.body : undefined;
	const json = request.body !== undefined && asText === undefined;
	return n8nFetch(url, {
		method,
		headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...request.headers },
		body: form
			? formData(form, request.form ?? {})
			: method === 'GET' || method === 'HEAD' || request.body === undefined
				? undefined
				: (asText ?? JSON.stringify(request.body)),
	});
}

/** n8n's answer as a case checks it: its status, headers, and body (JSON parsed when it says so). */
async function responseOf(answer: Response): Promise<NonNullable<RunView['response']>> {
	const text = await answer.text();
	let body: unknown = text;
	if (/json/i.test(answer.headers.get('content-type') ?? ''))
		try {
			body = JSON.parse(text);
		} catch {
			// Not JSON after all: the text as it came.
		}
	return { status: answer.status, headers: Object.fromEntries(answer.headers), body };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Stops the case's executions still waiting (for a request): nothing of a case outlives it. */
async function stopWaiting(workflow: Published): Promise<void> {
	const { rest } = workflow.session;
	for (const e of await executionList(rest, workflow.id))
		if (e.status === 'waiting') await rest('POST', `/executions/${e.id}/stop`, {});
}

/** Outputs by index only; runCase gives the views n8n's output names once the runs are done. */
const byIndex = (node: string, output: number | string): OutputRef | string =>
	resolveOutput(undefined, undefined, output) ??
	unknownOutput(node, undefined, undefined, String(output));

/**
 * Output names (Create Inboxes' Failed, Fetch Leads' Spend, any node's error output) to indexes,
 * as n8n describes the nodes: read only for the nodes a case's expectations name an output of.
 */
async function outputIndexOf(
	session: Session,
	workflows: Workflow[],
	testCase: TestCase,
): Promise<RunView['outputIndex']> {
	const named = new Set(
		nodeExpectations(testCase).flatMap(([node, e]) => (typeof e.output === 'string' ? [node] : [])),
	);
	if (typeof testCase.expect?.distinct?.output === 'string')
		named.add(testCase.expect.distinct.node);
	const found = new Map<string, { node?: WorkflowNode; described?: NodeDescription }>();
	for (const name of named) {
		const node = workflows.flatMap((w) => w.nodes).find((n) => n.name === name);
		found.set(name, {
			node,
			described: node ? await session.described(node.type, node.typeVersion) : undefined,
		});
	}
	return (name, output) => {
		const { node, described } = found.get(name) ?? {};
		return (
			resolveOutput(node, described, output) ?? unknownOutput(name, node, described, String(output))
		);
	};
}

/** What executions did, together (the node runs of each, in order); `start` of a trigger check. */
function viewOf(executions: Execution[], start: StartPlan | undefined): RunView {
	const outputIndex = byIndex;
	if (!executions.length && start)
		// A check that found no change: the trigger ran and handed on nothing; nothing else ran.
		return {
			status: 'success',
			nodes: { [start.node]: [{ outputs: [[]], hints: [] }] },
			outputIndex,
		};
	const nodes: RunView['nodes'] = {};
	for (const execution of executions)
		for (const [name, runs] of Object.entries(execution.run.nodes))
			(nodes[name] ??= []).push(...runs);
	const failed = executions.find((x) => x.run.status === 'error' || x.run.error);
	const waiting = executions.find((x) => x.waiting);
	return {
		status: failed ? 'error' : waiting ? 'waiting' : 'success',
		error: failed?.run.error
			? { node: failed.run.error.node, message: failed.run.error.message }
			: undefined,
		...(waiting && !failed
			? { waiting: { node: waiting.waiting!.node.name, execution: waiting.id } }
			: {}),
		nodes,
		outputIndex,
	};
}
