import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { perItem } from '../shared/perItem';
import { fetchPools, POOLS_TIMEOUT_SECONDS } from '../shared/pools';
import { TIMEOUT_HINT, timeoutMsOf } from '../shared/timeout';
import { isToolCall, toolAnswer } from '../shared/tool';

/** The account's pools, for input item `i`: one output item per pool. */
async function poolsForItem(ctx: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	return await fetchPools(ctx, {
		itemIndex: i,
		timeoutMs: timeoutMsOf(ctx, i, POOLS_TIMEOUT_SECONDS),
		timeoutHint: TIMEOUT_HINT,
	});
}

/**
 * One item per pool, once per input item; as an agent's tool, one item with the pools (the spec's
 * listing is never paged: it is the whole list).
 */
export async function listPools(ctx: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	if (!isToolCall(ctx))
		return [await perItem(ctx, async (i) => await poolsForItem(ctx, i), ctx.continueOnFail())];
	const pools = await poolsForItem(ctx, 0);
	const summary =
		pools.length === 0
			? 'The account has no pools yet (Create Inboxes makes one when no pool is given).'
			: `Listed all ${pools.length} pool${pools.length === 1 ? '' : 's'} of the account.`;
	return [
		toolAnswer({ summary, listed: pools.length, hasMore: false, pools }, ctx.getInputData().length),
	];
}
