import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import { envelopeOf, isObject, isSuccess, readNumber, type ServiceAnswer } from '../shared/answer';
import { apiError, asNodeError, errorFromAnswer, unexpectedAnswer } from '../shared/errors';
import { collectPages } from '../shared/pagination';
import { DEFAULT_RATE_LIMIT_WAIT_MS, formatWait, retryDelay } from '../shared/rateLimit';
import { TIMEOUT_HINT, timeoutMsOf } from '../shared/timeout';
import { apiRequest, mayHaveBeenProcessed } from '../shared/transport';
import { CREATE_INBOXES_TIMEOUT_SECONDS } from './description';
import { entryOf, text } from './entry';
import { matchResults, type NewPool, outcomeOf, poolIn, resultsIn } from './results';

/** An entry that was not created: its data as fields, so workflows can branch on `code`. */
interface Failure {
	index: number;
	emailAddress: string;
	/**
	 * The service's code, `invalid_entry` (checked here), `rate_limited` / `not_sent` (not sent),
	 * `not_created` (the request failed; checked: it does not exist), `unknown_outcome`.
	 */
	code: string;
	reason: string;
}

interface Pending {
	index: number;
	entry: IDataObject;
	newPool: boolean;
}

type NodeError = NodeApiError | NodeOperationError;

/**
 * One inbox per input item, sent in batches (<= 100). Entries that should land in a new pool go
 * to the pool the first batch created. On 429 the same batch is retried after the wait the
 * service asks for (safe: the service created nothing), up to the configured total wait.
 *
 * Two outputs, each item paired to its input: Created, and Failed with the entry's data as fields
 * (emailAddress, code, reason, plus the input item's fields) so a workflow can branch on `code`.
 * Nothing the service created is missing from Created: results are read from any answer that
 * carries them and matched by address; when an answer leaves an entry's fate unknown (time-out,
 * broken connection, a 5xx or an unreadable 2xx), the service's inbox list is asked. When the
 * hourly limit outlasts Max Wait, or a request fails, the items not sent go to Failed
 * (rate_limited, not_sent). Only a request that fails before anything was created stops the node.
 */
