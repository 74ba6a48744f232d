/**
 * Executions as n8n keeps them, read through its REST API: the list of a workflow's executions
 * and each one's run data (stored in n8n's "flatted" format, read with n8n's own copy of it).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { type Rest, until } from './rest.cjs';

/** One run of a node: its items per output (json only) and what it said. */
export interface NodeRun {
	outputs: Record<string, unknown>[][];
	error?: { message: string; description?: string };
	hints: string[];
	/** When it started (epoch ms, on the case's clock) and how long it took. */
	startTime?: number;
	executionTime?: number;
}

/** What an execution did, node by node. */
export interface RunData {
	status: string;
	/** The execution's error: its message, description and the node it came from. */
	error?: { message: string; description?: string; node?: string };
	/** Every run of each node that ran, in order (a node in a loop runs more than once). */
	nodes: Record<string, NodeRun[]>;
}

/** The part of n8n's stored run data read here (the same on every supported line). */
export interface StoredResultData {
	runData?: Record<
		string,
		({
			data?: Record<string, ({ json?: Record<string, unknown> } | null)[][] | null | undefined>;
			error?: { message?: unknown; description?: string | null };
			hints?: { message?: unknown }[];
			startTime?: number;
			executionTime?: number;
		} | null)[]
	>;
	error?: { message?: unknown; description?: string | null; node?: { name?: string } };
	lastNodeExecuted?: string;
}

/** An execution as n8n lists it. */
export interface ListedExecution {
	id: string | number;
	workflowId?: string | number;
	status?: string;
	finished?: boolean;
	mode?: string;
	startedAt?: string;
}

/** n8n's copy of flatted. */
export interface Flatted {
	parse(text: string): unknown;
}

/** Reads n8n's resultData (from an execution, or `n8n execute --rawOutput`) into RunData. */
export function readResultData(resultData: StoredResultData | undefined, status?: string): RunData {
	const nodes: Record<string, NodeRun[]> = {};
	for (const [name, runs] of Object.entries(resultData?.runData ?? {}))
		nodes[name] = runs.map((run) => ({
			// A node's main outputs; a sub-node's (a tool, a model) are under its connection type.
			outputs: (run?.data?.main ?? Object.values(run?.data ?? {})[0] ?? []).map((items) =>
				(items ?? []).map((item) => item?.json ?? {}),
			),
			error: run?.error
				? { message: String(run.error.message), description: run.error.description ?? undefined }
				: undefined,
			hints: (run?.hints ?? []).map((hint) => String(hint.message)),
			...(typeof run?.startTime === 'number'
				? { startTime: run.startTime, executionTime: run.executionTime ?? 0 }
				: {}),
		}));
	const error = resultData?.error
		? {
				message: String(resultData.error.message),
				description: resultData.error.description ?? undefined,
				node: resultData.error.node?.name ?? resultData.lastNodeExecuted,
			}
		: undefined;
	return {
		status: status ?? (error ? 'error' : 'success'),
		error,
		nodes,
	};
}

/** n8n's own copy of flatted, found from its package folder. */
export function flattedOf(n8nPackage: string): Flatted {
	return createRequire(join(n8nPackage, 'package.json'))('flatted') as Flatted;
}

/** Every execution of a workflow n8n has started, finished or not, newest first. */
export async function executionList(rest: Rest, workflowId: string): Promise<ListedExecution[]> {
	return await listed(rest, { workflowId });
}

async function listed(rest: Rest, by: object): Promise<ListedExecution[]> {
	const filter = encodeURIComponent(JSON.stringify(by));
	const list = await rest('GET', `/executions?filter=${filter}&limit=250`);
	if (list.status !== 200)
		throw new Error(`n8n did not list the executions: ${JSON.stringify(list.body)}`);
	// 1.x and 2.x answer {data: {results}}; older lines {data: [...]}.
	const data = (list.body as { data: ListedExecution[] | { results: ListedExecution[] } }).data;
	return Array.isArray(data) ? data : data.results;
}

/** Every execution n8n has parked (status waiting), of any workflow. */
export async function waitingExecutions(rest: Rest): Promise<ListedExecution[]> {
	return await listed(rest, { status: ['waiting'] });
}

/** Whether n8n has finished an execution (as executionList lists it). */
export const finished = (e: ListedExecution): boolean =>
	['success', 'error', 'crashed', 'canceled'].includes(e.status ?? '') ||
	(e.finished === true && e.status !== 'running');

