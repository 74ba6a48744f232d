import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { fetchInboxes } from '../shared/inboxes';
import { timeoutMsOf } from '../shared/timeout';
import { LIST_INBOXES_TIMEOUT_SECONDS } from './description';

/**
 * The inboxes input item `i` asks for, page by page (guarded pagination, pages of up to 1000).
 * When the service's own count and what could be read disagree (inboxes removed or reordered
 * while the pages were read, even after a second pass), the output says so instead of passing
 * a shorter list off as the whole.
 */
export async function inboxesForItem(ctx: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	const poolId = String(ctx.getNodeParameter('poolId', i, '', { extractValue: true }) ?? '').trim();
	const status = ctx.getNodeParameter('status', i) as string;
	const returnAll = ctx.getNodeParameter('returnAll', i) as boolean;
	const listing = await fetchInboxes(ctx, {
		filter: { poolId, status: status === 'any' ? undefined : status },
		wanted: returnAll ? Infinity : (ctx.getNodeParameter('limit', i) as number),
		timeoutMs: timeoutMsOf(ctx, i, LIST_INBOXES_TIMEOUT_SECONDS),
		itemIndex: i,
		poolNotFoundHint: 'Pick the pool from the list, or check the pool ID.',
	});
	if (listing.unsettled)
		ctx.addExecutionHints({
			message: `Item ${i + 1}: the inbox list changed while it was read, twice over: the inbox service last counted ${listing.total} inboxes and ${listing.read} different ones were read (inboxes created or removed meanwhile, or a list in no stable order). Run the node again for a settled list.`,
			type: 'warning',
			location: 'outputPane',
		});
	return listing.items;
}
