/**
 * Where a real service's answers differ from the contract this server holds, and what kind of
 * difference each is:
 * - breaks-spec: the spec says otherwise (a field of another type, a missing field the spec
 *   lists, an inbox error body without its `error` string);
 * - open-point: the spec leaves the point open ("not shown") and the service chose another answer
 *   than this server did (the rule it follows is named, as docs/api.md states it): error shapes of the lead search,
 *   a batch's status, the fields of a failed entry, the auto-created pool's field, capped pages,
 *   the 429 and its headers;
 * - beyond-spec: what neither says (extra fields, statuses and rate-limit headers of its own).
 * Plain functions over one exchange; `DivergenceReport` counts them by kind.
 */
import type { z } from 'zod';
import { errorBody } from '../contract/common.cjs';
import { creationResponse, inboxesResponse, poolsResponse } from '../contract/inboxes.cjs';
import { leadSearchResponse } from '../contract/leads.cjs';
import { redact } from '../core/logger.cjs';

export type DivergenceClass = 'breaks-spec' | 'open-point' | 'beyond-spec';

export interface Divergence {
	class: DivergenceClass;
	/** "POST /api/v1/inboxes" */
	operation: string;
	/** What kind of thing differs: "status", "field type", "error body", "Retry-After"... */
	what: string;
	expected: string;
	seen: string;
	/** For an open point: the rule this server follows there (docs/api.md). */
	decision?: string;
	count: number;
	/** The first exchange that showed it, redacted. */
	example: Record<string, unknown>;
}

export interface Exchange {
	operation: string;
	method: string;
	path: string;
	query: Record<string, string>;
	requestBody: unknown;
	status: number;
	headers: Record<string, string>;
	/** The answer's text. */
	text: string;
}

const LEADS = 'POST /api/v1/niche-finder-leads';
const POOLS = 'GET /api/v1/pools';
const LIST = 'GET /api/v1/inboxes';
const CREATE = 'POST /api/v1/inboxes';

/** The rules this server follows where the specs are silent (docs/api.md states them). */
const DECISION = {
	errorBody: 'Both services: "Error body, every status >= 400: {"error": ..., "details": [...]}"',
	wwwAuthenticate: 'Both services: "401 carries WWW-Authenticate: Bearer"',
	bodyLimits: 'Both services: "Request bodies: JSON only (415), at most 1 MiB (413)"',
	contactFields:
		'Lead search: "Contact fields exactly as the spec names them. Missing values are null; missing lists are []"',
	leadsRateLimit:
		'Lead search: none (the spec: "Rate limits: not shown"); this server has no limit on searches',
	batchStatus: 'Inbox management: "Status codes: an array body answers 200 with per-entry results"',
	singleEntry:
		'Inbox management: "A single-object body ... when it fails, answers the entry\'s status (400/404/409/422)"',
	failedEntry:
		'Inbox management: "Per-entry outcome: a failed entry\'s element is {emailAddress, success: false, error, code}"',
	poolField: 'Inbox management: "The spec\'s auto-created-pool field is named pool: {id, name}"',
	listedFields: 'Inbox management: "Listed inboxes expose exactly the six spec fields"',
	pageLimit:
		'Inbox management: "GET /inboxes: limit 1..1000 (default 100)": a page holds up to the limit asked',
	hasMore: 'Inbox management: "hasMore = skip + returned < total"',
	rateLimit:
		'Inbox management: "Rate limit: ... refused whole with 429, Retry-After (seconds) ... X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset"',
};

/** The answer the spec gives each operation's success, and the statuses the specs list. */
const SUCCESS: Record<string, z.ZodType> = {
	[LEADS]: leadSearchResponse,
	[POOLS]: poolsResponse,
	[LIST]: inboxesResponse,
	[CREATE]: creationResponse,
};
const SPEC_STATUSES: Record<string, number[]> = {
	[LEADS]: [200, 400, 401, 402, 404, 500],
	[POOLS]: [200, 400, 401, 403, 404, 409, 500],
	[LIST]: [200, 400, 401, 403, 404, 409, 500],
	[CREATE]: [200, 400, 401, 403, 404, 409, 500],
};
/** Statuses this server adds where the specs are silent, with the rule that adds them. */
const DECIDED_STATUSES: Record<string, Record<number, string>> = {
	[LEADS]: { 413: DECISION.bodyLimits, 415: DECISION.bodyLimits, 429: DECISION.leadsRateLimit },
	[POOLS]: {},
	[LIST]: {},
	[CREATE]: {
		413: DECISION.bodyLimits,
		415: DECISION.bodyLimits,
		422: DECISION.singleEntry,
		429: DECISION.rateLimit,
	},
};
const RATE_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
const OTHER_RATE_HEADERS =
	/^(ratelimit|ratelimit-.+|x-rate-limit-.+|x-ratelimit-(?!limit$|remaining$|reset$).+)$/;

