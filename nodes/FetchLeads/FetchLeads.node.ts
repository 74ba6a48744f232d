import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { leadInboxApiTest } from '../shared/credentialTest';
import { fetchLeadsProperties } from './description';
import { fetchLeads } from './execute';

export class FetchLeads implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fetch Leads',
		name: 'fetchLeads',
		icon: { light: 'file:fetchLeads.svg', dark: 'file:fetchLeads.dark.svg' },
		group: ['input'],
		version: 1,
		subtitle: '={{$parameter["niche"] + " in " + $parameter["city"]}}',
		description:
			'Find local businesses for a niche in a city (with ad-pixel, TikTok-pixel and Google Analytics filters) and add them as contacts. Costs one credit per new lead.',
		defaults: { name: 'Fetch Leads' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'leadInboxApi', required: true, testedBy: 'leadInboxApiTest' }],
		properties: fetchLeadsProperties,
	};

	methods = { credentialTest: { leadInboxApiTest } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return fetchLeads.call(this);
	}
}