export async function createInboxes(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const options = this.getNodeParameter('options', 0, {}) as {
		batchSize?: number;
		maxRateLimitWait?: number;
	};
	const batchSize = Math.min(100, Math.max(1, Math.floor(options.batchSize ?? 100)));
	const maxWaitMs = Math.max(0, options.maxRateLimitWait ?? 3600) * 1000;
	const timeoutMs = timeoutMsOf(this, 0, CREATE_INBOXES_TIMEOUT_SECONDS);
	const poolName = text(this, 'newPoolName', 0);

	const created: INodeExecutionData[] = [];
	const failed: INodeExecutionData[] = [];
	const notes: string[] = [];
	const fail = (failure: Failure) =>
		failed.push({
			json: {
				...items[failure.index].json,
				success: false,
				emailAddress: failure.emailAddress,
				code: failure.code,
				reason: failure.reason,
			},
			pairedItem: { item: failure.index },
		});
	let newPool: NewPool | undefined;
	const succeed = (item: Pending, result: IDataObject) => {
		const poolId = result.poolId ?? (item.newPool ? newPool?.id : item.entry.poolId);
		const name = item.newPool && newPool?.name && poolId === newPool.id ? newPool.name : undefined;
		created.push({
			json: {
				...result,
				emailAddress: result.emailAddress ?? item.entry.emailAddress,
				...(poolId !== undefined ? { poolId } : {}),
				...(name ? { poolName: name } : {}),
			},
			pairedItem: { item: item.index },
		});
	};

	// Items whose fields are unusable fail on their own, before anything is sent.
	const pending: Pending[] = [];
	for (let i = 0; i < items.length; i++) {
		const entry = entryOf(this, i);
		if ('problem' in entry)
			fail({
				index: i,
				emailAddress: entry.emailAddress,
				code: 'invalid_entry',
				reason: entry.problem,
			});
		else pending.push({ index: i, ...entry });
	}

	/** The items from `start` on were not sent: they fail with the reason, or the node stops. */
	const stopSending = (start: number, code: string, error: NodeError) => {
		if (created.length === 0 && !this.continueOnFail()) throw error;
		for (const { index, entry } of pending.slice(start))
			fail({ index, emailAddress: String(entry.emailAddress), code, reason: error.message });
	};

	/**
	 * Entries whose fate the answer left unknown: the inbox list says which exist. When it cannot
	 * be read either, they fail as unknown_outcome, saying how to check.
	 */
	const settleUnknown = async (batch: Pending[], error: NodeError) => {
		let existing: Map<string, IDataObject>;
		try {
			const poolIds = new Set(batch.map((b) => b.entry.poolId ?? newPool?.id));
			const onlyPool = poolIds.size === 1 ? [...poolIds][0] : undefined;
			const inboxes = await collectPages(this, {
				key: 'inboxes',
				wanted: Infinity,
				itemIndex: batch[0].index,
				fetchPage: async ({ limit, skip }) =>
					await apiRequest.call(this, 'inbox', 'GET', '/inboxes', {
						qs: { ...(onlyPool ? { poolId: onlyPool } : {}), limit, skip },
						itemIndex: batch[0].index,
						timeoutMs,
					}),
			});
			existing = new Map(
				inboxes.map((inbox) => [String(inbox.emailAddress ?? '').toLowerCase(), inbox]),
			);
		} catch (listError) {
			for (const { index, entry } of batch)
				fail({
					index,
					emailAddress: String(entry.emailAddress),
					code: 'unknown_outcome',
					reason: `${error.message}. Whether the inbox was created is unknown (listing the inboxes to check failed: ${(listError as Error).message}): look for it with List Inboxes before running this item again.`,
				});
			return;
		}
		let found = 0;
		for (const item of batch) {
			const inbox = existing.get(String(item.entry.emailAddress).toLowerCase());
			if (inbox) {
				found++;
				if (item.newPool && !newPool && typeof inbox.poolId === 'string')
					newPool = { id: inbox.poolId };
				succeed(item, { ...inbox, success: true, inboxId: inbox.id, confirmedByListing: true });
			} else
				fail({
					index: item.index,
					emailAddress: String(item.entry.emailAddress),
					code: 'not_created',
					reason: `${error.message}. The service's inbox list was checked: this inbox does not exist.`,
				});
		}
		notes.push(
			`${batch.length} entr${batch.length === 1 ? 'y' : 'ies'} got no clear answer (${error.message}); the inbox list showed ${found} of them created (confirmedByListing: true).`,
		);
	};

	let waitedMs = 0;
	for (let start = 0; start < pending.length; start += batchSize) {
		const batch = pending.slice(start, start + batchSize);
		const body = batch.map(({ entry, newPool: wantsNew }) =>
			wantsNew && newPool ? { ...entry, poolId: newPool.id } : entry,
		);
		const createsPool = !newPool && batch.some((b) => b.newPool);
		const itemIndex = batch[0].index;
		// Waits out 429s within Max Wait; the last answer is kept, whatever its status.
		let answer: ServiceAnswer;
		try {
			for (;;) {
				answer = await apiRequest.call(this, 'inbox', 'POST', '/inboxes', {
					body,
					qs: createsPool && poolName ? { poolName } : undefined,
					itemIndex,
					timeoutMs,
					timeoutHint: TIMEOUT_HINT,
				});
				if (answer.statusCode !== 429) break;
				const waitMs = retryDelay(answer)?.ms ?? DEFAULT_RATE_LIMIT_WAIT_MS;
				if (waitedMs + waitMs > maxWaitMs) break;
				await sleep(Math.max(waitMs, 1000));
				waitedMs += waitMs;
			}
		} catch (thrown) {
			const error = asNodeError(this, thrown, itemIndex);
			if (!mayHaveBeenProcessed(thrown)) {
				stopSending(start, 'not_sent', error);
				return done(this, created, failed, notes);
			}
			await settleUnknown(batch, error);
			stopSending(start + batch.length, 'not_sent', error);
			return done(this, created, failed, notes);
		}

		if (answer.statusCode === 429) {
			const delay = retryDelay(answer);
			stopSending(
				start,
				'rate_limited',
				errorFromAnswer(
					this,
					answer,
					itemIndex,
					`The hourly inbox limit was reached and the wait (${delay ? formatWait(delay.ms) : 'not said'}) is more than Max Wait on Rate Limit allows. Nothing was created. Raise "Max Wait on Rate Limit" (Options), or run the workflow again later.`,
				),
			);
			return done(this, created, failed, notes);
		}

		const results = resultsIn(answer.body);
		if (!results) {
			const ok = isSuccess(answer);
			if (!ok && answer.statusCode < 500) {
				// A client error for the whole request: the service created nothing.
				stopSending(start, 'not_sent', errorFromAnswer(this, answer, itemIndex));
				return done(this, created, failed, notes);
			}
			// A 2xx without results, or a server/gateway error: some entries may exist now.
			const error = ok
				? unexpectedAnswer(this, answer, 'per-entry results', itemIndex)
				: errorFromAnswer(this, answer, itemIndex);
			await settleUnknown(batch, error);
			stopSending(start + batch.length, 'not_sent', error);
			return done(this, created, failed, notes);
		}

		const answeredPool = poolIn(answer.body);
		if (answeredPool && (!newPool || newPool.id === answeredPool.id)) newPool = answeredPool;
		const matched = matchResults(
			batch.map((b) => String(b.entry.emailAddress)),
			results,
		);
		const outcomes = matched.map((result) => result && outcomeOf(result));
		// A result of a new-pool entry names the pool when the answer has no pool field.
		if (!newPool) {
			const k = batch.findIndex((b, k) => b.newPool && outcomes[k]?.created);
			const poolId = k >= 0 ? matched[k]?.poolId : undefined;
			if (typeof poolId === 'string' && poolId) newPool = { id: poolId };
		}
		const unanswered: Pending[] = [];
		let createdHere = 0;
		for (const [k, item] of batch.entries()) {
			const result = matched[k];
			const outcome = outcomes[k];
			if (!result || !outcome) unanswered.push(item);
			else if (outcome.created) {
				createdHere++;
				succeed(item, result);
			} else
				fail({
					index: item.index,
					emailAddress: String(result.emailAddress ?? item.entry.emailAddress),
					code: outcome.code,
					reason: outcome.reason,
				});
		}
		const summary = envelopeOf(answer.body, 'results').summary;
		const reported = isObject(summary) ? readNumber(summary.created) : undefined;
		if (reported !== undefined && reported !== createdHere && unanswered.length === 0)
			notes.push(
				`The service's summary says ${reported} created in a batch whose results show ${createdHere}; the outputs follow the results.`,
			);
		if (unanswered.length > 0)
			await settleUnknown(
				unanswered,
				apiError(this.getNode(), {
					message: `The answer to the batch (HTTP ${answer.statusCode}) had no result for this entry`,
					itemIndex,
				}),
			);
	}
	return done(this, created, failed, notes);
}

/** Both outputs in input order, and a hint when entries failed or needed checking. */
function done(
	ctx: IExecuteFunctions,
	created: INodeExecutionData[],
	failed: INodeExecutionData[],
	notes: string[],
): INodeExecutionData[][] {
	if (failed.length > 0) {
		const codes = [...new Set(failed.map((f) => f.json.code))].join(', ');
		ctx.addExecutionHints({
			message: `${created.length} inbox(es) created, ${failed.length} failed (${codes}): the failed ones are on the Failed output with emailAddress, code and reason.`,
			type: 'warning',
			location: 'outputPane',
		});
	}
	for (const message of notes)
		ctx.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
	return [sortByItem(created), sortByItem(failed)];
}

function sortByItem(items: INodeExecutionData[]): INodeExecutionData[] {
	return items.sort(
		(a, b) => (a.pairedItem as { item: number }).item - (b.pairedItem as { item: number }).item,
	);
}