type Found = Omit<Divergence, 'operation' | 'count' | 'example'> & { at?: string; value?: unknown };

const describe = (value: unknown) =>
	value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;

/** A zod schema's inner object or array, through optional/nullable/default wrappers. */
function unwrapped(schema: z.ZodType): { type: string; def: Record<string, unknown> } {
	let def = (schema as unknown as { _zod: { def: Record<string, unknown> } })._zod.def;
	while (['optional', 'nullable', 'default', 'pipe'].includes(def.type as string))
		def = ((def.innerType ?? def.in) as { _zod: { def: Record<string, unknown> } })._zod.def;
	return { type: def.type as string, def };
}

type Path = PropertyKey[];

/** Paths of fields the contract does not have, walking the schema beside the value. */
function extraFields(schema: z.ZodType, value: unknown, at: Path, out: Path[]): void {
	const { type, def } = unwrapped(schema);
	if (type === 'array' && Array.isArray(value))
		value.forEach((item, i) => extraFields(def.element as z.ZodType, item, [...at, i], out));
	if (type === 'object' && value && typeof value === 'object' && !Array.isArray(value)) {
		const shape = def.shape as Record<string, z.ZodType>;
		for (const [key, inner] of Object.entries(value)) {
			if (key in shape) extraFields(shape[key], inner, [...at, key], out);
			else out.push([...at, key]);
		}
	}
}

const valueAt = (value: unknown, path: Path) =>
	path.reduce<unknown>(
		(v, key) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[key] : undefined),
		value,
	);

/** A path as people write it: results[1].message. */
const textOf = (path: Path) =>
	path
		.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
		.join('')
		.replace(/^\./, '');

/** Array indexes out of a path, so one kind of difference counts once: contacts[].fbPixel. */
const generic = (path: Path) => textOf(path).replace(/\[\d+\]/g, '[]');

function successBody(exchange: Exchange, body: unknown): Found[] {
	const found: Found[] = [];
	const schema = SUCCESS[exchange.operation];
	const result = schema.safeParse(body);
	for (const issue of result.success ? [] : result.error.issues) {
		const value = valueAt(body, issue.path);
		const missing = value === undefined;
		const inContact =
			exchange.operation === LEADS && issue.path[0] === 'contacts' && issue.path.length > 2;
		found.push({
			class: missing && inContact ? 'open-point' : 'breaks-spec',
			what: missing ? 'missing field' : 'field type',
			expected: `${generic(issue.path)}: ${'expected' in issue ? String(issue.expected) : issue.message}`,
			seen: missing ? 'absent' : describe(value),
			decision: missing && inContact ? DECISION.contactFields : undefined,
			at: textOf(issue.path),
			value,
		});
	}
	const extra: Path[] = [];
	extraFields(schema, body, [], extra);
	const created = body as { pool?: unknown };
	for (const path of extra) {
		const value = valueAt(body, path);
		const [root, index] = path;
		const failedEntry =
			root === 'results' && path.length > 2 && valueAt(body, [root, index, 'success']) === false;
		const poolElsewhere =
			exchange.operation === CREATE &&
			path.length === 1 &&
			created.pool === undefined &&
			value !== null &&
			typeof value === 'object' &&
			'id' in value;
		const listed = exchange.operation === LIST && root === 'inboxes' && path.length > 2;
		const decision = poolElsewhere
			? DECISION.poolField
			: failedEntry
				? DECISION.failedEntry
				: listed
					? DECISION.listedFields
					: undefined;
		found.push({
			class: decision ? 'open-point' : 'beyond-spec',
			what: poolElsewhere ? 'auto-created pool field' : 'extra field',
			expected: poolElsewhere ? 'pool: {id, name}' : `only the contract's fields`,
			seen: generic(path),
			decision,
			at: textOf(path),
			value,
		});
	}
	return found;
}

