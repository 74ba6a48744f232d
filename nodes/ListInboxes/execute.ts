import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { apiRequest, asNodeError, errorFromResponse } from '../shared/transport';

const PAGE_SIZE = 1000;

/** Lists inboxes with pagination by skip/hasMore: pages of 1000 for Return All. */
export async function listInboxes(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			const poolId = String(this.getNodeParameter('poolId', i, '', { extractValue: true }) ?? '').trim();
			const status = this.getNodeParameter('status', i) as string;
			const returnAll = this.getNodeParameter('returnAll', i) as boolean;
			const wanted = returnAll ? Infinity : (this.getNodeParameter('limit', i) as number);
			const qs: IDataObject = {};
			if (poolId) qs.poolId = poolId;
			if (status !== 'any') qs.status = status;

			let skip = 0;
			let taken = 0;
			for (;;) {
				const limit = Math.min(PAGE_SIZE, wanted - taken);
				const response = await apiRequest.call(this, 'inbox', 'GET', '/inboxes', { qs: { ...qs, limit, skip }, itemIndex: i });
				if (response.statusCode !== 200) {
					throw errorFromResponse(this, response, i, response.statusCode === 404 ? 'Pick the pool from the list, or check the pool ID.' : undefined);
				}
				const page = response.body as { inboxes: IDataObject[]; pagination: { hasMore: boolean } };
				for (const inbox of page.inboxes) out.push({ json: inbox, pairedItem: { item: i } });
				taken += page.inboxes.length;
				skip += page.inboxes.length;
				if (!page.pagination.hasMore || page.inboxes.length === 0 || taken >= wanted) break;
			}
		} catch (error) {
			if (this.continueOnFail()) {
				out.push({ json: { error: (error as Error).message }, pairedItem: { item: i } });
				continue;
			}
			throw asNodeError(this, error, i);
		}
	}
	return [out];
}
