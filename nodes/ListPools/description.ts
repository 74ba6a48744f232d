import type { INodeProperties } from 'n8n-workflow';

export const listPoolsProperties: INodeProperties[] = [
	{
		displayName:
			'Outputs one item per pool of the account (ID, name, live inbox count, creation time)',
		name: 'notice',
		type: 'notice',
		default: '',
	},
];
