/**
 * Checks any answer needs, whatever the operation: its status against the statuses the spec
 * lists for that operation, a redirect and where it points, the media type, an error body, the
 * 401's challenge, and the rate-limit headers.
 */
import { type Body, type Exchange, type Finding, isObject, notJson } from './exchange.cjs';
import type { Operation } from './kinds.cjs';

/**
 * The statuses each spec lists, kept to those that can mean something for the operation (a
 * listing has no conflict, a GET no body to refuse), and the ones this server adds where the spec
 * is silent (docs/api.md): those are no difference when a service answers them too.
 */
const STATUSES: Record<Operation, number[]> = {
	leads: [200, 400, 401, 402, 404, 500, 413, 415],
	pools: [200, 400, 401, 403, 500],
	list: [200, 400, 401, 403, 404, 500],
	create: [200, 400, 401, 403, 404, 409, 500, 413, 415, 422, 429],
};

/** The statuses expected, in words, for the report. */
export const expectedStatuses = (operation: Operation) =>
	[...STATUSES[operation]].sort((a, b) => a - b).join(', ');

export function statusFindings(exchange: Exchange): Finding[] {
	const { operation, status } = exchange;
	if (STATUSES[operation].includes(status)) return [];
	const seen = String(status);
	if (status >= 300 && status < 400) {
		const location = exchange.headers.location;
		return [
			{
				kind: 'redirect',
				subject: seen,
				seen: location ? `${status} to ${location}` : `${status} without a Location`,
				value: location,
			},
		];
	}
	if (status >= 200 && status < 300)
		// A batch's own 2xx is the creation checks' to judge.
		return operation === 'create' && Array.isArray(exchange.requestBody)
			? []
			: [{ kind: 'status-success-other', subject: seen, seen }];
	if (operation === 'leads' && status === 429)
		return [{ kind: 'leads-rate-limited', seen: retryAfterWords(exchange) }];
	return [
		{
			kind: status >= 500 ? 'status-server-error' : 'status-other',
			subject: seen,
			seen,
			words: `one of ${expectedStatuses(operation)}`,
		},
	];
}

const retryAfterWords = (exchange: Exchange) =>
	`429${exchange.headers['retry-after'] ? ` with Retry-After: ${exchange.headers['retry-after']}` : ''}`;

/** A JSON body sent as something else. */
export function mediaTypeFindings(exchange: Exchange, body: Body): Finding[] {
	const type = exchange.headers['content-type'];
	if (!body.json || (type && /[/+]json\b/i.test(type))) return [];
	return [
		{ kind: 'content-type', seen: type ? `JSON sent as ${type}` : 'JSON without a Content-Type' },
	];
}

/**
 * An error answer's body. The inbox spec gives it ({error: string, details?: array}); the lead
 * search's leaves it open, so there the same shape is this server's rule, not the spec's.
 */
export function errorBodyFindings(exchange: Exchange, body: Body): Finding[] {
	const leads = exchange.operation === 'leads';
	const shape = leads ? 'leads-error-body' : 'error-body';
	const found: Finding[] = [];
	if (!body.json) return [{ kind: shape, subject: 'not JSON', seen: notJson(body) }];
	const value = body.value;
	if (!isObject(value))
		return [
			{
				kind: shape,
				subject: 'not an object',
				seen: `JSON ${Array.isArray(value) ? 'array' : typeof value}`,
			},
		];
	if (value.error === undefined)
		found.push({
			kind: shape,
			subject: 'no error',
			seen: `no error field (keys: ${Object.keys(value).join(', ') || 'none'})`,
		});
	else if (typeof value.error !== 'string')
		found.push({
			kind: shape,
			subject: 'error not a string',
			seen: isObject(value.error)
				? `error is an object {${Object.keys(value.error).join(', ')}}`
				: `error is ${JSON.stringify(value.error)}`,
			at: 'error',
			value: value.error,
		});
	if (value.details !== undefined && !Array.isArray(value.details))
		found.push({
			kind: leads ? 'leads-error-body' : 'error-details',
			subject: 'details',
			seen: `details is ${isObject(value.details) ? 'an object' : typeof value.details}`,
			at: 'details',
			value: value.details,
		});
	else if (
		Array.isArray(value.details) &&
		value.details.some(
			(d) => !isObject(d) || typeof d.path !== 'string' || typeof d.message !== 'string',
		)
	)
		found.push({
			kind: leads ? 'leads-error-body' : 'error-detail-shape',
			subject: 'details[]',
			seen: `details[] of ${JSON.stringify(value.details[0]).slice(0, 80)}`,
			at: 'details[0]',
			value: value.details[0],
		});
	const extra = Object.keys(value).filter((k) => !['error', 'details', 'code'].includes(k));
	if (extra.length && typeof value.error === 'string')
		found.push({
			kind: leads ? 'leads-error-body' : 'error-extra-field',
			subject: extra.join(', '),
			seen: `extra field${extra.length > 1 ? 's' : ''} ${extra.join(', ')}`,
		});
	if (leads) found.push(...leadsErrorCode(exchange.status, value.code));
	return found;
}

/** This server's lead search gives a code on one answer only: the 404 of a search that found nothing. */
function leadsErrorCode(status: number, code: unknown): Finding[] {
	if (status === 404 && code !== 'no_businesses_found')
		return [
			{
				kind: 'leads-error-code',
				subject: '404',
				seen: code === undefined ? '404 without a code' : `404 with code ${JSON.stringify(code)}`,
			},
		];
	if (status !== 404 && code !== undefined)
		return [
			{
				kind: 'leads-error-code',
				subject: String(status),
				seen: `${status} with code ${JSON.stringify(code)}`,
			},
		];
	return [];
}

export function challengeFindings(exchange: Exchange): Finding[] {
	const header = exchange.headers['www-authenticate'];
	if (exchange.status !== 401 || /^bearer\b/i.test(header ?? '')) return [];
	return [{ kind: 'www-authenticate', seen: header ? `WWW-Authenticate: ${header}` : 'absent' }];
}

const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const OTHER_RATE_HEADERS =
	/^(ratelimit|ratelimit-.+|x-rate-limit-.+|x-ratelimit-(?!limit$|remaining$|reset$).+)$/;

export function rateLimitFindings(exchange: Exchange): Finding[] {
	const found: Finding[] = [];
	const { status, headers } = exchange;
	if (exchange.operation === 'create' && status === 429) {
		const retryAfter = headers['retry-after'];
		if (retryAfter === undefined) found.push({ kind: 'retry-after-absent', seen: 'absent' });
		else if (!/^\d+$/.test(retryAfter.trim()))
			found.push({
				kind: 'retry-after-form',
				seen: Number.isNaN(Date.parse(retryAfter))
					? `Retry-After: ${retryAfter}`
					: `an HTTP date (Retry-After: ${retryAfter})`,
			});
	}
	if (exchange.operation === 'create' && (status === 429 || (status >= 200 && status < 300))) {
		const missing = RATE_HEADERS.filter((name) => headers[name] === undefined);
		if (missing.length)
			found.push({ kind: 'rate-headers-absent', seen: `without ${missing.join(', ')}` });
	}
	for (const name of Object.keys(headers).filter((n) => OTHER_RATE_HEADERS.test(n)))
		found.push({ kind: 'rate-header-other', subject: name, seen: `${name}: ${headers[name]}` });
	return found;
}
