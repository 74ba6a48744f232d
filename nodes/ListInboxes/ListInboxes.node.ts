import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { leadInboxApiTest } from '../shared/credentialTest';
import { searchPools } from '../shared/pools';
import { listInboxesProperties } from './description';
import { listInboxes } from './execute';
import { answeringAsTool } from '../shared/tool';

export class ListInboxes implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'List Inboxes',
		name: 'listInboxes',
		icon: { light: 'file:listInboxes.svg', dark: 'file:listInboxes.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle:
			'={{$parameter["returnAll"] ? "All inboxes" : "Up to " + $parameter["limit"] + " inboxes"}}',
		description:
			'List email inboxes (ID, address, pool, status, daily sending limit), optionally of one pool or status. Free; changes nothing.',
		defaults: { name: 'List Inboxes' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'leadInboxApi', required: true, testedBy: 'leadInboxApiTest' }],
		properties: listInboxesProperties,
	};

	methods = { listSearch: { searchPools }, credentialTest: { leadInboxApiTest } };

	/** The inboxes each input item asks for, paired to it (one answer as an agent's tool). */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await answeringAsTool(this, async () => await listInboxes(this));
	}
}
