import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';
import { asNodeError, joinSentences, UnclearOutcomeError } from '../shared/errors';
import { isToolCall, plural, toolAnswer } from '../shared/tool';
import { capOf, holdForItems } from './creditCap';
import {
	addRunHints,
	fetchLeadsForItem,
	mostPossibleCharge,
	newTally,
	type Spend,
} from './execute';

/*
 * A run of Fetch Leads: the credit cap checked for every item before anything is sent, then one
 * search (or climb) per item, never retried (a search charges). Its outputs:
 * - Leads: the contacts as Output asks, each paired to its item (error items with Continue On Fail);
 * - Spend (version 1.1, Spend Output on): one item per input item with what its search reserved,
 *   charged and refunded, so a workflow sums, logs or alerts on credits without Full Response;
 * - as an agent's tool: one item with the leads, the credits charged and refunded, and whether
 *   anything was found, since the model sees nothing else.
 * A climb that fails after earlier requests brought leads reports both (docs/nodes.md, "A request
 * of the climb that fails"): the leads on Leads and the failure as an error item after them (n8n
 * moves it to the error output when On Error says so); with On Error = Stop Workflow the run fails
 * and the error carries the leads; a tool's answer says both in words.
 */

export async function runFetchLeads(ctx: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const tool = isToolCall(ctx);
	const inputs = ctx.getInputData();
	const continueOnFail = ctx.continueOnFail();
	const cap = capOf(ctx, tool);
	const { holds, refusals } = holdForItems(
		ctx,
		cap,
		inputs.map((_, i) => mostPossibleCharge(ctx, i)),
	);
	const tally = newTally();
	const leads: INodeExecutionData[] = [];
	const spends: INodeExecutionData[] = [];
	const failures: string[] = [];
	try {
		// Without Continue On Fail a refused item stops the run: before anything is sent, so
		// nothing is charged that the run then could not output.
		const [firstRefusal] = refusals.values();
		if (firstRefusal && (tool || !continueOnFail)) throw firstRefusal;
		for (let i = 0; i < inputs.length; i++) {
			const hold = holds.get(i);
			try {
				if (!hold) throw refusals.get(i)!;
				const { items, spend, mayHaveCharged, failedAfterLeads } = await fetchLeadsForItem(
					ctx,
					i,
					tally,
					hold,
				);
				hold.settle(mayHaveCharged);
				if (failedAfterLeads && !tool && !continueOnFail)
					throw carryingLeads(failedAfterLeads, items, spend);
				for (const json of items) leads.push({ json, pairedItem: { item: i } });
				spends.push({ json: spend, pairedItem: { item: i } });
				if (failedAfterLeads && tool) failures.push(failedAfterLeads.message);
				else if (failedAfterLeads)
					leads.push(errorItem(failedAfterLeads, i, { leadsKept: spend.leads }));
			} catch (error) {
				const nodeError = asNodeError(ctx, error, i);
				// A search sent without an answer may have charged all it could.
				if (nodeError instanceof UnclearOutcomeError) hold?.settleAsSpent();
				else hold?.settle(0);
				if (!continueOnFail || tool) throw nodeError;
				leads.push(errorItem(nodeError, i));
			}
		}
	} finally {
		// Items not reached (a refusal or an error stopped the run) give their holds back.
		for (const hold of holds.values()) hold.settle(0);
	}
	addRunHints(ctx, tally);
	if (tool) return [toolAnswer(toolResult(leads, spends, cap.limit, failures), inputs.length)];
	const spendOutput = ctx.getNodeParameter('spendOutput', 0, false) as boolean;
	return spendOutput ? [leads, spends] : [leads];
}

/** An item's failure as n8n's Continue settings want it: on Leads, or moved to the error output. */
function errorItem(
	error: NodeApiError | NodeOperationError,
	item: number,
	extra: IDataObject = {},
): INodeExecutionData {
	return { json: { error: error.message, ...extra }, error, pairedItem: { item } };
}

/**
 * With On Error = Stop Workflow a failed climb fails the run, but the leads earlier requests added
 * are charged and no later run returns them: the error names them (the first ones in its
 * description, all in its context, which n8n keeps with the failed execution).
 */
function carryingLeads<E extends NodeApiError | NodeOperationError>(
	error: E,
	items: IDataObject[],
	spend: Spend,
): E {
	const shown = items
		.slice(0, 20)
		.map(
			(lead) => [lead.businessName, lead.email].filter(Boolean).join(' ') || JSON.stringify(lead),
		)
		.join('; ');
	const more = items.length > 20 ? `; and ${items.length - 20} more` : '';
	const kept = `Before it failed, the climb added ${plural(spend.leads, 'new lead')} to the account (charged: ${spend.chargedCredits ?? 'not said'}); no later run returns them: ${shown}${more}. All of them are in this error's context (leadsBeforeFailure). To get them on the Leads output and this failure on the error output instead, set the node's Settings > On Error to "Continue (using error output)".`;
	error.description = joinSentences(error.description ?? undefined, kept) ?? null;
	error.context = { ...error.context, leadsBeforeFailure: items, spend };
	return error;
}

/** What the agent is told: the leads, and what they cost, in words and as fields. */
function toolResult(
	leads: INodeExecutionData[],
	spends: INodeExecutionData[],
	limit: number | undefined,
	failures: string[],
): IDataObject {
	const spent = spends.map((s) => s.json as Spend);
	const known = spent.every((s) => s.chargedCredits !== null);
	const charged = spent.reduce((sum, s) => sum + (s.chargedCredits ?? 0), 0);
	const refunded = spent.reduce((sum, s) => sum + (s.refundedCredits ?? 0), 0);
	const what = spent.map((s) => `"${s.niche}" in "${s.city}"`).join(', ');
	const nothingFound = spent.length > 0 && spent.every((s) => s.nothingFound);
	const cost = known
		? `Charged ${plural(charged, 'credit')}${refunded ? ` (${refunded} reserved and refunded)` : ''}`
		: `Charged at least ${plural(charged, 'credit')} (the service did not say what every search charged)`;
	const failed = failures.length
		? ` Then the search failed before it found all the leads wanted: ${failures.join('; ')}. The leads above are kept (they are charged and no later search returns them).`
		: '';
	const summary = nothingFound
		? `Nothing found: the service has no business for ${what}. Nothing was charged.`
		: `${plural(leads.length, 'new lead')} for ${what}. ${cost}.${leads.length === 0 ? ' Every business found is already a contact of the account or was left out by the filters.' : ''}${failed}`;
	return {
		summary,
		...(failures.length ? { error: failures.join('; ') } : {}),
		nothingFound,
		leadCount: leads.length,
		chargedCredits: known ? charged : null,
		refundedCredits: known ? refunded : null,
		...(limit !== undefined ? { maxCreditsPerRun: limit } : {}),
		leads: leads.map((item) => item.json),
	};
}
