import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import {
	describeBody,
	envelopeOf,
	isObject,
	isSuccess,
	listIn,
	readNumber,
	serviceWords,
	type ServiceAnswer,
} from '../shared/answer';
import { apiError, errorFromAnswer, unexpectedAnswer } from '../shared/errors';
import { perItem } from '../shared/perItem';
import { apiRequest } from '../shared/transport';
import { isNothingFound } from './notFound';

const FILTER_VALUES: Record<string, boolean | undefined> = { any: undefined, yes: true, no: false };

const PATH = '/api/v1/niche-finder-leads';

/** What a search that got no answer may have done, and how to check before running it again. */
const MAY_HAVE_CHARGED =
	"The search was sent and may have been carried out: the service may have charged credits for contacts this run never received. Before re-running, check the account's contacts or credit balance with the service. A re-run does not return contacts already added (they count as duplicates and are free).";

/** Hints per status that tell the user how to fix the request, after the service's own words. */
function hintFor(answer: ServiceAnswer, count: number): string | undefined {
	const said = serviceWords(answer).message;
	switch (answer.statusCode) {
		case 400:
		case 422:
			if (!said) return 'The service did not say what it refused: check Niche, City and Count.';
			// The service's own message already says how to fix a city ("Did you mean ...?").
			return /city/i.test(said) ? undefined : 'Check the field named in the message.';
		case 401:
			return 'Check the API key in the Lead Inbox API credential; the account must have an active subscription.';
		case 402:
			return `This search needs ${count} credits (one per lead requested). Lower Count or add credits to the account.`;
		case 403:
			return 'The API key is valid but may not search leads: ask the service operator for access.';
		case 429:
			return 'Nothing was charged for the refused search.';
		case 502:
		case 504:
			// A gateway's failure: the service behind it may have finished the search.
			return `A gateway in front of the service failed. ${MAY_HAVE_CHARGED}`;
		default:
			return answer.statusCode >= 500
				? 'The service failed, not the request: a failed search charges no credits (the spec). Try again later.'
				: undefined;
	}
}

function wrongBaseUrl(ctx: IExecuteFunctions, answer: ServiceAnswer, itemIndex: number) {
	const said = serviceWords(answer).message;
	return apiError(ctx.getNode(), {
		message: "The lead search endpoint was not found at the credential's Lead Search Base URL",
		description: `POST ${answer.url} answered HTTP ${answer.statusCode} with ${said ? `"${said}"` : describeBody(answer)}, which is not the lead search service's answer. Set the Lead Search Base URL to the service's base URL without /api/v1 (for the reference server: http://127.0.0.1:4010). Nothing was charged.`,
		httpCode: String(answer.statusCode),
		itemIndex,
	});
}

/**
 * One lead search per input item. Never retried automatically: a search charges credits. After
 * the run an execution hint says how many credits were charged, and why a search found nothing.
 */
export async function fetchLeads(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	let charged = 0;
	let unknownCharges = 0;
	let leads = 0;
	let withoutEmail = 0;
	const nothingFound: string[] = [];
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
			niche: String(this.getNodeParameter('niche', i) ?? '').trim(),
			city: String(this.getNodeParameter('city', i) ?? '').trim(),
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
		const answer = await apiRequest.call(this, 'leads', 'POST', PATH, {
			body,
			timeoutMs: (Number(options.timeoutMinutes) || 10) * 60 * 1000,
			itemIndex: i,
			ifUnanswered: MAY_HAVE_CHARGED,
			timeoutHint:
				'Large counts can take several minutes (the spec): raise Options > Timeout (Minutes).',
		});

		if (answer.statusCode === 404 || answer.statusCode === 405) {
			if (answer.statusCode === 405 || !isNothingFound(answer)) throw wrongBaseUrl(this, answer, i);
			if (options.failOnNotFound) throw errorFromAnswer(this, answer, i, 'Nothing was charged.');
			const said = serviceWords(answer).message;
			nothingFound.push(
				`No businesses found for "${body.niche}" in "${body.city}"${said ? ` (the service said: "${said}")` : ''}; nothing was charged. Try a broader niche or a larger city.`,
			);
			return [];
		}
		if (!isSuccess(answer)) throw errorFromAnswer(this, answer, i, hintFor(answer, count));

		const found = listIn(answer.body, 'contacts');
		if (!found) throw unexpectedAnswer(this, answer, 'a list of contacts', i, MAY_HAVE_CHARGED);
		const result = envelopeOf(answer.body, 'contacts');
		let contacts = found.filter(isObject);
		const chargedCredits = readNumber(result.chargedCredits);
		if (chargedCredits === undefined) unknownCharges++;
		else charged += chargedCredits;
		if (options.onlyWithEmail) {
			const reachable = contacts.filter(
				(c) => typeof c.email === 'string' && c.email.trim() !== '',
			);
			withoutEmail += contacts.length - reachable.length;
			contacts = reachable;
		}
		leads += contacts.length;
		return this.getNodeParameter('output', i) === 'response'
			? [{ ...result, contacts, chargedCredits: chargedCredits ?? null }]
			: contacts;
	});

	const left = withoutEmail
		? ` (${withoutEmail} charged contact${withoutEmail === 1 ? '' : 's'} without an email left out)`
		: '';
	const credits = `${charged} credit${charged === 1 ? '' : 's'}`;
	const unknown = unknownCharges
		? ` The service did not say what ${unknownCharges === 1 ? 'one search' : `${unknownCharges} searches`} charged: check the account's balance.`
		: '';
	this.addExecutionHints({
		message: `Charged ${unknownCharges ? 'at least ' : ''}${credits} for ${leads} new lead${leads === 1 ? '' : 's'}${left}.${unknown}`,
		type: unknownCharges ? 'warning' : 'info',
		location: 'outputPane',
	});
	for (const message of nothingFound)
		this.addExecutionHints({ message, type: 'info', location: 'outputPane' });
	return [out];
}