/** Whether an execution rests: finished, or parked until a time or a request. */
export const resting = (e: ListedExecution): boolean => finished(e) || e.status === 'waiting';

export interface Execution {
	id: string;
	mode: string;
	status: string;
	startedAt: string;
	/** When it ended (n8n saves the workflow's static data as it ends); unset while it runs. */
	stoppedAt?: string;
	run: RunData;
	/** A node's first run: its main output's items (json), and its hints. */
	items: (node: string) => Record<string, unknown>[];
	hints: (node: string) => string[];
	/** The execution's error message, for a failed one, and its description (the why). */
	error?: string;
	errorDescription?: string;
	/** For an execution n8n parked (status waiting): the node it waits at, and until when. */
	waiting?: Waiting;
}

/** Where and until when an execution waits, and what resumes it. */
export interface Waiting {
	/** The node, as the execution's own copy of the workflow has it. */
	node: { name: string; type: string; parameters?: Record<string, unknown> };
	/** ISO time n8n resumes it by itself (for a wait on a request, n8n's far future or its limit). */
	until?: string;
	/** The token n8n 2.40 puts in the resume URL (`signature=`); earlier lines have none. */
	resumeToken?: string;
}

/** One execution, with its data read. */
export async function readExecution(rest: Rest, flatted: Flatted, id: string): Promise<Execution> {
	const full = (await rest('GET', `/executions/${id}`)).body as {
		data: ListedExecution & {
			data: string;
			mode: string;
			status: string;
			startedAt: string;
			stoppedAt?: string | null;
			waitTill?: string | null;
			workflowData?: { nodes?: Waiting['node'][] };
		};
	};
	const stored = flatted.parse(full.data.data) as {
		resultData?: StoredResultData;
		resumeToken?: string;
	};
	const run = readResultData(stored.resultData, full.data.status);
	const waitingAt = stored.resultData?.lastNodeExecuted;
	const node = full.data.workflowData?.nodes?.find((n) => n.name === waitingAt);
	return {
		id: String(full.data.id),
		mode: full.data.mode,
		status: full.data.status,
		startedAt: full.data.startedAt,
		stoppedAt: full.data.stoppedAt ?? undefined,
		run,
		items: (node) => run.nodes[node]?.[0]?.outputs[0] ?? [],
		hints: (node) => run.nodes[node]?.[0]?.hints ?? [],
		error: run.error?.message,
		errorDescription: run.error?.description,
		...(full.data.status === 'waiting' && node
			? {
					waiting: {
						node,
						until: full.data.waitTill ?? undefined,
						resumeToken: stored.resumeToken,
					},
				}
			: {}),
	};
}

/** Finished executions of a workflow, newest first, with their data read. */
export async function executionsOf(
	rest: Rest,
	flatted: Flatted,
	workflowId: string,
): Promise<Execution[]> {
	const listed = (await executionList(rest, workflowId)).filter(finished);
	return await Promise.all(listed.map((e) => readExecution(rest, flatted, String(e.id))));
}

/**
 * Starts a stored workflow by hand from `trigger`, with the request the editor sends for
 * "Execute workflow" (2.8 reads workflowData, 2.40 the stored workflow); the execution's ID.
 * (In queue mode the main instance puts the run on the queue and a worker runs it.)
 */
export async function startInEditor(
	rest: Rest,
	workflowId: string,
	trigger: string,
): Promise<string> {
	const stored = (await rest('GET', `/workflows/${workflowId}`)).body as { data: unknown };
	const started = await rest('POST', `/workflows/${workflowId}/run`, {
		workflowData: stored.data,
		triggerToStartFrom: { name: trigger },
	});
	if (started.status !== 200)
		throw new Error(`n8n refused to run ${workflowId}: ${JSON.stringify(started.body)}`);
	return String((started.body as { data: { executionId: string | number } }).data.executionId);
}

/** Runs a stored workflow by hand from `trigger` (startInEditor) and waits for its execution. */
export async function runInEditor(
	rest: Rest,
	flatted: Flatted,
	workflowId: string,
	trigger: string,
): Promise<Execution> {
	const executionId = await startInEditor(rest, workflowId, trigger);
	await until(
		async () =>
			(await executionList(rest, workflowId)).some(
				(e) => String(e.id) === executionId && finished(e),
			),
		120_000,
		`the manual execution of ${workflowId}`,
		250,
	);
	return await readExecution(rest, flatted, executionId);
}
