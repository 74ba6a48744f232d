import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { perItem } from '../shared/perItem';
import { apiRequest, errorFromResponse } from '../shared/transport';

const PAGE_SIZE = 1000;

/** Lists inboxes with pagination by skip/hasMore: pages of 1000 for Return All. */
export async function listInboxes(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return [
		await perItem(this, async (i) => {
			const poolId = String(
				this.getNodeParameter('poolId', i, '', { extractValue: true }) ?? '',
			).trim();
			const status = this.getNodeParameter('status', i) as string;
			const returnAll = this.getNodeParameter('returnAll', i) as boolean;
			const wanted = returnAll ? Infinity : (this.getNodeParameter('limit', i) as number);
			const qs: IDataObject = {};
			if (poolId) qs.poolId = poolId;
			if (status !== 'any') qs.status = status;

			const inboxes: IDataObject[] = [];
			for (;;) {
				const limit = Math.min(PAGE_SIZE, wanted - inboxes.length);
				const response = await apiRequest.call(this, 'inbox', 'GET', '/inboxes', {
					qs: { ...qs, limit, skip: inboxes.length },
					itemIndex: i,
				});
				if (response.statusCode !== 200) {
					throw errorFromResponse(
						this,
						response,
						i,
						response.statusCode === 404
							? 'Pick the pool from the list, or check the pool ID.'
							: undefined,
					);
				}
				const page = response.body as { inboxes: IDataObject[]; pagination: { hasMore: boolean } };
				inboxes.push(...page.inboxes);
				if (!page.pagination.hasMore || page.inboxes.length === 0 || inboxes.length >= wanted)
					return inboxes;
			}
		}),
	];
}
