import type { IDataObject, IExecuteFunctions, INodeExecutionData, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError, sleep } from 'n8n-workflow';
import {
	apiRequest,
	type ApiResponse,
	asNodeError,
	errorFromResponse,
	header,
} from '../shared/transport';

interface EntryResult extends IDataObject {
	emailAddress: string;
	success: boolean;
	inboxId?: string;
	poolId?: string;
	autoFilledFields?: string[];
	error?: string;
	code?: string;
}

interface CreationResponse {
	success: boolean;
	pool?: { id: string; name: string };
	results: EntryResult[];
}

/** An entry that was not created: its data as fields, so workflows can branch on `code`. */
interface Failure {
	index: number;
	emailAddress: string;
	/** The service's code, `invalid_entry` (checked here), or `rate_limited` / `not_sent` (not sent). */
	code: string;
	reason: string;
}

const OPTIONAL_STRINGS = [
	'provider',
	'imapHost',
	'smtpHost',
	'imapUsername',
	'smtpUsername',
	'smtpPassword',
];
const OPTIONAL_NUMBERS = ['imapPort', 'smtpPort', 'dailySendingLimit'];

/** A parameter as text; an expression that resolves to nothing is empty, not "undefined". */
function text(ctx: IExecuteFunctions, name: string, i: number): string {
	const value = ctx.getNodeParameter(name, i, '') as unknown;
	return value === undefined || value === null ? '' : String(value).trim();
}

/**
 * The creation entry of one item (empty optional fields are left out so the service detects
 * them), or the problem that keeps the item from being sent.
 */
function entryOf(
	ctx: IExecuteFunctions,
	i: number,
): { entry: IDataObject; newPool: boolean } | { problem: string; emailAddress: string } {
	const emailAddress = text(ctx, 'emailAddress', i);
	const problem = (reason: string) => ({ problem: reason, emailAddress });
	if (!emailAddress)
		return problem(
			'Email Address is empty: map the address with an expression, e.g. {{ $json.email }}',
		);
	const entry: IDataObject = {
		emailAddress,
		imapPassword: String(ctx.getNodeParameter('imapPassword', i, '') ?? ''),
	};
	if (!entry.imapPassword) return problem('IMAP Password is empty');
	const newPool = ctx.getNodeParameter('poolMode', i) === 'new';
	if (!newPool) {
		const poolId = String(
			ctx.getNodeParameter('poolId', i, '', { extractValue: true }) ?? '',
		).trim();
		if (!poolId) return problem('Choose a pool, or set "Add Inboxes To" to "A New Pool"');
		entry.poolId = poolId;
	}
	const extra = ctx.getNodeParameter('additionalFields', i, {}) as IDataObject;
	for (const key of OPTIONAL_STRINGS)
		if (typeof extra[key] === 'string' && (extra[key] as string).trim() !== '')
			entry[key] = (extra[key] as string).trim();
	for (const key of OPTIONAL_NUMBERS) {
		if (extra[key] === undefined || extra[key] === '') continue;
		const value = Number(extra[key]);
		if (!Number.isInteger(value))
			return problem(`${key} must be a whole number (got ${extra[key]})`);
		entry[key] = value;
	}
	if (extra.skipConnectionTest === true) entry.skipConnectionTest = true;
	if (extra.acceptDomainAsTyped === true) entry.acceptDomainAsTyped = true;
	return { entry, newPool };
}

/**
 * One inbox per input item, sent in batches (<= 100). Entries that should land in a new pool go
 * to the pool the first batch created. On 429 the same batch is retried after Retry-After (safe:
 * the service created nothing), up to the configured total wait.
 *
 * Two outputs, each item paired to its input: Created, and Failed with the entry's data as fields
 * (emailAddress, code, reason, plus the input item's fields) so a workflow can branch on `code`.
 * Inboxes already created are never lost: when the hourly limit outlasts Max Wait, or a request
 * fails after some batches went through, the items not sent go to Failed (rate_limited,
 * not_sent). Only a request that fails before anything was created stops the node.
 */
