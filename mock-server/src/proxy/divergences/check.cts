/** Every check of one exchange, in order: the status, the media type, then the body its status calls for. */
import {
	challengeFindings,
	errorBodyFindings,
	mediaTypeFindings,
	rateLimitFindings,
	statusFindings,
} from './answers.cjs';
import { creationFindings, singleFailure } from './creation.cjs';
import { bodyOf, type Exchange, type Finding, isObject, notJson } from './exchange.cjs';
import { leadSearchFindings } from './leads.cjs';
import type { Walks } from './listing.cjs';
import { poolsFindings } from './pools.cjs';

export function findingsOf(exchange: Exchange, walks: Walks): Finding[] {
	const body = bodyOf(exchange);
	const found = [
		...statusFindings(exchange),
		...mediaTypeFindings(exchange, body),
		...challengeFindings(exchange),
		...rateLimitFindings(exchange),
	];
	const { status, operation } = exchange;
	if (status >= 300 && status < 400) return found;
	const results = body.json && isObject(body.value) && Array.isArray(body.value.results);
	if (operation === 'create' && results)
		return [...found, ...creationFindings(exchange, body.value)];
	if (status >= 400) {
		found.push(...errorBodyFindings(exchange, body));
		if (operation === 'create' && body.json) found.push(...singleFailure(exchange, body.value));
		return found;
	}
	if (status < 200) return found;
	if (!body.json)
		return [
			...found,
			{ kind: body.what === 'empty' ? 'body-empty' : 'body-not-json', seen: notJson(body) },
		];
	switch (operation) {
		case 'leads':
			return [...found, ...leadSearchFindings(exchange, body.value)];
		case 'pools':
			return [...found, ...poolsFindings(exchange, body.value)];
		case 'list':
			return [...found, ...walks.findings(exchange, body.value)];
		case 'create':
			return [...found, ...creationFindings(exchange, body.value)];
	}
}
