import { redact } from '../core/logger.cjs';
import { matches, type RequestMatch } from './match.cjs';

/** One API request as the journal keeps it: never a key or a password. */
export interface JournalEntry {
	id: number;
	time: string;
	method: string;
	path: string;
	query: Record<string, unknown>;
	/** The account of the API key that was used, when the key is known (also for a faulted request). */
	accountId: string | null;
	/** The id of the API key that was used (not the key), when the key is known. */
	keyId: string | null;
	/** null when the connection was dropped by an injected fault. */
	status: number | null;
	durationMs: number;
	/** As sent, redacted; shortened past the per-body limit; absent for unauthenticated requests. */
	body?: unknown;
	/** Set when `body` is not the whole body: why, and its size as sent. */
	bodyNote?: { kept: 'shortened' | 'not kept'; reason: string; bytes: number };
	response: Record<string, unknown>;
}

/** A recorded request without its query, body and answer: what a live view lists. */
export type JournalSummary = Pick<
	JournalEntry,
	'id' | 'time' | 'method' | 'path' | 'accountId' | 'keyId' | 'status' | 'durationMs'
>;

/**
 * Query and body are kept serialised: their size is what they cost, and they are parsed only when
 * listed.
 */
type Kept = Omit<JournalEntry, 'time' | 'body' | 'query'> & {
	at: number;
	queryJson: string;
	json?: string;
	cost: number;
};

/** What a live view and a summary listing show of a kept request. */
const summaryOf = (e: Kept): JournalSummary => ({
	id: e.id,
	time: new Date(e.at).toISOString(),
	method: e.method,
	path: e.path,
	accountId: e.accountId,
	keyId: e.keyId,
	status: e.status,
	durationMs: e.durationMs,
});

export interface JournalFilter extends RequestMatch {
	method?: string;
	/** Exact path, or a prefix when it ends with `*`. */
	path?: string;
	status?: number;
	/** ISO time: only requests at or after it. */
	since?: string;
	/** The most recent n of the matching requests. */
	limit?: number;
	/** Only the request with this id. */
	id?: number;
	/** 'true': summaries only (no query, body or answer). */
	summary?: 'true' | 'false';
}

export interface JournalLimits {
	/** Entries kept at most (--journal-size); 0 turns the journal off. */
	entries: number;
	/** Bytes of one body kept (--journal-body-bytes); larger bodies are kept shortened. */
	bodyBytes: number;
	/** Bytes of all kept bodies together (--journal-bytes); the oldest entries go first. */
	totalBytes: number;
}

/** Query bytes kept of a request that did not authenticate (anyone can send those). */
const ANONYMOUS_QUERY_BYTES = 1024;

/** What an entry costs beside its query and body (method, path, summary): a flat estimate. */
const ENTRY_OVERHEAD = 256;

/**
 * The request journal (as WireMock's): the last API requests, so tests can ask afterwards what was
 * called. Bounded by entries and by bytes, whatever clients send: queries and bodies are redacted
 * here, the one place that does it (passwords, keys, tokens), cut to the per-body limit, and of a
 * request that did not authenticate (anyone can send those) no body and 1 KiB of query are kept.
 */
export class RequestJournal {
	/** Oldest first; `head` is the index of the oldest entry still kept (dropped ones are skipped). */
	private entries: Kept[] = [];
	private head = 0;
	private bytes = 0;
	private nextId = 1;
	/** Told of each request as it is recorded (the dashboard's live view): its summary, no body. */
	private readonly listeners = new Set<(entry: JournalSummary) => void>();

	constructor(readonly limits: JournalLimits) {}

