import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { leadInboxApiTest } from '../shared/credentialTest';
import { searchPools } from '../shared/pools';
import { createInboxesProperties } from './description';
import { createInboxes } from './execute';
import { answeringAsTool } from '../shared/tool';

export class CreateInboxes implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Create Inboxes',
		name: 'createInboxes',
		icon: { light: 'file:createInboxes.svg', dark: 'file:createInboxes.dark.svg' },
		group: ['output'],
		version: 1,
		subtitle: '={{$parameter["poolMode"] === "new" ? "Into a new pool" : "Into an existing pool"}}',
		// One description for the nodes panel and for an AI Agent's model: at run time n8n gives a
		// tool the node's own description (usableAsTool.replacements reach only the editor's list).
		description:
			'Create one email inbox per item in the account (IMAP/SMTP settings detected for Google, Microsoft, Yahoo, Zoho, iCloud, GoDaddy, Namecheap), after a login test; without a pool it makes a new pool. Free; at most 1000 per hour per API key. Answers with the inboxes created, the entries that failed with their reason and code, and those whose outcome is unknown; on the hourly limit an AI agent is told when it frees instead of waiting.',
		defaults: { name: 'Create Inboxes' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main, NodeConnectionTypes.Main],
		outputNames: ['Created', 'Failed'],
		credentials: [{ name: 'leadInboxApi', required: true, testedBy: 'leadInboxApiTest' }],
		properties: createInboxesProperties,
	};

	methods = { listSearch: { searchPools }, credentialTest: { leadInboxApiTest } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await answeringAsTool(
			this,
			async () => await createInboxes(this, { continueOnFail: this.continueOnFail() }),
		);
	}
}
