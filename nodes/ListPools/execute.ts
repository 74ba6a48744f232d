import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { perItem } from '../shared/perItem';
import { apiRequest, errorFromResponse } from '../shared/transport';

/** One item per pool, once per input item. */
export async function listPools(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return [
		await perItem(this, async (i) => {
			const response = await apiRequest.call(this, 'inbox', 'GET', '/pools', { itemIndex: i });
			if (response.statusCode !== 200) throw errorFromResponse(this, response, i);
			return ((response.body as IDataObject).pools ?? []) as IDataObject[];
		}),
	];
}
