import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { perItem } from '../shared/perItem';
import { apiRequest, errorFromResponse } from '../shared/transport';

const FILTER_VALUES: Record<string, boolean | undefined> = { any: undefined, yes: true, no: false };

/** Hints per status that tell the user how to fix the request. */
function hintFor(status: number, body: IDataObject, count: number): string | undefined {
	switch (status) {
		case 400:
			// The service's own message already says how to fix a city ("Did you mean ...?").
			return /city/i.test(String(body.error)) ? undefined : 'Check the field named in the message.';
		case 401:
			return 'Check the API key in the Lead Inbox API credential; the account must have an active subscription.';
		case 402:
			return `This search needs ${count} credits (one per lead requested). Lower Count or add credits to the account.`;
		default:
			return undefined;
	}
}

/**
 * The service's own 404 ("no business for this niche and city") carries code no_businesses_found;
 * a service without codes says so in its message. Any other 404 (an HTML page, a "no route" body)
 * means the request did not reach the lead search endpoint.
 */
function isNothingFound(body: IDataObject): boolean {
	if (!body || typeof body !== 'object') return false;
	if (typeof body.code === 'string') return body.code === 'no_businesses_found';
	return typeof body.error === 'string' && /no business/i.test(body.error);
}

function wrongBaseUrl(ctx: IExecuteFunctions, itemIndex: number): NodeOperationError {
	return new NodeOperationError(
		ctx.getNode(),
		"The lead search endpoint was not found at the credential's Lead Search Base URL",
		{
			itemIndex,
			description:
				"The server answered 404 for POST <Lead Search Base URL>/api/v1/niche-finder-leads. Set the Lead Search Base URL to the service's base URL without /api/v1 (for the reference server: http://127.0.0.1:4010). Nothing was charged.",
		},
	);
}

/**
 * One lead search per input item. Never retried automatically: a search charges credits. After
 * the run an execution hint says how many credits were charged.
 */
export async function fetchLeads(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	let charged = 0;
	let leads = 0;
	let withoutEmail = 0;
	const out = await perItem(this, async (i) => {
		const count = this.getNodeParameter('count', i) as number;
		if (!Number.isInteger(count) || count < 1 || count > 1000) {
			throw new NodeOperationError(
				this.getNode(),
				`Count must be a whole number from 1 to 1000 (got ${count})`,
				{ itemIndex: i },
			);
		}
		const body: IDataObject = {
			niche: (this.getNodeParameter('niche', i) as string).trim(),
			city: (this.getNodeParameter('city', i) as string).trim(),
			count,
		};
		for (const filter of ['metaAds', 'tiktokPixel', 'gAnalytics']) {
			const value = FILTER_VALUES[this.getNodeParameter(filter, i) as string];
			if (value !== undefined) body[filter] = value;
		}
		const options = this.getNodeParameter('options', i, {}) as {
			failOnNotFound?: boolean;
			timeoutMinutes?: number;
			onlyWithEmail?: boolean;
		};
		const response = await apiRequest.call(this, 'leads', 'POST', '/api/v1/niche-finder-leads', {
			body,
			timeout: (options.timeoutMinutes ?? 10) * 60 * 1000,
			itemIndex: i,
		});
		const result = response.body as IDataObject;
		if (response.statusCode === 404 && !isNothingFound(result)) throw wrongBaseUrl(this, i);
		if (response.statusCode === 404 && !options.failOnNotFound) return [];
		if (response.statusCode !== 200)
			throw errorFromResponse(this, response, i, hintFor(response.statusCode, result, count));

		let contacts = (result.contacts ?? []) as IDataObject[];
		charged += Number(result.chargedCredits ?? 0);
		if (options.onlyWithEmail) {
			const reachable = contacts.filter((c) => typeof c.email === 'string' && c.email !== '');
			withoutEmail += contacts.length - reachable.length;
			contacts = reachable;
		}
		leads += contacts.length;
		return this.getNodeParameter('output', i) === 'response' ? [{ ...result, contacts }] : contacts;
	});

	const left = withoutEmail
		? ` (${withoutEmail} charged contact${withoutEmail === 1 ? '' : 's'} without an email left out)`
		: '';
	this.addExecutionHints({
		message: `Charged ${charged} credit${charged === 1 ? '' : 's'} for ${leads} new lead${leads === 1 ? '' : 's'}${left}.`,
		type: 'info',
		location: 'outputPane',
	});
	return [out];
}
