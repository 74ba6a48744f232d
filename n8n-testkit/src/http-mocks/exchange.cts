/**
 * A request n8n sent to another service, as the runner's proxy saw it and as tests read it: its
 * method, full URL, host, path, query, headers (lower-case names) and body (JSON or a form parsed,
 * else text), with the answer it got.
 */

export interface Exchange {
	method: string;
	url: string;
	host: string;
	path: string;
	query: Record<string, string | string[]>;
	headers: Record<string, string>;
	body?: unknown;
	/** When it arrived, on the case's clock (epoch ms). */
	at?: number;
	/** The node that sent it: the one running when it arrived (n8n runs one node at a time). */
	node?: string;
	/** The sub-workflow that node is in, if it is in one. */
	workflow?: string;
	/** The mock that answered (its place in the case's list), or none. */
	mock?: number;
	/** The status it was answered with; dropped: the connection was closed. */
	status?: number;
	dropped?: true;
	/** A mock that never answers took it; timedOut: n8n's client was timed out at once. */
	never?: true;
	timedOut?: boolean;
}

/** A request's body as a test reads it: JSON or a URL-encoded form parsed, else its text. */
export function parsedBody(contentType: string | undefined, text: string): unknown {
	if (!text) return undefined;
	if (/json/i.test(contentType ?? ''))
		try {
			return JSON.parse(text);
		} catch {
			return text;
		}
	if (/application\/x-www-form-urlencoded/i.test(contentType ?? ''))
		return queryOf(new URLSearchParams(text));
	return text;
}

/** Search parameters as an object: a name given twice, a list. */
export function queryOf(params: URLSearchParams): Record<string, string | string[]> {
	const query: Record<string, string | string[]> = {};
	for (const [key, value] of params) {
		const had = query[key];
		query[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
	}
	return query;
}

/** Header values that carry credentials, masked wherever an exchange is shown. */
const SECRET_HEADERS =
	/^(authorization|proxy-authorization|cookie|x-api-key|api-key|x-auth-token)$/i;

/** Body fields that carry credentials (an OAuth2 token request's client_secret, refresh_token). */
const SECRET_FIELDS = /secret|password|token|api[-_]?key/i;

/**
 * An exchange as reports show it: credentials masked, in headers, body fields and anywhere the
 * secrets of the test's credentials appear (a token in a URL's path or query, as Telegram and
 * Pipedrive send it).
 */
export function masked(exchange: Exchange, secrets: readonly string[] = []): Exchange {
	const hide = (text: string) =>
		secrets.reduce((out, secret) => out.split(secret).join('***'), text);
	const headers = Object.fromEntries(
		Object.entries(exchange.headers).map(([name, value]) => [
			name,
			SECRET_HEADERS.test(name) ? maskValue(value) : hide(value),
		]),
	);
	return {
		...exchange,
		url: hide(exchange.url),
		path: hide(exchange.path),
		query: maskedFields(exchange.query, hide) as Exchange['query'],
		headers,
		body: maskedFields(exchange.body, hide),
	};
}

const maskedFields = (value: unknown, hide: (text: string) => string): unknown => {
	if (typeof value === 'string') return hide(value);
	if (Array.isArray(value)) return value.map((v) => maskedFields(v, hide));
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.entries(value).map(([key, inner]) => [
			key,
			SECRET_FIELDS.test(key) && typeof inner === 'string' ? '***' : maskedFields(inner, hide),
		]),
	);
};

/** `Bearer abc...` → `Bearer ***`: the scheme kept, the secret not. */
const maskValue = (value: string): string => {
	const scheme = /^(\w+)\s+\S/.exec(value)?.[1];
	return scheme ? `${scheme} ***` : '***';
};

/** What a request was answered with: a status, a closed connection, or none ever. */
export const outcomeOf = (e: Exchange): number | string =>
	e.dropped
		? 'dropped'
		: e.never
			? e.timedOut
				? 'never answered (the node timed out at once)'
				: 'never answered (the node set no time-out)'
			: (e.status ?? 'no answer');

/** One line for a report: `"Push to CRM": POST https://api.example.test/v1/leads -> 200`. */
export const exchangeLine = (e: Exchange): string =>
	`${e.node ? `${nodeOf(e)}: ` : ''}${e.method} ${e.url} -> ${outcomeOf(e)}`;

/** The node that sent a request, as reports name it. */
export const nodeOf = (e: Exchange): string =>
	`"${e.node}"${e.workflow ? ` (sub-workflow "${e.workflow}")` : ''}`;

/**
 * Puts each request on the node that sent it: the node whose run was going on when it arrived,
 * the innermost where runs nest (an Execute Workflow node and its sub-workflow's nodes).
 */
export function attributeRequests(
	journal: Exchange[],
	runs: { node: string; workflow?: string; startTime?: number; executionTime?: number }[],
): void {
	// The runner's clock and n8n's are one offset from the same machine time: a run that holds the
	// request's instant is taken first (the latest started, where runs nest), and only when none
	// does, one within a few milliseconds of it (the nearest).
	const LEEWAY_MS = 5;
	const timed = runs.filter((r) => r.startTime !== undefined);
	const endOf = (r: (typeof runs)[number]) => r.startTime! + (r.executionTime ?? 0);
	// A node sends nothing the instant it starts: a request at a run's first millisecond is the
	// run before's (which ended then), one at its last is its own.
	const distance = (r: (typeof runs)[number], at: number) =>
		at <= r.startTime! ? r.startTime! - at + 1 : at > endOf(r) ? at - endOf(r) : 0;
	for (const exchange of journal) {
		if (exchange.at === undefined) continue;
		const at = exchange.at;
		const holding = timed
			.filter((r) => distance(r, at) === 0)
			.sort((a, b) => b.startTime! - a.startTime!);
		const near = timed
			.filter((r) => distance(r, at) <= LEEWAY_MS)
			.sort((a, b) => distance(a, at) - distance(b, at));
		const innermost = holding[0] ?? near[0];
		if (!innermost) continue;
		exchange.node = innermost.node;
		if (innermost.workflow) exchange.workflow = innermost.workflow;
	}
}
