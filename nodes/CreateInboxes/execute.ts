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

const OPTIONAL_STRINGS = [
	'provider',
	'imapHost',
	'smtpHost',
	'imapUsername',
	'smtpUsername',
	'smtpPassword',
];
const OPTIONAL_NUMBERS = ['imapPort', 'smtpPort', 'dailySendingLimit'];

/** The creation entry of one item; empty optional fields are left out so the service detects them. */
function entryOf(ctx: IExecuteFunctions, i: number): { entry: IDataObject; newPool: boolean } {
	const entry: IDataObject = {
		emailAddress: String(ctx.getNodeParameter('emailAddress', i)).trim(),
		imapPassword: String(ctx.getNodeParameter('imapPassword', i)),
	};
	if (!entry.emailAddress)
		throw new NodeOperationError(ctx.getNode(), 'Email Address is empty', {
			itemIndex: i,
			description: 'Map the address with an expression, e.g. {{ $json.email }}.',
		});
	if (!entry.imapPassword)
		throw new NodeOperationError(
			ctx.getNode(),
			`IMAP Password is empty for ${entry.emailAddress}`,
			{ itemIndex: i },
		);
	const newPool = ctx.getNodeParameter('poolMode', i) === 'new';
	if (!newPool) {
		const poolId = String(
			ctx.getNodeParameter('poolId', i, '', { extractValue: true }) ?? '',
		).trim();
		if (!poolId)
			throw new NodeOperationError(
				ctx.getNode(),
				'Choose a pool, or set Pool to "Create a New Pool"',
				{ itemIndex: i },
			);
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
			throw new NodeOperationError(
				ctx.getNode(),
				`${key} must be a whole number (got ${extra[key]})`,
				{ itemIndex: i },
			);
		entry[key] = value;
	}
	if (extra.skipConnectionTest === true) entry.skipConnectionTest = true;
	return { entry, newPool };
}

/**
 * One inbox per input item, sent in batches (<= 100). Entries that should land in a new pool go
 * to the pool the first batch created. On 429 the same batch is retried after Retry-After (safe:
 * the service created nothing), up to the configured total wait.
 */
export async function createInboxes(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const options = this.getNodeParameter('options', 0, {}) as {
		batchSize?: number;
		maxRateLimitWait?: number;
	};
	const batchSize = Math.min(100, Math.max(1, Math.floor(options.batchSize ?? 100)));
	const maxWaitMs = Math.max(0, options.maxRateLimitWait ?? 3600) * 1000;
	const continueOnFail = this.continueOnFail();

	const out: INodeExecutionData[] = [];
	const created: string[] = [];
	const failed: string[] = [];
	// n8n keeps only the message of an error item, so the message names address, reason and code.
	const failure = (i: number, error: NodeApiError | NodeOperationError) => {
		if (continueOnFail)
			out.push({ json: { error: error.message }, error, pairedItem: { item: i } });
	};

	// Items whose fields are unusable fail on their own, before anything is sent.
	const pending: { index: number; entry: IDataObject; newPool: boolean }[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			pending.push({ index: i, ...entryOf(this, i) });
		} catch (error) {
			const nodeError = asNodeError(this, error, i);
			if (!continueOnFail) throw nodeError;
			failure(i, nodeError);
		}
	}

	let newPool: { id: string; name: string } | undefined;
	let waitedMs = 0;
	for (let start = 0; start < pending.length; start += batchSize) {
		const batch = pending.slice(start, start + batchSize);
		const body = batch.map(({ entry, newPool: wantsNew }) =>
			wantsNew && newPool ? { ...entry, poolId: newPool.id } : entry,
		);
		let response: ApiResponse<CreationResponse>;
		for (;;) {
			response = (await apiRequest.call(this, 'inbox', 'POST', '/inboxes', {
				body,
				itemIndex: batch[0].index,
			})) as ApiResponse<CreationResponse>;
			if (response.statusCode !== 429) break;
			const retryAfterMs = Math.max(1, Number(header(response, 'retry-after') ?? 60)) * 1000;
			if (waitedMs + retryAfterMs > maxWaitMs) {
				throw new NodeApiError(this.getNode(), { ...response.body } as unknown as JsonObject, {
					itemIndex: batch[0].index,
					httpCode: '429',
					message: `Hourly inbox limit reached; the service asks to wait ${Math.ceil(retryAfterMs / 1000)} s, more than the allowed maximum wait`,
					description: `${created.length} inbox(es) were created before the limit (items ${describe(created)}); items from ${batch[0].index} on were not sent. Raise "Max Wait on Rate Limit" or run the rest later.`,
				});
			}
			await sleep(retryAfterMs);
			waitedMs += retryAfterMs;
		}
		if (response.statusCode !== 200) throw errorFromResponse(this, response, batch[0].index);

		newPool ??= response.body.pool;
		response.body.results.forEach((result, k) => {
			const { index, newPool: wantsNew } = batch[k];
			if (result.success) {
				created.push(`${index} (${result.emailAddress})`);
				const pool =
					wantsNew && newPool && result.poolId === newPool.id ? { poolName: newPool.name } : {};
				out.push({ json: { ...result, ...pool }, pairedItem: { item: index } });
				return;
			}
			failed.push(`${index} (${result.emailAddress}: ${result.error})`);
			failure(
				index,
				new NodeApiError(this.getNode(), { ...result } as JsonObject, {
					itemIndex: index,
					message: `Could not create ${result.emailAddress}: ${result.error ?? 'the service refused the entry'} (${result.code})`,
					description: `code: ${result.code}`,
				}),
			);
		});
		if (failed.length > 0 && !continueOnFail) {
			throw new NodeOperationError(
				this.getNode(),
				`${failed.length} inbox(es) could not be created: ${failed.slice(0, 5).join('; ')}${failed.length > 5 ? '; ...' : ''}`,
				{
					itemIndex: Number(failed[0].split(' ')[0]),
					description: `Created: ${created.length} (items ${describe(created)}). Failed: items ${failed.join('; ')}. Items after this batch were not sent. Turn on "Continue (using error output)" to route failed items and keep going.`,
				},
			);
		}
	}
	// Items that failed before sending were output first: restore the input order.
	return [
		out.sort(
			(a, b) => (a.pairedItem as { item: number }).item - (b.pairedItem as { item: number }).item,
		),
	];
}

function describe(list: string[]): string {
	if (list.length === 0) return 'none';
	return list.length > 10 ? `${list.slice(0, 10).join(', ')}, ...` : list.join(', ');
}