export async function createInboxes(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const options = this.getNodeParameter('options', 0, {}) as {
		batchSize?: number;
		maxRateLimitWait?: number;
	};
	const batchSize = Math.min(100, Math.max(1, Math.floor(options.batchSize ?? 100)));
	const maxWaitMs = Math.max(0, options.maxRateLimitWait ?? 3600) * 1000;
	const poolName = text(this, 'newPoolName', 0);

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

	// Items whose fields are unusable fail on their own, before anything is sent.
	const pending: { index: number; entry: IDataObject; newPool: boolean }[] = [];
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

	let newPool: { id: string; name: string } | undefined;
	let waitedMs = 0;
	/** The items from `start` on were not sent: they fail with the reason, or the node stops. */
	const stopSending = (start: number, code: string, error: NodeApiError | NodeOperationError) => {
		if (created.length === 0 && !this.continueOnFail()) throw error;
		for (const { index, entry } of pending.slice(start))
			fail({ index, emailAddress: String(entry.emailAddress), code, reason: error.message });
	};
	for (let start = 0; start < pending.length; start += batchSize) {
		const batch = pending.slice(start, start + batchSize);
		const body = batch.map(({ entry, newPool: wantsNew }) =>
			wantsNew && newPool ? { ...entry, poolId: newPool.id } : entry,
		);
		const createsPool = !newPool && batch.some((b) => b.newPool);
		// Waits out 429s within Max Wait; the last answer is returned, whatever its status.
		let response: ApiResponse<CreationResponse>;
		try {
			for (;;) {
				response = (await apiRequest.call(this, 'inbox', 'POST', '/inboxes', {
					body,
					qs: createsPool && poolName ? { poolName } : undefined,
					itemIndex: batch[0].index,
				})) as ApiResponse<CreationResponse>;
				const waitMs = response.statusCode === 429 ? retryAfterMs(response) : 0;
				if (!waitMs || waitedMs + waitMs > maxWaitMs) break;
				await sleep(waitMs);
				waitedMs += waitMs;
			}
		} catch (error) {
			stopSending(start, 'not_sent', asNodeError(this, error, batch[0].index));
			return done(this, created, failed);
		}
		if (response.statusCode === 429) {
			stopSending(
				start,
				'rate_limited',
				new NodeApiError(this.getNode(), { ...response.body } as unknown as JsonObject, {
					itemIndex: batch[0].index,
					httpCode: '429',
					message: `Hourly inbox limit reached; the service asks to wait ${Math.ceil(retryAfterMs(response) / 1000)} s, more than Max Wait on Rate Limit allows`,
					description:
						'Nothing was created. Raise "Max Wait on Rate Limit" (Options), or run the workflow again later.',
				}),
			);
			return done(this, created, failed);
		}
		if (response.statusCode !== 200) {
			stopSending(start, 'not_sent', errorFromResponse(this, response, batch[0].index));
			return done(this, created, failed);
		}

		newPool ??= response.body.pool;
		response.body.results.forEach((result, k) => {
			const { index, newPool: wantsNew } = batch[k];
			if (result.success) {
				const pool =
					wantsNew && newPool && result.poolId === newPool.id ? { poolName: newPool.name } : {};
				created.push({ json: { ...result, ...pool }, pairedItem: { item: index } });
			} else {
				fail({
					index,
					emailAddress: result.emailAddress,
					code: String(result.code ?? 'invalid_entry'),
					reason: result.error ?? 'the service refused the entry',
				});
			}
		});
	}
	return done(this, created, failed);
}

/** The wait a 429 asks for (Retry-After, at least 1 s; 60 s when the header is missing). */
function retryAfterMs(response: ApiResponse<unknown>): number {
	return Math.max(1, Number(header(response, 'retry-after') ?? 60)) * 1000;
}

/** Both outputs in input order, and a hint when entries failed. */
function done(
	ctx: IExecuteFunctions,
	created: INodeExecutionData[],
	failed: INodeExecutionData[],
): INodeExecutionData[][] {
	if (failed.length > 0) {
		const codes = [...new Set(failed.map((f) => f.json.code))].join(', ');
		ctx.addExecutionHints({
			message: `${created.length} inbox(es) created, ${failed.length} failed (${codes}): the failed ones are on the Failed output with emailAddress, code and reason.`,
			type: 'warning',
			location: 'outputPane',
		});
	}
	return [sortByItem(created), sortByItem(failed)];
}

function sortByItem(items: INodeExecutionData[]): INodeExecutionData[] {
	return items.sort(
		(a, b) => (a.pairedItem as { item: number }).item - (b.pairedItem as { item: number }).item,
	);
}
