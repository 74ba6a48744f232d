import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { fetchPools, POOLS_TIMEOUT_SECONDS } from '../shared/pools';
import { TIMEOUT_HINT, timeoutMsOf } from '../shared/timeout';

/** The account's pools, for input item `i`: one output item per pool. */
export async function poolsForItem(ctx: IExecuteFunctions, i: number): Promise<IDataObject[]> {
	return await fetchPools(ctx, {
		itemIndex: i,
		timeoutMs: timeoutMsOf(ctx, i, POOLS_TIMEOUT_SECONDS),
		timeoutHint: TIMEOUT_HINT,
	});
}
