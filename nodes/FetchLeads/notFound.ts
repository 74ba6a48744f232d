import { isObject, serviceWords, type ServiceAnswer } from '../shared/answer';

/*
 * A 404 from the lead search means "no business for this niche and city" (the spec), but a wrong
 * base URL also answers 404, from a web server, a gateway or the service's framework. Which one
 * it is comes from what the body says, not from any one service's error code; where the words
 * do not settle it, the node says both readings instead of choosing one.
 */

/** Words of a router, gateway or web server that found no route for the request. */
const NO_ROUTE =
	/\b(route|routes|endpoint|path|url|uri|handler)\b|cannot (get|post|put|patch|delete)\b|page not found|missing authentication token|no such (file|api|method)/i;

/** Words of a search that found nothing. */
const NOTHING_FOUND =
	/\bno\b[\w\s]{0,40}\b(business(es)?|results?|leads?|matches|contacts|compan(y|ies)|places|listings|records|data)\b|nothing (was )?found|found (no|nothing|0)\b|\b(zero|0) (results|businesses|leads|matches)\b|empty (result|search)/i;

/** A bare "Not Found" or "Resource not found": what frameworks say for an unknown path. */
const BARE_NOT_FOUND = /^(404:?\s*)?((the )?(requested )?resource )?not[ _]?found\.?$/i;

/** What a 404 from the lead search says: nothing found, a wrong URL, or not enough to tell. */
export type NotFoundReading = 'nothingFound' | 'wrongUrl' | 'unclear';

export function readNotFound(answer: ServiceAnswer): NotFoundReading {
	// A page where the API should be comes from whatever else sits at the URL.
	if (answer.kind === 'html') return 'wrongUrl';
	const words = serviceWords(answer);
	// Codes and words alike: "no_businesses_found" reads as "no businesses found".
	const [message, code] = [words.message, words.code].map((t) => t?.replace(/[_-]+/g, ' '));
	// A code is the service's most deliberate statement; then its words, a router's first
	// ("No route matches [POST] ..." must not read as "no matches").
	if (code && NOTHING_FOUND.test(code)) return 'nothingFound';
	if (code && NO_ROUTE.test(code)) return 'wrongUrl';
	if (message && NO_ROUTE.test(message)) return 'wrongUrl';
	// Only an API answers JSON: words in a text body do not make it the service's.
	if (answer.kind !== 'json' || !isObject(answer.body)) return 'unclear';
	if (message && NOTHING_FOUND.test(message)) return 'nothingFound';
	// Spring and similar frameworks answer an unknown path with the path itself in the body.
	if (typeof answer.body.path === 'string' && answer.body.path.startsWith('/')) return 'wrongUrl';
	// "Not found" and nothing more is what a search that found nothing and a framework that
	// found no route both say.
	if (!message || BARE_NOT_FOUND.test(message)) return 'unclear';
	// JSON from the service in words of its own: the spec's meaning of 404.
	return 'nothingFound';
}
