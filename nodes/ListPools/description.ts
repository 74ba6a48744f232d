import type { INodeProperties } from 'n8n-workflow';
import { POOLS_TIMEOUT_SECONDS } from '../shared/pools';
import { timeoutOption } from '../shared/timeout';

export const listPoolsProperties: INodeProperties[] = [
	{
		displayName:
			'Outputs one item per pool of the account (ID, name, live inbox count, creation time)',
		name: 'notice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [timeoutOption(POOLS_TIMEOUT_SECONDS, 'the list of pools')],
	},
];