function creation(exchange: Exchange, body: unknown): Found[] {
	const found: Found[] = [];
	const batch = Array.isArray(exchange.requestBody);
	if (batch && exchange.status !== 200 && exchange.status < 300)
		found.push({
			class: 'open-point',
			what: 'batch status',
			expected: '200 with per-entry results',
			seen: String(exchange.status),
			decision: DECISION.batchStatus,
		});
	const results = (body as { results?: unknown })?.results;
	if (Array.isArray(results))
		for (const result of results as Record<string, unknown>[])
			if (
				result?.success === false &&
				(typeof result.error !== 'string' || typeof result.code !== 'string')
			)
				found.push({
					class: 'open-point',
					what: 'failed entry fields',
					expected: 'emailAddress, success: false, error, code',
					seen: Object.keys(result).sort().join(', '),
					decision: DECISION.failedEntry,
					value: result,
				});
	return found;
}

function page(exchange: Exchange, body: unknown): Found[] {
	const listing = body as { inboxes?: unknown[]; pagination?: Record<string, unknown> };
	if (!Array.isArray(listing?.inboxes) || !listing.pagination) return [];
	const asked = exchange.query.limit === undefined ? 100 : Number(exchange.query.limit);
	const skip = Number(exchange.query.skip ?? 0);
	const { limit, total, hasMore } = listing.pagination;
	const returned = listing.inboxes.length;
	const found: Found[] = [];
	if (
		Number.isInteger(asked) &&
		asked >= 1 &&
		asked <= 1000 &&
		typeof limit === 'number' &&
		limit < asked
	)
		found.push({
			class: 'open-point',
			what: 'page size',
			expected: `pages of the limit asked (up to 1000)`,
			seen: `capped at ${limit}`,
			decision: DECISION.pageLimit,
		});
	if (
		typeof total === 'number' &&
		typeof hasMore === 'boolean' &&
		hasMore !== skip + returned < total
	)
		found.push({
			class: 'open-point',
			what: 'hasMore',
			expected: 'hasMore = skip + returned < total',
			seen: `hasMore ${String(hasMore)} with skip ${skip}, ${returned} returned of ${total}`,
			decision: DECISION.hasMore,
		});
	return found;
}

function errorAnswer(exchange: Exchange, body: unknown): Found[] {
	const found: Found[] = [];
	const spec = exchange.operation !== LEADS; // the inbox spec gives the error body, the lead search's does not
	const parsed = errorBody.safeParse(body);
	if (!parsed.success)
		found.push({
			class: spec ? 'breaks-spec' : 'open-point',
			what: 'error body',
			expected: '{"error": string, "details"?: [{path, message}]}',
			seen:
				body === undefined
					? 'not JSON'
					: `keys ${
							Object.keys(body ?? {})
								.sort()
								.join(', ') || 'none'
						}`,
			decision: spec ? undefined : DECISION.errorBody,
			value: body,
		});
	else
		for (const key of Object.keys(body as object).filter(
			(k) => !['error', 'code', 'details'].includes(k),
		))
			found.push({
				class: 'beyond-spec',
				what: 'extra error field',
				expected: 'error, details (and code for inbox entries)',
				seen: key,
			});
	if (exchange.status === 401 && !/^bearer/i.test(exchange.headers['www-authenticate'] ?? ''))
		found.push({
			class: 'open-point',
			what: 'WWW-Authenticate',
			expected: 'WWW-Authenticate: Bearer',
			seen: exchange.headers['www-authenticate'] ?? 'absent',
			decision: DECISION.wwwAuthenticate,
		});
	return found;
}

