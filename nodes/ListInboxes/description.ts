import type { INodeProperties } from 'n8n-workflow';
import { poolLocator } from '../shared/pools';
import { timeoutOption } from '../shared/timeout';

export const LIST_INBOXES_TIMEOUT_SECONDS = 60;

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
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [timeoutOption(LIST_INBOXES_TIMEOUT_SECONDS, 'each page of up to 1000 inboxes')],
	},
];
