import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { fetchInboxes } from '../shared/inboxes';
import type { Listing } from '../shared/pagination';
import { perItem } from '../shared/perItem';
import { timeoutMsOf } from '../shared/timeout';
import { isToolCall, toolAnswer } from '../shared/tool';
import { LIST_INBOXES_TIMEOUT_SECONDS } from './description';

/**
 * The inboxes input item `i` asks for, page by page (guarded pagination, pages of up to 1000).
 * When the service's own count and what could be read disagree (inboxes removed or reordered
 * while the pages were read, even after a second pass), the output says so instead of passing
 * a shorter list off as the whole.
 */
async function listingForItem(ctx: IExecuteFunctions, i: number): Promise<Listing> {
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
	return listing;
}

/**
 * One item per inbox, paired to the input item that asked; as an agent's tool, one item with the
 * inboxes and whether more exist than were listed (the model sees nothing else).
 */
export async function listInboxes(ctx: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	if (!isToolCall(ctx))
		return [
			await perItem(ctx, async (i) => (await listingForItem(ctx, i)).items, ctx.continueOnFail()),
		];
	const listings: Listing[] = [];
	for (let i = 0; i < ctx.getInputData().length; i++) listings.push(await listingForItem(ctx, i));
	return [toolAnswer(toolResult(listings), listings.length)];
}

function toolResult(listings: Listing[]): IDataObject {
	const inboxes = listings.flatMap((listing) => listing.items);
	// The service's count over all listings, when it gave one for each.
	const total = listings.every((listing) => listing.total !== undefined)
		? listings.reduce((sum, listing) => sum + (listing.total ?? 0), 0)
		: undefined;
	const hasMore = total === undefined ? null : inboxes.length < total;
	const unsettled = listings.some((listing) => listing.unsettled);
	const more =
		hasMore === null
			? ' The service did not say how many there are in all.'
			: hasMore
				? ` More exist: ${total! - inboxes.length} not listed (raise Limit or turn on Return All).`
				: '';
	return {
		summary: `Listed ${inboxes.length} inbox${inboxes.length === 1 ? '' : 'es'}${total !== undefined ? ` of ${total}` : ''}.${more}${unsettled ? ' The list changed while it was read: run it again for a settled list.' : ''}`,
		listed: inboxes.length,
		total: total ?? null,
		hasMore,
		inboxes,
	};
}
