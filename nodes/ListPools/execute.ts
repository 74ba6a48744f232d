import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { perItem } from '../shared/perItem';
import { fetchPools, POOLS_TIMEOUT_SECONDS } from '../shared/pools';
import { TIMEOUT_HINT, timeoutMsOf } from '../shared/timeout';

/** One item per pool, once per input item. */
export async function listPools(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return [
		await perItem(this, async (i) => {
			return await fetchPools(this, {
				itemIndex: i,
				timeoutMs: timeoutMsOf(this, i, POOLS_TIMEOUT_SECONDS),
				timeoutHint: TIMEOUT_HINT,
			});
		}),
	];
}
