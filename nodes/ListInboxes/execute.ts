import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { fetchInboxes } from '../shared/inboxes';
import { perItem } from '../shared/perItem';
import { timeoutMsOf } from '../shared/timeout';
import { LIST_INBOXES_TIMEOUT_SECONDS } from './description';

/** Lists inboxes page by page (guarded pagination, pages of up to 1000). */
export async function listInboxes(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return [
		await perItem(this, async (i) => {
			const poolId = String(
				this.getNodeParameter('poolId', i, '', { extractValue: true }) ?? '',
			).trim();
			const status = this.getNodeParameter('status', i) as string;
			const returnAll = this.getNodeParameter('returnAll', i) as boolean;
			return await fetchInboxes(this, {
				filter: { poolId, status: status === 'any' ? undefined : status },
				wanted: returnAll ? Infinity : (this.getNodeParameter('limit', i) as number),
				timeoutMs: timeoutMsOf(this, i, LIST_INBOXES_TIMEOUT_SECONDS),
				itemIndex: i,
				poolNotFoundHint: 'Pick the pool from the list, or check the pool ID.',
			});
		}),
	];
}
