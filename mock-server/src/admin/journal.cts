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
	private readonly ring: JournalEntry[] = [];
	private start = 0;
	private nextId = 1;

	constructor(readonly capacity: number) {}

	record(entry: Omit<JournalEntry, 'id' | 'body'> & { body?: unknown }): void {
		if (this.capacity <= 0) return;
		const kept: JournalEntry = {
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
				(since === undefined || Date.parse(e.time) >= since),
		);
		return filter.limit !== undefined ? matching.slice(-filter.limit) : matching;
	}

	clear(): void {
		this.ring.length = 0;
		this.start = 0;
	}
}

/** A few words about an answer: counts and the error, not the whole body. */
export function summarize(status: number, payload: unknown): Record<string, unknown> {
	let body: Record<string, unknown>;
	try {
		body = typeof payload === 'string' ? JSON.parse(payload) : {};
	} catch {
		return {};
	}
	if (!body || typeof body !== 'object') return {};
	if (status >= 400) return { error: body.error, ...(body.code ? { code: body.code } : {}) };
	const out: Record<string, unknown> = {};
	if (Array.isArray(body.contacts)) out.contacts = body.contacts.length;
	if (typeof body.chargedCredits === 'number') out.chargedCredits = body.chargedCredits;
	if (Array.isArray(body.pools)) out.pools = body.pools.length;
	if (Array.isArray(body.inboxes)) out.inboxes = body.inboxes.length;
	if (body.pagination) out.total = (body.pagination as { total?: number }).total;
	if (body.summary) out.summary = body.summary;
	if (body.pool) out.pool = body.pool;
	return out;
}