	/** Calls `listener` with each request recorded from now on; returns how to stop. */
	subscribe(listener: (entry: JournalSummary) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** `at` is the server clock's time in ms (turned into ISO 8601 only when listed). */
	record(
		entry: Omit<JournalEntry, 'id' | 'body' | 'bodyNote' | 'time'> & {
			at: number;
			body?: unknown;
			/** Size of the body as sent (Content-Length), for the note. */
			bodyBytes: number;
		},
	): void {
		if (this.limits.entries <= 0) return;
		const { body, bodyBytes, query, ...rest } = entry;
		const anonymous = rest.keyId === null;
		// A query string is bounded by the header size (16 KiB), still more than a summary.
		const queryJson =
			fit(redact(query), anonymous ? ANONYMOUS_QUERY_BYTES : this.limits.bodyBytes).json ?? '{}';
		const kept: Kept = {
			id: this.nextId++,
			...rest,
			queryJson,
			cost: ENTRY_OVERHEAD + queryJson.length,
		};
		if (body !== undefined && anonymous) {
			kept.bodyNote = {
				kept: 'not kept',
				reason: 'the request did not authenticate',
				bytes: bodyBytes,
			};
		} else if (body !== undefined) {
			const { json, shortened } = fit(redact(body), this.limits.bodyBytes);
			kept.json = json;
			kept.cost += json?.length ?? 0;
			if (shortened)
				kept.bodyNote = {
					kept: 'shortened',
					reason: `larger than --journal-body-bytes (${this.limits.bodyBytes})`,
					bytes: bodyBytes,
				};
		}
		this.entries.push(kept);
		this.bytes += kept.cost;
		if (this.listeners.size) {
			const summary = summaryOf(kept);
			for (const listener of this.listeners) listener(summary);
		}
		while (
			this.entries.length - this.head > this.limits.entries ||
			(this.bytes > this.limits.totalBytes && this.entries.length - this.head > 1)
		) {
			this.bytes -= this.entries[this.head].cost;
			this.head++;
		}
		// Compact now and then instead of shifting an array of thousands on every request.
		if (this.head > 1024 && this.head * 2 > this.entries.length) {
			this.entries = this.entries.slice(this.head);
			this.head = 0;
		}
	}

	/** The kept entries the filter matches, oldest first (all of them: `limit` is the caller's). */
	private matching(filter: JournalFilter): Kept[] {
		const since = filter.since ? Date.parse(filter.since) : undefined;
		// Query and body are parsed only for entries the cheap fields let through.
		const deep =
			filter.query !== undefined || filter.body !== undefined || filter.bodyContains !== undefined;
		return this.entries.slice(this.head).filter(
			(e) =>
				(!filter.method || e.method === filter.method.toUpperCase()) &&
				(!filter.path ||
					(filter.path.endsWith('*')
						? e.path.startsWith(filter.path.slice(0, -1))
						: e.path === filter.path)) &&
				(filter.status === undefined || e.status === filter.status) &&
				(filter.id === undefined || e.id === filter.id) &&
				(filter.accountId === undefined || e.accountId === filter.accountId) &&
				(filter.keyId === undefined || e.keyId === filter.keyId) &&
				(since === undefined || e.at >= since) &&
				(!deep ||
					matches(
						{
							accountId: e.accountId,
							keyId: e.keyId,
							query: JSON.parse(e.queryJson) as Record<string, unknown>,
							body: e.json === undefined ? undefined : (JSON.parse(e.json) as unknown),
						},
						filter,
					)),
		);
	}

	/** How many kept entries the filter matches (its `limit` aside). */
	count(filter: JournalFilter = {}): number {
		return this.matching({ ...filter, limit: undefined }).length;
	}

	/** Matching entries, oldest first (summaries only when the filter asks). */
	list(filter: JournalFilter = {}): JournalEntry[] | JournalSummary[] {
		const matching = this.matching(filter);
		const last = filter.limit !== undefined ? matching.slice(-filter.limit) : matching;
		if (filter.summary === 'true') return last.map(summaryOf);
		return last.map(
			({ at, queryJson, json, cost: _cost, ...rest }) =>
				({
					...rest,
					query: JSON.parse(queryJson) as Record<string, unknown>,
					time: new Date(at).toISOString(),
					...(json === undefined ? {} : { body: JSON.parse(json) as unknown }),
				}) as JournalEntry,
		);
	}

	/** Forgets every entry, or one account's (a parallel test's own, the others' kept). */
	clear(accountId?: string): void {
		if (accountId !== undefined) {
			const kept = this.entries.slice(this.head).filter((e) => e.accountId !== accountId);
			this.entries = kept;
			this.head = 0;
			this.bytes = kept.reduce((sum, e) => sum + e.cost, 0);
			return;
		}
		this.entries = [];
		this.head = 0;
		this.bytes = 0;
	}
}

/** A (redacted) value as JSON within `max` bytes: whole when it fits, else shortened. */
function fit(value: unknown, max: number): { json?: string; shortened: boolean } {
	const json = JSON.stringify(value) ?? 'null';
	return json.length <= max
		? { json, shortened: false }
		: { json: shorten(value, max), shortened: true };
}

/**
 * A (redacted) value larger than `max` bytes as JSON, shortened to fit: long strings cut, long lists cut to
 * their first items, each with a marker saying what was left out. Halves what it keeps until it
 * fits; what cannot fit at all is kept as a marker only.
 */
function shorten(body: unknown, max: number): string | undefined {
	for (let strings = 1024, items = 256; strings >= 16; strings >>= 1, items >>= 1) {
		const json = JSON.stringify(cut(body, strings, Math.max(1, items)));
		if (json !== undefined && json.length <= max) return json;
	}
	return max >= 32 ? JSON.stringify('[too large to keep]') : undefined;
}

function cut(value: unknown, strings: number, items: number): unknown {
	if (typeof value === 'string')
		return value.length > strings
			? `${value.slice(0, strings)}...[${value.length - strings} more characters]`
			: value;
	if (value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) {
		const kept = value.slice(0, items).map((v) => cut(v, strings, items));
		return value.length > items ? [...kept, `[${value.length - items} more items]`] : kept;
	}
	const entries = Object.entries(value);
	const out: Record<string, unknown> = {};
	for (const [k, v] of entries.slice(0, items)) out[k] = cut(v, strings, items);
	if (entries.length > items) out['[more fields]'] = entries.length - items;
	return out;
}

/** A few words about an answer: counts and the error, not the whole body. */
export function summarize(status: number, body: unknown): Record<string, unknown> {
	if (!body || typeof body !== 'object') return {};
	const b = body as Record<string, unknown>;
	if (status >= 400) return { error: b.error, ...(b.code ? { code: b.code } : {}) };
	const out: Record<string, unknown> = {};
	if (Array.isArray(b.contacts)) out.contacts = b.contacts.length;
	if (typeof b.chargedCredits === 'number') out.chargedCredits = b.chargedCredits;
	if (Array.isArray(b.pools)) out.pools = b.pools.length;
	if (Array.isArray(b.inboxes)) out.inboxes = b.inboxes.length;
	if (b.pagination) out.total = (b.pagination as { total?: number }).total;
	if (b.summary) out.summary = b.summary;
	if (b.pool) out.pool = b.pool;
	return out;
}

/** The summary of an answer that was sent already serialised (only parsed when small). */
export function summarizeSerialized(status: number, payload: unknown): Record<string, unknown> {
	if (typeof payload !== 'string' || payload.length > 4096) return {};
	try {
		return summarize(status, JSON.parse(payload));
	} catch {
		return {};
	}
}
