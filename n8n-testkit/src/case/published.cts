/**
 * The case's workflow published in n8n, and how its runs are seen: its executions listed until
 * they settle, read, and put together as one run's view.
 */
import { type TimeWaits } from '../clock/time-waits.cjs';
import { type RunView } from '../expect/check.cjs';
import {
	type Execution,
	executionList,
	finished,
	type ListedExecution,
	readExecution,
	resting,
} from '../n8n/executions.cjs';
import { until } from '../n8n/rest.cjs';
import type { Session } from '../session.cjs';
import { type StartPlan } from '../workflow/prepare.cjs';
import { byIndex } from './views.cjs';

const RUN_TIMEOUT_MS = 5 * 60_000;
/**
 * How often n8n's executions are listed while a run goes on: a run is seen ended within this
 * (measured: at 100 ms, a case whose nodes answer 70 ms later was seen up to 100 ms later).
 */
const SETTLED_POLL_MS = 25;
/** How long n8n may take to register a published workflow's webhooks (a bound, not a speed claim). */
const REGISTERED_MS = 2 * 60_000;

/** n8n's answer to an activation: the workflow, or its error message. */
export type N8nAnswer = { status: number; body: { message?: string } | undefined };
type Activation = () => Promise<N8nAnswer>;
/** A workflow as n8n's REST API answers it (the part read here). */
export interface StoredWorkflow {
	id: string;
	versionId?: string;
}

/** The case's workflow in n8n, and the executions of it already read. */
export interface Published {
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
export async function publish(workflow: Published): Promise<void> {
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
export async function whenRegistered(
	send: () => Promise<Response>,
	what: string,
): Promise<Response> {
	let answer = await send();
	if (answer.status === 404)
		await until(async () => (answer = await send()).status !== 404, REGISTERED_MS, what, 200);
	return answer;
}

/**
 * The workflow's `expected` executions not seen before (and the one resumed, if any), once n8n has
 * finished them or they wait for a request; waits on time are moved past on the way.
 */
export async function settled(
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

export const totalRuns = (execution: Execution): number =>
	Object.values(runCounts(execution)).reduce((a, b) => a + b, 0);

/** Stops the case's executions still waiting (for a request): nothing of a case outlives it. */
export async function stopWaiting(workflow: Published): Promise<void> {
	const { rest } = workflow.session;
	for (const e of await executionList(rest, workflow.id))
		if (e.status === 'waiting') await rest('POST', `/executions/${e.id}/stop`, {});
}

/** What executions did, together (the node runs of each, in order); `start` of a trigger check. */
export function viewOf(executions: Execution[], start: StartPlan | undefined): RunView {
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

/** n8n's answer as a case checks it: its status, headers, and body (JSON parsed when it says so). */
export async function responseOf(answer: Response): Promise<NonNullable<RunView['response']>> {
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

export const asText = (value: unknown): string => (typeof value === 'string' ? value : '');
