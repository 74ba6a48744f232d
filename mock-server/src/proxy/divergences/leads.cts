/**
 * A lead search's answer beside its request: the fields as the spec gives them ("where
 * available": a contact's value may be missing or null), no more contacts than `count`, the
 * charge equal to the contacts added, no email twice, and each contact within the filters sent.
 */
import { addressKey, type Exchange, type Finding, isObject } from './exchange.cjs';
import { fieldFindings, LEAD_SEARCH_ANSWER } from './spec-fields.cjs';

const DEFAULT_COUNT = 100;
/** Request filter -> the contact's flag (mind the spellings). */
const FILTERS: Array<[string, string]> = [
	['metaAds', 'fbPixel'],
	['tiktokPixel', 'tikTokPixel'],
	['gAnalytics', 'gAnalytics'],
];

const inContact = (path: PropertyKey[]) => path[0] === 'contacts' && path.length >= 3;

export function leadSearchFindings(exchange: Exchange, answer: unknown): Finding[] {
	const found: Finding[] = fieldFindings(LEAD_SEARCH_ANSWER, answer, { whereAvailable: inContact });
	if (!isObject(answer) || !Array.isArray(answer.contacts)) return found;
	const request = isObject(exchange.requestBody) ? exchange.requestBody : {};
	const contacts = answer.contacts.filter(isObject);
	const count = Number.isInteger(request.count) ? (request.count as number) : DEFAULT_COUNT;
	if (contacts.length > count)
		found.push({
			kind: 'leads-over-count',
			seen: `${contacts.length} contacts for count ${count}`,
		});
	const charged = Number(answer.chargedCredits);
	if (
		answer.chargedCredits !== undefined &&
		answer.chargedCredits !== null &&
		charged !== contacts.length
	)
		found.push({
			kind: 'leads-charge',
			seen: `chargedCredits ${JSON.stringify(answer.chargedCredits)} for ${contacts.length} contacts`,
		});
	const emails = new Map<string, number>();
	contacts.forEach((contact, i) => {
		const key = addressKey(contact.email);
		if (!key) return;
		const first = emails.get(key);
		if (first === undefined) emails.set(key, i);
		else
			found.push({
				kind: 'leads-duplicate-email',
				seen: `contacts[${first}] and contacts[${i}] share ${contact.email as string}`,
				at: `contacts[${i}].email`,
			});
	});
	for (const [filter, flag] of FILTERS) {
		if (typeof request[filter] !== 'boolean') continue;
		const wanted = request[filter];
		const i = contacts.findIndex((c) => (wanted ? c[flag] !== true : c[flag] !== false));
		if (i >= 0)
			found.push({
				kind: 'leads-filter',
				subject: filter,
				seen: `${filter}: ${wanted} sent, contacts[${i}].${flag} is ${JSON.stringify(contacts[i][flag])}`,
				at: `contacts[${i}].${flag}`,
				value: contacts[i][flag],
			});
	}
	return found;
}
