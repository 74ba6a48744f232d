/**
 * Executions as n8n keeps them, read through its REST API: the list of a workflow's executions
 * and each one's run data (stored in n8n's "flatted" format, read with n8n's own copy of it).
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Rest } from './rest.cjs';

/** One run of a node: its items per output (json only) and what it said. */
export interface NodeRun {
	outputs: Record<string, unknown>[][];
	error?: { message: string; description?: string };
	hints: string[];
}

/** What an execution did, node by node. */
export interface RunData {
	status: string;
	/** The execution's error: its message, description and the node it came from. */
	error?: { message: string; description?: string; node?: string };
	/** Every run of each node that ran, in order (a node in a loop runs more than once). */
	nodes: Record<string, NodeRun[]>;
	lastNodeExecuted?: string;
}

/** Reads n8n's resultData (from an execution, or `n8n execute --rawOutput`) into RunData. */
export function readResultData(resultData: any, status?: string): RunData {
	const nodes: Record<string, NodeRun[]> = {};
	for (const [name, runs] of Object.entries<any[]>(resultData?.runData ?? {}))
		nodes[name] = runs.map((run) => ({
			outputs: (run?.data?.main ?? []).map((items: any[] | null) =>
				(items ?? []).map((item) => item?.json ?? {}),
			),
			error: run?.error
				? { message: String(run.error.message), description: run.error.description ?? undefined }
				: undefined,
			hints: (run?.hints ?? []).map((hint: any) => String(hint.message)),
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
		lastNodeExecuted: resultData?.lastNodeExecuted,
	};
}

/** n8n's own copy of flatted, found from its package folder. */
export function flattedOf(n8nPackage: string): { parse(text: string): any } {
	return createRequire(join(n8nPackage, 'package.json'))('flatted');
}

/** Every execution of a workflow n8n has started, finished or not, newest first. */
export async function executionList(rest: Rest, workflowId: string): Promise<any[]> {
	const filter = encodeURIComponent(JSON.stringify({ workflowId }));
	const list = await rest('GET', `/executions?filter=${filter}&limit=250`);
	if (list.status !== 200)
		throw new Error(`n8n did not list the executions: ${JSON.stringify(list.body)}`);
	return (list.body.data.results ?? list.body.data) as any[];
}

/** Whether n8n has finished an execution (as executionList lists it). */
export const finished = (e: any): boolean =>
	['success', 'error', 'crashed', 'canceled'].includes(e.status) ||
	(e.finished === true && e.status !== 'running');

export interface Execution {
	id: string;
	mode: string;
	status: string;
	startedAt: string;
	run: RunData;
	/** A node's first run: its main output's items (json), and its hints. */
	items: (node: string) => any[];
	hints: (node: string) => string[];
	/** The execution's error message, for a failed one, and its description (the why). */
	error?: string;
	errorDescription?: string;
}

/** One execution, with its data read. */
export async function readExecution(
	rest: Rest,
	flatted: { parse(text: string): any },
	id: string,
): Promise<Execution> {
	const full = (await rest('GET', `/executions/${id}`)).body.data;
	const run = readResultData(flatted.parse(full.data).resultData, full.status);
	return {
		id: String(full.id),
		mode: full.mode,
		status: full.status,
		startedAt: full.startedAt,
		run,
		items: (node) => run.nodes[node]?.[0]?.outputs[0] ?? [],
		hints: (node) => run.nodes[node]?.[0]?.hints ?? [],
		error: run.error?.message,
		errorDescription: run.error?.description,
	};
}

/** Finished executions of a workflow, newest first, with their data read. */
export async function executionsOf(
	rest: Rest,
	flatted: { parse(text: string): any },
	workflowId: string,
): Promise<Execution[]> {
	const listed = (await executionList(rest, workflowId)).filter(finished);
	return await Promise.all(listed.map((e) => readExecution(rest, flatted, String(e.id))));
}
