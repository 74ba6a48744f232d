import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { apiRequest, asNodeError, errorFromResponse } from '../shared/transport';

/** One item per pool, once per input item. */
export async function listPools(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const out: INodeExecutionData[] = [];
	for (let i = 0; i < items.length; i++) {
		try {
			const response = await apiRequest.call(this, 'inbox', 'GET', '/pools', { itemIndex: i });
			if (response.statusCode !== 200) throw errorFromResponse(this, response, i);
			for (const pool of ((response.body as IDataObject).pools ?? []) as IDataObject[]) out.push({ json: pool, pairedItem: { item: i } });
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