function rateHeaders(exchange: Exchange): Found[] {
	const found: Found[] = [];
	if (exchange.operation === CREATE && (exchange.status === 429 || exchange.status < 300)) {
		if (exchange.status === 429) {
			const retryAfter = exchange.headers['retry-after'];
			if (retryAfter === undefined || !/^\d+$/.test(retryAfter.trim()))
				found.push({
					class: 'open-point',
					what: 'Retry-After',
					expected: 'Retry-After: whole seconds',
					seen:
						retryAfter === undefined
							? 'absent'
							: Number.isNaN(Date.parse(retryAfter))
								? `"${retryAfter}"`
								: 'an HTTP date',
					decision: DECISION.rateLimit,
				});
		}
		const missing = RATE_HEADERS.filter((name) => exchange.headers[name] === undefined);
		if (missing.length)
			found.push({
				class: 'open-point',
				what: 'rate-limit headers',
				expected: RATE_HEADERS.join(', '),
				seen: `without ${missing.join(', ')}`,
				decision: DECISION.rateLimit,
			});
	}
	for (const name of Object.keys(exchange.headers).filter((n) => OTHER_RATE_HEADERS.test(n)))
		found.push({
			class: 'beyond-spec',
			what: 'other rate-limit header',
			expected: 'none beyond X-RateLimit-Limit/-Remaining/-Reset',
			seen: name,
		});
	return found;
}

function statusOf(exchange: Exchange, ours: number[]): Found[] {
	const { operation, status } = exchange;
	if (ours.includes(status) || SPEC_STATUSES[operation]?.includes(status)) return [];
	if (operation === CREATE && status < 300) return []; // a batch's own status: creation() says
	const decided = DECIDED_STATUSES[operation]?.[status];
	return [
		{
			class: decided ? 'open-point' : 'beyond-spec',
			what: 'status',
			expected: `one of ${[...new Set([...(SPEC_STATUSES[operation] ?? []), ...ours])].sort().join(', ')}`,
			seen: String(status),
			decision: decided,
		},
	];
}

/** What differs in one exchange. `ours`: the statuses this server documents for the operation. */
export function divergencesOf(exchange: Exchange, ours: number[]): Found[] {
	if (!(exchange.operation in SUCCESS)) return [];
	let body: unknown;
	try {
		body = exchange.text ? JSON.parse(exchange.text) : undefined;
	} catch {
		body = undefined;
	}
	const found = [...statusOf(exchange, ours), ...rateHeaders(exchange)];
	if (exchange.status >= 400) return [...found, ...errorAnswer(exchange, body)];
	if (exchange.status < 200 || exchange.status >= 300) return found;
	if (body === undefined)
		return [
			...found,
			{
				class: 'breaks-spec',
				what: 'body',
				expected: 'a JSON object',
				seen: exchange.text ? 'not JSON' : 'empty',
			},
		];
	found.push(...successBody(exchange, body));
	if (exchange.operation === CREATE) found.push(...creation(exchange, body));
	if (exchange.operation === LIST) found.push(...page(exchange, body));
	return found;
}

/** Divergences seen so far, one entry per kind, counted, with the first example. */
export class DivergenceReport {
	private readonly entries = new Map<string, Divergence>();

	add(exchange: Exchange, ours: number[]): void {
		for (const { at, value, ...found } of divergencesOf(exchange, ours)) {
			const key = JSON.stringify([
				found.class,
				exchange.operation,
				found.what,
				found.expected,
				found.seen,
			]);
			const entry = this.entries.get(key);
			if (entry) {
				entry.count += 1;
				continue;
			}
			const query = new URLSearchParams(exchange.query).toString();
			this.entries.set(key, {
				...found,
				operation: exchange.operation,
				count: 1,
				example: redact({
					request: `${exchange.method} ${exchange.path}${query ? `?${query}` : ''}`,
					status: exchange.status,
					...(at ? { at } : {}),
					...(value !== undefined ? { value } : {}),
				}) as Record<string, unknown>,
			});
		}
	}

	list(): Divergence[] {
		const order: DivergenceClass[] = ['breaks-spec', 'open-point', 'beyond-spec'];
		return [...this.entries.values()].sort(
			(a, b) =>
				order.indexOf(a.class) - order.indexOf(b.class) ||
				a.operation.localeCompare(b.operation) ||
				a.what.localeCompare(b.what),
		);
	}

	clear(): void {
		this.entries.clear();
	}

	/** A summary a person reads when the server stops. */
	summary(): string {
		const list = this.list();
		if (list.length === 0) return 'Divergences from the contract: none seen.';
		const lines = list.map(
			(d) =>
				`  [${d.class}] ${d.operation}: ${d.what}: expected ${d.expected}; seen ${d.seen} (${d.count}x)${d.decision ? `\n      this server (docs/api.md): ${d.decision}` : ''}`,
		);
		return [`Divergences from the contract (${list.length} kinds):`, ...lines].join('\n');
	}
}
