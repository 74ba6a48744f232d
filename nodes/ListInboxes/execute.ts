import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { readNumber } from '../shared/answer';
import { collectPages } from '../shared/pagination';
import { perItem } from '../shared/perItem';
import { TIMEOUT_HINT, timeoutMsOf } from '../shared/timeout';
import { apiRequest } from '../shared/transport';
import { LIST_INBOXES_TIMEOUT_SECONDS } from './description';

/** A listed inbox, its sending limit read also when sent as a numeric string. */
export function inboxOf(inbox: IDataObject): IDataObject {
	const dailySendingLimit = readNumber(inbox.dailySendingLimit);
	return dailySendingLimit === undefined ? inbox : { ...inbox, dailySendingLimit };
}

/** Lists inboxes page by page (guarded pagination, pages of up to 1000). */
export async function listInboxes(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return [
		await perItem(this, async (i) => {
			const poolId = String(
				this.getNodeParameter('poolId', i, '', { extractValue: true }) ?? '',
			).trim();
			const status = this.getNodeParameter('status', i) as string;
			const returnAll = this.getNodeParameter('returnAll', i) as boolean;
			const wanted = returnAll ? Infinity : (this.getNodeParameter('limit', i) as number);
			const filter: IDataObject = {};
			if (poolId) filter.poolId = poolId;
			if (status !== 'any') filter.status = status;
			const timeoutMs = timeoutMsOf(this, i, LIST_INBOXES_TIMEOUT_SECONDS);

			const inboxes = await collectPages(this, {
				key: 'inboxes',
				wanted,
				itemIndex: i,
				fetchPage: async ({ limit, skip }) =>
					await apiRequest.call(this, 'inbox', 'GET', '/inboxes', {
						qs: { ...filter, limit, skip },
						itemIndex: i,
						timeoutMs,
						timeoutHint: TIMEOUT_HINT,
					}),
				hintFor: (status) =>
					status === 404 && poolId
						? 'Pick the pool from the list, or check the pool ID.'
						: undefined,
			});
			return inboxes.map(inboxOf);
		}),
	];
}
