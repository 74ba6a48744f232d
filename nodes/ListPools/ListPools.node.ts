import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { leadInboxApiTest } from '../shared/credentialTest';
import { listPoolsProperties } from './description';
import { listPools } from './execute';
import { answeringAsTool } from '../shared/tool';

export class ListPools implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'List Pools',
		name: 'listPools',
		icon: { light: 'file:listPools.svg', dark: 'file:listPools.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: 'All pools of the account',
		description:
			'List the inbox pools of the account with their IDs and inbox counts. Free; changes nothing.',
		defaults: { name: 'List Pools' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'leadInboxApi', required: true, testedBy: 'leadInboxApiTest' }],
		properties: listPoolsProperties,
	};

	methods = { credentialTest: { leadInboxApiTest } };

	/** One item per pool, once per input item (one answer as an agent's tool). */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await answeringAsTool(this, async () => await listPools(this));
	}
}
