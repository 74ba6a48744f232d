import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import {
	describeBody,
	envelopeOf,
	isObject,
	listIn,
	readNumber,
	serviceWords,
	type ServiceAnswer,
} from '../shared/answer';
import { apiError, unexpectedAnswer } from '../shared/errors';
import { API_KEY_HINT } from '../shared/statuses';
import { apiRequest } from '../shared/transport';
import { readNotFound } from './notFound';

const PATH = '/api/v1/niche-finder-leads';

/** What a search that got no answer may have done, and how to check before running it again. */
export const MAY_HAVE_CHARGED =
	"The search was sent and may have been carried out: the service may have charged credits for contacts this run never received. Before re-running, check the account's contacts or credit balance with the service. A re-run does not return contacts already added (they count as duplicates and are free).";

/** The service's rule on credits, said where a 402 is explained. */
export const RESERVATION_RULE =
	'The service reserves the whole count asked for before it searches (the balance must cover it) and refunds what it does not add';

/** One search request: niche, city, filters and how many results to take from the top. */
export interface SearchRequest {
	niche: string;
	city: string;
	count: number;
	filters: Record<string, boolean>;
}

/** A search's answer: the contacts added, and what it charged (undefined when it did not say). */
export interface SearchResult {
	contacts: IDataObject[];
	chargedCredits: number | undefined;
	/** The rest of the response body, for Output: Full Response. */
	envelope: IDataObject;
}

/** A 404 whose words say the service found no business for the niche and city. */
export interface NothingFound {
	found: false;
	serviceSaid: string | undefined;
	answer: ServiceAnswer;
}

export type SearchOutcome = ({ found: true } & SearchResult) | NothingFound;

/** Hints per status that tell the user how to fix the request, after the service's own words. */
function hintFor(
	answer: ServiceAnswer,
	request: SearchRequest,
	wanted: number,
): string | undefined {
	const said = serviceWords(answer).message;
	switch (answer.statusCode) {
		case 400:
		case 422:
			if (!said) return 'The service did not say what it refused: check Niche, City and Count.';
			// The service's own message already says how to fix a city ("Did you mean ...?").
			return /city/i.test(said) ? undefined : 'Check the field named in the message.';
		case 401:
			return `${API_KEY_HINT} The account must have an active subscription.`;
		case 402:
			return request.count === wanted
				? `This search needs ${request.count} credits (one per lead requested). ${RESERVATION_RULE}. Lower Count or add credits to the account.`
				: `To find ${wanted} new leads this search asked for the top ${request.count} results, so it needs ${request.count} credits reserved, although at most ${wanted} will be charged. ${RESERVATION_RULE}. Add credits to the account, lower New Leads Wanted, or turn on Options > Start From the Top.`;
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

/** A 404 whose words fit both a search that found nothing and a wrong URL: both are said. */
function notFoundEitherWay(ctx: IExecuteFunctions, answer: ServiceAnswer, itemIndex: number) {
	const said = serviceWords(answer).message;
	return apiError(ctx.getNode(), {
		message:
			'The lead search answered 404 without saying which: no business was found for this search, or the Lead Search Base URL is wrong',
		description: `POST ${answer.url} answered HTTP 404 with ${said ? `"${said}"` : describeBody(answer)}, which the lead search service sends when it finds no business for the niche and city, and a web server or gateway sends for a URL that leads nowhere. To tell them apart, test the Lead Inbox API credential (open it and save, or Retry): it checks the Lead Search Base URL without charging. If the test passes, nothing was found: try another niche or a nearby city. If it fails, it says which URL to set. Nothing was charged either way.`,
		httpCode: '404',
		itemIndex,
	});
}

/**
 * Sends one lead search and reads its answer. Never retried: a search charges credits. Throws a
 * node error that says how to fix the request; "nothing found" (a 404 whose words say so) is an
 * outcome, not an error, so the caller decides.
 */
export async function searchLeads(
	ctx: IExecuteFunctions,
	itemIndex: number,
	request: SearchRequest,
	options: { timeoutMs: number; wanted: number },
): Promise<SearchOutcome> {
	const body: IDataObject = {
		niche: request.niche,
		city: request.city,
		count: request.count,
		...request.filters,
	};
	const answer = await apiRequest.call(ctx, 'leads', 'POST', PATH, {
		body,
		timeoutMs: options.timeoutMs,
		itemIndex,
		ifUnanswered: MAY_HAVE_CHARGED,
		timeoutHint:
			'Large counts can take several minutes (the spec): raise Options > Timeout (Minutes).',
		// A 404 may be "nothing found" (an outcome); a 405, a URL that leads to no endpoint.
		reads: (answer) => answer.statusCode === 404 || answer.statusCode === 405,
		hint: (answer) => hintFor(answer, request, options.wanted),
	});

	if (answer.statusCode === 405) throw wrongBaseUrl(ctx, answer, itemIndex);
	if (answer.statusCode === 404) {
		const reading = readNotFound(answer);
		if (reading === 'wrongUrl') throw wrongBaseUrl(ctx, answer, itemIndex);
		if (reading === 'unclear') throw notFoundEitherWay(ctx, answer, itemIndex);
		return { found: false, serviceSaid: serviceWords(answer).message, answer };
	}

	const contacts = listIn(answer.body, 'contacts');
	if (!contacts)
		throw unexpectedAnswer(ctx, answer, 'a list of contacts', itemIndex, MAY_HAVE_CHARGED);
	const envelope = envelopeOf(answer.body, 'contacts');
	return {
		found: true,
		contacts: contacts.filter(isObject),
		chargedCredits: readNumber(envelope.chargedCredits),
		envelope,
	};
}
