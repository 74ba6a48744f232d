import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { leadInboxApiTest } from '../shared/credentialTest';
import { perItem } from '../shared/perItem';
import { fetchLeadsProperties } from './description';
import { addRunHints, fetchLeadsForItem, newTally } from './execute';

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

	/**
	 * One search (or one climb for new leads) per input item; never retried automatically, as a
	 * search charges credits. The hints after the run say what was charged and how deep it went.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const tally = newTally();
		const items = await perItem(
			this,
			async (i) => await fetchLeadsForItem(this, i, tally),
			this.continueOnFail(),
		);
		addRunHints(this, tally);
		return [items];
	}
}
