import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import type { ServiceAnswer } from '../shared/answer';
import {
	asNodeError,
	errorFromAnswer,
	UnclearOutcomeError,
	unexpectedAnswer,
} from '../shared/errors';
import { DEFAULT_RATE_LIMIT_WAIT_MS, formatWait, retryDelay } from '../shared/rateLimit';
import { TIMEOUT_HINT } from '../shared/timeout';
import { apiRequest } from '../shared/transport';
import type { Batch, RunSettings } from './plan';
import { type NewPool, resultsIn } from './results';

/*
 * Sending one batch (POST /inboxes), waiting out rate limits within Max Wait, and saying what the
 * service can have done with it: that is all the rest of the run needs to know.
 */

type NodeError = NodeApiError | NodeOperationError;

export type Sent =
	/** An answer with per-entry results, whatever its status. */
	| { kind: 'answered'; answer: ServiceAnswer; results: IDataObject[] }
	/** Refused as a whole (a 4xx), or never reached the service: nothing was created. */
	| { kind: 'notSent'; error: NodeError }
	/** The hourly limit outlasts Max Wait: nothing was created. */
	| { kind: 'rateLimited'; error: NodeError }
	/** No answer, a 5xx or a 2xx without results: some entries may have been created. */
	| { kind: 'unclear'; error: NodeError };

/** "14:05 UTC": when a wait of `ms` from now ends. */
function clockTime(ms: number): string {
	return `${new Date(Date.now() + ms).toISOString().slice(11, 16)} UTC`;
}

/** The request body: entries for a new pool that the group's first batch made go to that pool. */
function requestOf(batch: Batch, pool: NewPool | undefined) {
	return {
		body: batch.items.map(({ entry, newPool }) =>
			newPool && pool ? { ...entry, poolId: pool.id } : entry,
		),
		createsPool: !pool && batch.items.some((item) => item.newPool),
	};
}

/**
 * Sends the batch. On 429 the same batch is sent again after the wait the service asks for
 * (safe: a 429 created nothing), while the run's total wait (`waited`) stays within Max Wait.
 */
export async function sendBatch(
	ctx: IExecuteFunctions,
	batch: Batch,
	pool: NewPool | undefined,
	settings: RunSettings,
	waited: { ms: number },
): Promise<Sent> {
	const { body, createsPool } = requestOf(batch, pool);
	const itemIndex = batch.items[0].index;
	for (;;) {
		let answer: ServiceAnswer;
		try {
			answer = await apiRequest.call(ctx, 'inbox', 'POST', '/inboxes', {
				body,
				qs: createsPool && batch.poolName ? { poolName: batch.poolName } : undefined,
				itemIndex,
				timeoutMs: settings.timeoutMs,
				timeoutHint: TIMEOUT_HINT,
				// Results come under any status (the spec); a 429 is waited out here.
				reads: (read) => read.statusCode === 429 || resultsIn(read.body) !== undefined,
			});
		} catch (thrown) {
			const error = asNodeError(ctx, thrown, itemIndex);
			return { kind: thrown instanceof UnclearOutcomeError ? 'unclear' : 'notSent', error };
		}
		if (answer.statusCode !== 429) {
			const results = resultsIn(answer.body);
			return results
				? { kind: 'answered', answer, results }
				: { kind: 'unclear', error: unexpectedAnswer(ctx, answer, 'per-entry results', itemIndex) };
		}
		const delay = retryDelay(answer);
		const waitMs = delay?.ms ?? DEFAULT_RATE_LIMIT_WAIT_MS;
		if (waited.ms + waitMs > settings.maxWaitMs)
			return {
				kind: 'rateLimited',
				error: errorFromAnswer(
					ctx,
					answer,
					itemIndex,
					`The hourly inbox limit was reached${delay ? `; it frees at ${clockTime(delay.ms)} (in ${formatWait(delay.ms)})` : ' and the service did not say when it frees'}, which is more than Max Wait on Rate Limit allows. Nothing was created. Raise "Max Wait on Rate Limit" (Options), or run the workflow again later.`,
				),
			};
		await sleep(Math.max(waitMs, 1000));
		waited.ms += waitMs;
	}
}
