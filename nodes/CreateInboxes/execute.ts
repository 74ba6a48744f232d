import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import { envelopeOf, isObject, isSuccess, readNumber, type ServiceAnswer } from '../shared/answer';
import { apiError, asNodeError, errorFromAnswer, unexpectedAnswer } from '../shared/errors';
import { fetchInboxes } from '../shared/inboxes';
import { DEFAULT_RATE_LIMIT_WAIT_MS, formatWait, retryDelay } from '../shared/rateLimit';
import { TIMEOUT_HINT, timeoutMsFrom } from '../shared/timeout';
import { apiRequest, mayHaveBeenProcessed } from '../shared/transport';
import {
	CREATE_INBOXES_TIMEOUT_SECONDS,
	DEFAULT_BATCH_SIZE,
	DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS,
} from './description';
import { entryOf, text } from './entry';
import { inNodeWords } from './labels';
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
	/** For an entry going to a new pool: that pool's name, read for its own item. */
	poolName: string;
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
export async function createInboxes(
	ctx: IExecuteFunctions,
	run: { continueOnFail: boolean },
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	const notes: string[] = [];
	const { batchSize, maxWaitMs, timeoutMs } = runSettings(ctx, items.length, notes);

	const created: INodeExecutionData[] = [];
	const failed: INodeExecutionData[] = [];
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
		const entry = entryOf(ctx, i);
		if ('problem' in entry)
			fail({
				index: i,
				emailAddress: entry.emailAddress,
				code: 'invalid_entry',
				reason: entry.problem,
			});
		else
			pending.push({
				index: i,
				...entry,
				poolName: entry.newPool ? text(ctx, 'newPoolName', i) : '',
			});
	}
	const batches = batchesOf(pending, batchSize);

	/** The batches from `k` on were not sent: their items fail with the reason, or the node stops. */
	const stopSending = (k: number, code: string, error: NodeError) => {
		if (created.length === 0 && !run.continueOnFail) throw error;
		for (const { index, entry } of batches.slice(k).flatMap((b) => b.batch))
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
			const { items: inboxes } = await fetchInboxes(ctx, {
				filter: { poolId: onlyPool === undefined ? undefined : String(onlyPool) },
				wanted: Infinity,
				itemIndex: batch[0].index,
				timeoutMs,
				poolNotFoundHint: 'The pool may have been deleted meanwhile.',
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
	let poolGroup: string | undefined;
	for (const [k, { batch, group, poolName }] of batches.entries()) {
		// Each New Pool Name is a pool of its own: the first batch of a group creates it.
		if (group !== poolGroup) newPool = undefined;
		poolGroup = group;
		const body = batch.map(({ entry, newPool: wantsNew }) =>
			wantsNew && newPool ? { ...entry, poolId: newPool.id } : entry,
		);
		const createsPool = !newPool && batch.some((b) => b.newPool);
		const itemIndex = batch[0].index;
		// Waits out 429s within Max Wait; the last answer is kept, whatever its status.
		let answer: ServiceAnswer;
		try {
			for (;;) {
				answer = await apiRequest.call(ctx, 'inbox', 'POST', '/inboxes', {
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
			const error = asNodeError(ctx, thrown, itemIndex);
			if (!mayHaveBeenProcessed(thrown)) {
				stopSending(k, 'not_sent', error);
				return done(ctx, created, failed, notes);
			}
			await settleUnknown(batch, error);
			stopSending(k + 1, 'not_sent', error);
			return done(ctx, created, failed, notes);
		}

		if (answer.statusCode === 429) {
			const delay = retryDelay(answer);
			stopSending(
				k,
				'rate_limited',
				errorFromAnswer(
					ctx,
					answer,
					itemIndex,
					`The hourly inbox limit was reached and the wait (${delay ? formatWait(delay.ms) : 'not said'}) is more than Max Wait on Rate Limit allows. Nothing was created. Raise "Max Wait on Rate Limit" (Options), or run the workflow again later.`,
				),
			);
			return done(ctx, created, failed, notes);
		}

		const results = resultsIn(answer.body);
		if (!results) {
			const ok = isSuccess(answer);
			if (!ok && answer.statusCode < 500) {
				// A client error for the whole request: the service created nothing.
				stopSending(k, 'not_sent', errorFromAnswer(ctx, answer, itemIndex));
				return done(ctx, created, failed, notes);
			}
			// A 2xx without results, or a server/gateway error: some entries may exist now.
			const error = ok
				? unexpectedAnswer(ctx, answer, 'per-entry results', itemIndex)
				: errorFromAnswer(ctx, answer, itemIndex);
			await settleUnknown(batch, error);
			stopSending(k + 1, 'not_sent', error);
			return done(ctx, created, failed, notes);
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
					reason: inNodeWords(outcome.reason),
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
				apiError(ctx.getNode(), {
					message: `The answer to the batch (HTTP ${answer.statusCode}) had no result for this entry`,
					itemIndex,
				}),
			);
	}
	return done(ctx, created, failed, notes);
}

/**
 * Batch size, the wait allowed on the rate limit and the time-out are settings of the whole run
 * (a batch holds many items), read from the first item. An expression that gives another item a
 * different value is not silently dropped: the run's hint says which value was used.
 */
function runSettings(
	ctx: IExecuteFunctions,
	itemCount: number,
	notes: string[],
): { batchSize: number; maxWaitMs: number; timeoutMs: number } {
	type Options = { batchSize?: number; maxRateLimitWait?: number; timeoutSeconds?: number };
	const read = (i: number) => ctx.getNodeParameter('options', i, {}) as Options;
	const first = read(0);
	const labels: Record<keyof Options, string> = {
		batchSize: 'Batch Size',
		maxRateLimitWait: 'Max Wait on Rate Limit (Seconds)',
		timeoutSeconds: 'Timeout (Seconds)',
	};
	for (let i = 1; i < itemCount; i++) {
		const options = read(i);
		const differing = (Object.keys(labels) as (keyof Options)[]).filter(
			(name) => options[name] !== first[name],
		);
		if (differing.length === 0) continue;
		notes.push(
			`${differing.map((name) => `Options > ${labels[name]}`).join(' and ')} ${differing.length === 1 ? 'applies' : 'apply'} to the whole run, so the first item's value was used, although item ${i} gives ${differing.map((name) => String(options[name] ?? 'none')).join(' and ')}.`,
		);
		break;
	}
	return {
		batchSize: Math.min(
			DEFAULT_BATCH_SIZE,
			Math.max(1, Math.floor(first.batchSize ?? DEFAULT_BATCH_SIZE)),
		),
		maxWaitMs: Math.max(0, first.maxRateLimitWait ?? DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS) * 1000,
		timeoutMs: timeoutMsFrom(first, CREATE_INBOXES_TIMEOUT_SECONDS),
	};
}

/**
 * The requests to send, in order: each at most `batchSize` entries going to existing pools or to
 * one new pool, the entries of a group together and in input order.
 */
function batchesOf(
	pending: Pending[],
	batchSize: number,
): { batch: Pending[]; group: string; poolName: string }[] {
	const groups = new Map<string, Pending[]>();
	for (const item of pending) {
		const group = item.newPool ? `new pool ${item.poolName}` : 'existing pools';
		const members = groups.get(group);
		if (members) members.push(item);
		else groups.set(group, [item]);
	}
	const batches = [];
	for (const [group, members] of groups)
		for (let k = 0; k < members.length; k += batchSize)
			batches.push({
				batch: members.slice(k, k + batchSize),
				group,
				poolName: members[0].poolName,
			});
	return batches;
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
