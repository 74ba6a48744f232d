import type { INodeProperties } from 'n8n-workflow';
import { poolLocator } from '../shared/pools';

export const listInboxesProperties: INodeProperties[] = [
	poolLocator({ description: 'Only inboxes of this pool. Leave empty for all pools.' }),
	{
		displayName: 'Status',
		name: 'status',
		type: 'options',
		default: 'any',
		options: [
			{ name: 'Active', value: 'active' },
			{ name: 'Any', value: 'any' },
			{ name: 'Deactivated', value: 'deactivated' },
			{ name: 'Error', value: 'error' },
			{ name: 'Paused', value: 'paused' },
		],
		description: 'Only inboxes with this status',
	},
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1, maxValue: 1000 },
		displayOptions: { show: { returnAll: [false] } },
		description: 'Max number of results to return',
	},
];
