import {
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
	NodeConnectionTypes,
} from 'n8n-workflow';
import { leadInboxApiTest } from '../shared/credentialTest';
import { searchPools } from '../shared/pools';
import { leadInboxTriggerProperties } from './description';
import { pollLeadInbox } from './poll';

export class LeadInboxTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Lead Inbox Trigger',
		name: 'leadInboxTrigger',
		icon: { light: 'file:leadInboxTrigger.svg', dark: 'file:leadInboxTrigger.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{({ inboxStatusChanged: "Inbox status changed", newInbox: "New inbox", newPool: "New pool" })[$parameter["event"]]}}',
		description:
			'Starts the workflow when an inbox changes status (e.g. goes to error), or when an inbox or a pool is added. Checks on a schedule; needs no public URL.',
		defaults: { name: 'Lead Inbox Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'leadInboxApi', required: true, testedBy: 'leadInboxApiTest' }],
		properties: leadInboxTriggerProperties,
	};

	methods = { listSearch: { searchPools }, credentialTest: { leadInboxApiTest } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollLeadInbox.call(this);
	}
}
