import { redact } from '../core/logger.cjs';

/** One API request as the journal keeps it: never a key or a password. */
export interface JournalEntry {
	id: number;
	time: string;
	method: string;
	path: string;
	query: Record<string, unknown>;
	/** The id of the API key that was used (not the key), when the request authenticated. */
	keyId: string | null;
	/** null when the connection was dropped by an injected fault. */
	status: number | null;
	durationMs: number;
	body?: unknown;
	response: Record<string, unknown>;
}

type Kept = Omit<JournalEntry, 'time'> & { at: number };

export interface JournalFilter {
	method?: string;
	/** Exact path, or a prefix when it ends with `*`. */
	path?: string;
	status?: number;
	/** ISO time: only requests at or after it. */
	since?: string;
	/** The most recent n of the matching requests. */
	limit?: number;
}

/**
 * The request journal (as WireMock's): the last `capacity` API requests in a ring, so tests can
 * ask afterwards what was called. Bodies are redacted (passwords, keys, tokens) before they are kept.
 */
export class RequestJournal {
	private readonly ring: Kept[] = [];
	private start = 0;
	private nextId = 1;

	constructor(readonly capacity: number) {}

	/** `at` is the server clock's time in ms (turned into ISO 8601 only when listed). */
	record(entry: Omit<JournalEntry, 'id' | 'body' | 'time'> & { at: number; body?: unknown }): void {
		if (this.capacity <= 0) return;
		const kept: Kept = {
			id: this.nextId++,
			...entry,
			...(entry.body === undefined ? {} : { body: redact(entry.body) }),
		};
		if (this.ring.length < this.capacity) this.ring.push(kept);
		else {
			this.ring[this.start] = kept;
			this.start = (this.start + 1) % this.capacity;
		}
	}

	/** Matching entries, oldest first. */
	list(filter: JournalFilter = {}): JournalEntry[] {
		const ordered = [...this.ring.slice(this.start), ...this.ring.slice(0, this.start)];
		const since = filter.since ? Date.parse(filter.since) : undefined;
		const matching = ordered.filter(
			(e) =>
				(!filter.method || e.method === filter.method.toUpperCase()) &&
				(!filter.path ||
					(filter.path.endsWith('*')
						? e.path.startsWith(filter.path.slice(0, -1))
						: e.path === filter.path)) &&
				(filter.status === undefined || e.status === filter.status) &&
				(since === undefined || e.at >= since),
		);
		return (filter.limit !== undefined ? matching.slice(-filter.limit) : matching).map(
			({ at, ...rest }) => ({ ...rest, time: new Date(at).toISOString() }) as JournalEntry,
		);
	}

	clear(): void {
		this.ring.length = 0;
		this.start = 0;
	}
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
