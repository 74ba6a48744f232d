import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { fetchInboxes } from '../shared/inboxes';
import { timeoutMsOf } from '../shared/timeout';
import { LIST_INBOXES_TIMEOUT_SECONDS } from './description';

/** The inboxes input item `i` asks for, page by page (guarded pagination, pages of up to 1000). */
export async function inboxesForItem(ctx: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const poolId = String(ctx.getNodeParameter('poolId', i, '', { extractValue: true }) ?? '').trim();
	const status = ctx.getNodeParameter('status', i) as string;
	const returnAll = ctx.getNodeParameter('returnAll', i) as boolean;
	return await fetchInboxes(ctx, {
		filter: { poolId, status: status === 'any' ? undefined : status },
		wanted: returnAll ? Infinity : (ctx.getNodeParameter('limit', i) as number),
		timeoutMs: timeoutMsOf(ctx, i, LIST_INBOXES_TIMEOUT_SECONDS),
		itemIndex: i,
		poolNotFoundHint: 'Pick the pool from the list, or check the pool ID.',
	});
}
