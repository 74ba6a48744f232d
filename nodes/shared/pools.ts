import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchResult,
	INodeProperties,
} from 'n8n-workflow';
import { isObject, listIn, readNumber } from './answer';
import { type Context, unexpectedAnswer } from './errors';
import { apiRequest } from './transport';

/** Listing pools is one small request: a service that needs longer than this is not answering. */
export const POOLS_TIMEOUT_SECONDS = 30;

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

/**
 * The account's pools (GET /pools, one request), numbers read also when sent as numeric strings.
 * List Pools, the pool picker and the trigger all read them here.
 */
export async function fetchPools(
	ctx: Context,
	options: { timeoutMs: number; itemIndex?: number; timeoutHint?: string },
): Promise<IDataObject[]> {
	const answer = await apiRequest.call(ctx, 'inbox', 'GET', '/pools', options);
	const list = listIn(answer.body, 'pools');
	if (!list) throw unexpectedAnswer(ctx, answer, 'a list of pools', options.itemIndex);
	return list.filter(isObject).map((pool) => {
		const inboxCount = readNumber(pool.inboxCount);
		return inboxCount === undefined ? pool : { ...pool, inboxCount };
	});
}

export async function searchPools(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const pools = await fetchPools(this, { timeoutMs: POOLS_TIMEOUT_SECONDS * 1000 });
	const needle = (filter ?? '').toLowerCase();
	return {
		results: pools
			.filter(
				(p) =>
					!needle ||
					String(p.name ?? '')
						.toLowerCase()
						.includes(needle) ||
					String(p.id).toLowerCase().includes(needle),
			)
			.map((p) => {
				const count = typeof p.inboxCount === 'number' ? p.inboxCount : undefined;
				const label = p.name === undefined || p.name === null ? String(p.id) : String(p.name);
				return {
					name: count === undefined ? label : `${label} (${count} inbox${count === 1 ? '' : 'es'})`,
					value: String(p.id),
				};
			}),
	};
}
