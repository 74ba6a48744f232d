/**
 * One case: the service put back to the file's seed (and the case's), the workflow created in the
 * file's n8n as the case runs it, each run started as its start node would start it, and what came
 * checked against the case's expectations.
 */
import {
	type N8nAnswer,
	type Published,
	type StoredWorkflow,
	stopWaiting,
	viewOf,
} from './case/published.cjs';
import { resumeRun } from './case/resume.cjs';
import { STARTS } from './case/starts.cjs';
import { completeView, outputIndexOf, runsOf } from './case/views.cjs';
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
import type { LoadedTestFile, WorkflowNode } from './file/load.cjs';
import { clockInstant, type RunSpec, type TestCase } from './file/schema.cjs';
import { sentRead } from './file/walk.cjs';
import { attributeRequests } from './http-mocks/exchange.cjs';
import { MockSet } from './http-mocks/mock-set.cjs';
import { type CaseDetail, runDetail } from './report/detail.cjs';
import type { Session } from './session.cjs';
import { type CreatedSubWorkflow, createSubWorkflow } from './sub-workflow-runs.cjs';
import type { WorkflowTestCaseResult } from './types.cjs';
import { prepareWorkflow } from './workflow/prepare.cjs';
import { scheduleItem } from './workflow/schedule-item.cjs';
import { offScheduleCheck, workflowZone } from './workflow/schedule.cjs';
import { findStart } from './workflow/start.cjs';

export type CaseResult = WorkflowTestCaseResult;

export interface CaseOptions {
	/** Keeps what the case did (--show, --report, coverage, the upgrade check). */
	detail?: boolean;
	/** The instant a case's clock starts at when neither it nor its file gives one. */
	clock?: string;
}

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
				record: sentRead(testCase, sub.name),
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
		record: sentRead(testCase),
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
				: await STARTS[prepared.start.kind](published, {
						items,
						request: run.request ?? testCase.request ?? {},
						first: r === 0,
					});
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

/** Whether the case calls the workflow's own Webhook with real requests (its own or a run's). */
const usesRequests = (testCase: TestCase): boolean =>
	testCase.request !== undefined ||
	(Array.isArray(testCase.runs) && testCase.runs.some((r) => r.request !== undefined));
