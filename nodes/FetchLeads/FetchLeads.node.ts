import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';
import { leadInboxApiTest } from '../shared/credentialTest';
import { TOOL_DEFAULT_MAX_CREDITS } from './creditCap';
import { fetchLeadsProperties } from './description';
import { runFetchLeads } from './run';
import { answeringAsTool } from '../shared/tool';

/** "niche from input" where a parameter is an expression, so the subtitle never shows `={{ }}`. */
const shown = (name: string) =>
	`(String($parameter["${name}"]).startsWith("=") ? "${name} from input" : $parameter["${name}"])`;

export class FetchLeads implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Fetch Leads',
		name: 'fetchLeads',
		icon: { light: 'file:fetchLeads.svg', dark: 'file:fetchLeads.dark.svg' },
		group: ['input'],
		// 1.1: the Spend output (Spend Output on by default); 1 keeps one output for old workflows.
		// 1.2: New Leads Wanted with Only Contacts With an Email counts only leads with an email
		// (it may charge more than wanted, for the leads without one); 1 and 1.1 count every lead.
		version: [1, 1.1, 1.2],
		defaultVersion: 1.2,
		subtitle: `={{${shown('niche')} + " in " + ${shown('city')}}}`,
		// One description for the nodes panel and for an AI Agent's model: at run time n8n gives a
		// tool the node's own description (usableAsTool.replacements reach only the editor's list).
		description: `Find local businesses for a niche in a city (with ad-pixel, TikTok-pixel and Google Analytics filters) and add them as contacts to the account. Costs one credit per new lead added (up to Count per call; contacts already held are free). Answers with the leads, the credits charged and refunded, or that nothing was found; an AI agent's calls spend at most ${TOOL_DEFAULT_MAX_CREDITS} credits per agent run unless Max Credits per Run says otherwise.`,
		defaults: { name: 'Fetch Leads' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: `={{$parameter["spendOutput"] === true ? [{"type":"main","displayName":"Leads"},{"type":"main","displayName":"Spend"}] : ["main"]}}`,
		credentials: [{ name: 'leadInboxApi', required: true, testedBy: 'leadInboxApiTest' }],
		properties: fetchLeadsProperties,
	};

	methods = { credentialTest: { leadInboxApiTest } };

	/**
	 * One search (or one climb for new leads) per input item, within Max Credits per Run; never
	 * retried automatically, as a search charges credits. The hints after the run say what was
	 * charged and how deep it went; the Spend output carries the same as data.
	 */
	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await answeringAsTool(this, async () => await runFetchLeads(this));
	}
}
