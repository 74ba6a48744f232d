import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';
import { apiRequest, errorFromResponse } from './transport';

/** A pool picked from the account's pools, or given by ID (resource locator). */
export function poolLocator(overrides: Partial<INodeProperties> = {}): INodeProperties {
	return {
		displayName: 'Pool',
		name: 'poolId',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		description: 'The pool of inboxes',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				placeholder: 'Select a pool...',
				typeOptions: { searchListMethod: 'searchPools', searchable: true },
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. pool_0mwqw055p0007249a64db4',
			},
		],
		...overrides,
	};
}

export async function searchPools(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const response = await apiRequest.call(this, 'inbox', 'GET', '/pools');
	if (response.statusCode !== 200) throw errorFromResponse(this, response);
	const pools = ((response.body as IDataObject).pools ?? []) as IDataObject[];
	const needle = (filter ?? '').toLowerCase();
	return {
		results: pools
			.filter(
				(p) =>
					!needle ||
					String(p.name).toLowerCase().includes(needle) ||
					String(p.id).toLowerCase().includes(needle),
			)
			.map((p) => ({
				name: `${p.name} (${p.inboxCount} inbox${p.inboxCount === 1 ? '' : 'es'})`,
				value: String(p.id),
			})),
	};
}
