import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { perItem } from '../shared/perItem';
import { POOLS_TIMEOUT_SECONDS, readPools } from '../shared/pools';
import { TIMEOUT_HINT, timeoutMsOf } from '../shared/timeout';
import { apiRequest } from '../shared/transport';

/** One item per pool, once per input item. */
export async function listPools(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return [
		await perItem(this, async (i) => {
			const answer = await apiRequest.call(this, 'inbox', 'GET', '/pools', {
				itemIndex: i,
				timeoutMs: timeoutMsOf(this, i, POOLS_TIMEOUT_SECONDS),
				timeoutHint: TIMEOUT_HINT,
			});
			return readPools(this, answer, i);
		}),
	];
}
