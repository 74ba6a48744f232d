/**
 * A small typed client of the admin API (docs/api.md, "Admin API"), for tests: of a server they
 * started in-process, or of a standalone server or container (new AdminClient(url, token)). It
 * uses only fetch, and every type here is written out, so the package's type
 * declarations stand on their own.
 */

export type Permission = 'pools:read' | 'inboxes:read' | 'inboxes:write';
export type InboxStatus = 'active' | 'paused' | 'deactivated' | 'error';
export type FaultRoute =
	| 'POST /api/v1/niche-finder-leads'
	| 'GET /api/v1/pools'
	| 'GET /api/v1/inboxes'
	| 'POST /api/v1/inboxes';

export interface Account {
	id: string;
	credits: number;
	active: boolean;
	permissions: Permission[];
	contactCount: number;
}

/** Whose requests a fault applies to (tests sharing one server scope their faults this way). */
export interface FaultScope {
	/** Only this account's requests or saves. */
	accountId?: string;
	/** Only requests made with this key (its id: accounts.create answers it). */
	keyId?: string;
}

/** A fault: a storage fault (the next contact saves fail) or a route fault (the next requests). */
export type Fault =
	| ({ target: 'leads.save'; times?: number } & FaultScope)
	| ({
			route: FaultRoute;
			/** Which requests of the route: query values as sent, a JSON subset of the body, text in it. */
			match?: { query?: Record<string, string>; body?: unknown; bodyContains?: string };
			/** The chance (0 to 1, default 1) that a matching request gets the fault. */
			probability?: number;
			times?: number;
			/** Answer this status (400 to 599) instead of the real answer. */
			status?: number;
			body?: Record<string, unknown>;
			/** Wait first; without status or drop, the real answer follows. */
			delayMs?: number;
			/** Retry-After seconds of an injected 429. */
			retryAfter?: number;
			/** Close the connection without an answer. */
			drop?: boolean;
	  } & FaultScope);

export interface JournalEntry {
	id: number;
	time: string;
	method: string;
	path: string;
	/** As sent, secrets redacted. */
	query: Record<string, unknown>;
	/** The account of the API key used, when the key is known (also for a faulted request). */
	accountId: string | null;
	/** The ID of the API key used (never the key), when the key is known. */
	keyId: string | null;
	/** null when an injected fault dropped the connection. */
	status: number | null;
	durationMs: number;
	/** As sent, redacted; shortened past --journal-body-bytes; absent for unauthenticated requests. */
	body?: unknown;
	/** Set when `body` is not the whole body: why, and its size as sent. */
	bodyNote?: { kept: 'shortened' | 'not kept'; reason: string; bytes: number };
	/** A short summary of the answer (contacts and credits, the creation summary, the error...). */
	response: Record<string, unknown>;
}

export interface InboxAsListed {
	id: string;
	emailAddress: string;
	poolId: string;
	status: InboxStatus;
	dailySendingLimit: number;
	createdAt: string;
}

/** The body of a --seed file (see the server's README, "Seed files"). */
export interface Seed {
	accounts: {
		apiKey: string;
		credits?: number;
		active?: boolean;
		permissions?: Permission[];
		pools?: {
			name: string;
			inboxes?: ({ emailAddress: string; status?: InboxStatus } & Record<string, unknown>)[];
		}[];
		contacts?: ({ businessName: string } & Record<string, unknown>)[];
	}[];
}

/** An admin call the server refused: its HTTP status and its own message. */
export class AdminApiError extends Error {
	constructor(
		readonly status: number,
		readonly body: unknown,
		call: string,
	) {
		const said = (body as { error?: unknown } | null)?.error;
		super(`${call} answered ${status}${typeof said === 'string' ? `: ${said}` : ''}`);
		this.name = 'AdminApiError';
	}
}

/** Which recorded requests a test means; each given part must hold. */
export interface RequestFilter {
	method?: string;
	/** Exact path, or a prefix ending with *. */
	path?: string;
	status?: number;
	/** ISO time: requests at or after it. */
	since?: string;
	accountId?: string;
	keyId?: string;
	/** Query parameters the request carried with these values (as text: {skip: '1000'}). */
	query?: Record<string, string>;
	/** A JSON subset of the request body (objects field by field, arrays element by element). */
	body?: unknown;
	/** Text the recorded body, as JSON, contains. */
	bodyContains?: string;
}

/** The server's clock after a change: its time, how far it is from this machine's, and whether it is frozen. */
export interface ClockState {
	now: string;
	offsetSeconds: number;
	frozen: boolean;
}

export class AdminClient {
	constructor(
		private readonly url: string,
		private readonly token: string,
	) {}

	/** Any admin API call: `path` under /__admin (docs/api.md, "Admin API"); a refusal throws AdminApiError. */
	async call<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await fetch(`${this.url}/__admin${path}`, {
			method,
			headers: {
				authorization: `Bearer ${this.token}`,
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		const parsed: unknown = text ? JSON.parse(text) : undefined;
		if (!response.ok) throw new AdminApiError(response.status, parsed, `${method} /__admin${path}`);
		return parsed as T;
	}

	private static query(params: Record<string, string | number | undefined>): string {
		const defined = Object.entries(params).filter(([, value]) => value !== undefined);
		return defined.length
			? `?${new URLSearchParams(defined.map(([k, v]): [string, string] => [k, String(v)])).toString()}`
			: '';
	}

	private static filterQuery(filter: RequestFilter & { limit?: number }): string {
		const { query, body, ...plain } = filter;
		return AdminClient.query({
			...plain,
			query: query === undefined ? undefined : JSON.stringify(query),
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	}

	readonly accounts = {
		/** Every account, the dev account first (dev: true). */
		list: async () =>
			(await this.call<{ accounts: (Account & { dev: boolean })[] }>('GET', '/accounts')).accounts,
		/** A new account (credits 1000, active, every permission unless given), its first key and its id. */
		create: (input: { credits?: number; active?: boolean; permissions?: Permission[] } = {}) =>
			this.call<{ accountId: string; apiKey: string; keyId: string }>('POST', '/accounts', input),
		/**
		 * Puts the account back as created: no contacts, pools or inboxes, credits as granted, its
		 * keys' hourly windows, journal entries and scoped faults cleared; keys kept. Others untouched.
		 */
		reset: (id: string) => this.call<Account>('POST', `/accounts/${encodeURIComponent(id)}/reset`),
		get: (id: string) => this.call<Account>('GET', `/accounts/${encodeURIComponent(id)}`),
		/** Sets the available credits, or turns the account off (a 403 on every call). */
		update: (id: string, patch: { credits?: number; active?: boolean }) =>
			this.call<Account>('PATCH', `/accounts/${encodeURIComponent(id)}`, patch),
		addKey: async (id: string, permissions?: Permission[]) =>
			(
				await this.call<{ apiKey: string; keyId: string }>(
					'POST',
					`/accounts/${encodeURIComponent(id)}/keys`,
					permissions ? { permissions } : {},
				)
			).apiKey,
		/** The account's pools (created order), each with how many of its inboxes are in each status. */
		pools: async (id: string) =>
			(
				await this.call<{
					pools: {
						id: string;
						name: string;
						createdAt: string;
						inboxes: Record<InboxStatus, number>;
					}[];
				}>('GET', `/accounts/${encodeURIComponent(id)}/pools`)
			).pools,
		/** A page of the account's contacts, in the order they were added. */
		contacts: (id: string, page: { limit?: number; skip?: number } = {}) =>
			this.call<{
				contacts: Record<string, unknown>[];
				pagination: { total: number; limit: number; skip: number; hasMore: boolean };
			}>('GET', `/accounts/${encodeURIComponent(id)}/contacts${AdminClient.query(page)}`),
	};

	/** Sets an inbox's status; `inbox` is its ID or its email address. */
	setInboxStatus(accountId: string, inbox: string, status: InboxStatus): Promise<InboxAsListed> {
		return this.call(
			'PATCH',
			`/accounts/${encodeURIComponent(accountId)}/inboxes/${encodeURIComponent(inbox)}`,
			{ status },
		);
	}

	/** Applies a seed: creates what is missing, leaves what exists. */
	seed(seed: Seed): Promise<{ accounts: { accountId: string; created: boolean }[] }> {
		return this.call('POST', '/seed', seed);
	}

	readonly faults = {
		arm: (fault: Fault) => this.call<{ armed: Fault }>('POST', '/faults', fault),
		list: () => this.call<{ storage: Fault[]; routes: Fault[] }>('GET', '/faults'),
		/** Clears every fault, or only those scoped to one account. */
		clear: async (accountId?: string) => {
			await this.call('DELETE', `/faults${AdminClient.query({ accountId })}`);
		},
	};

	readonly requests = {
		/** The journal, oldest first; `limit`: the most recent n matching. */
		list: async (filter: RequestFilter & { limit?: number } = {}) =>
			(
				await this.call<{ requests: JournalEntry[] }>(
					'GET',
					`/requests${AdminClient.filterQuery(filter)}`,
				)
			).requests,
		count: async (filter: RequestFilter = {}) =>
			(
				await this.call<{ count: number }>(
					'GET',
					`/requests/count${AdminClient.filterQuery(filter)}`,
				)
			).count,
		/**
		 * Checks the journal holds exactly `times` (default 1) requests matching the filter; throws an
		 * error that says what was expected, what came, and the nearest request recorded.
		 */
		verify: async (filter: RequestFilter, options: { times?: number } = {}) => {
			const times = options.times ?? 1;
			const count = await this.requests.count(filter);
			if (count === times) return;
			throw new Error(await this.mismatch(filter, `exactly ${times}`, count));
		},
		/**
		 * Waits, on the server's live events, until at least `times` (default 1) requests matching
		 * the filter are recorded; throws after `timeoutMs` (default 10 s) saying what came instead.
		 */
		waitFor: async (
			filter: RequestFilter,
			options: { times?: number; timeoutMs?: number } = {},
		): Promise<JournalEntry[]> => {
			const times = options.times ?? 1;
			const done = async () => (await this.requests.count(filter)) >= times;
			const stop = new AbortController();
			const timer = setTimeout(() => stop.abort(), options.timeoutMs ?? 10_000);
			try {
				// Subscribed first, then counted: a request answered in between is in the stream.
				const events = await fetch(`${this.url}/__admin/events`, {
					headers: { authorization: `Bearer ${this.token}` },
					signal: stop.signal,
				});
				if (!events.ok || !events.body)
					throw new AdminApiError(events.status, undefined, 'GET /__admin/events');
				if (!(await done())) {
					// Each batch of requests (or heartbeat) that arrives is a moment to count again.
					const reader = (events.body as ReadableStream<Uint8Array>).getReader();
					for (;;) {
						const { done: ended } = await reader.read();
						if (ended) throw new Error('the server ended its event stream');
						if (await done()) break;
					}
				}
			} catch (error) {
				if (!stop.signal.aborted) throw error;
				throw new Error(
					await this.mismatch(
						filter,
						`at least ${times} within ${options.timeoutMs ?? 10_000} ms`,
						await this.requests.count(filter),
					),
				);
			} finally {
				clearTimeout(timer);
				stop.abort();
			}
			return await this.requests.list(filter);
		},
		/** Empties the journal, or only one account's entries. */
		clear: async (accountId?: string) => {
			await this.call('DELETE', `/requests${AdminClient.query({ accountId })}`);
		},
	};

	/** What a failed verification says: the filter, the count, and the nearest request recorded. */
	private async mismatch(filter: RequestFilter, expected: string, count: number): Promise<string> {
		const { method, path, accountId, keyId } = filter;
		const near =
			(await this.requests.list({ method, path, accountId, keyId, limit: 1 }))[0] ??
			(await this.requests.list({ accountId, keyId, limit: 1 }))[0] ??
			(await this.requests.list({ limit: 1 }))[0];
		const shown = near
			? `${near.method} ${near.path} ${JSON.stringify(near.query)} -> ${near.status ?? 'dropped'} (account ${near.accountId ?? 'unknown'}, body ${JSON.stringify(near.body) ?? 'not kept'})`
			: 'none: the journal is empty';
		return `Expected ${expected} request(s) matching ${JSON.stringify(filter)}, but ${count} matched. The nearest recorded request: ${shown}`;
	}

	/** Moves the server's clock forward (rate-limit windows, timestamps). */
	advanceClock(seconds: number): Promise<ClockState> {
		return this.call('POST', '/clock', { advanceSeconds: seconds });
	}

	/** Sets the server's clock to an instant (ISO 8601, or epoch milliseconds); time runs on from it. */
	setClock(now: string | number): Promise<ClockState> {
		return this.call('POST', '/clock', { now: new Date(now).toISOString() });
	}

	/**
	 * Freezes the server's clock (time stands still; advanceClock still moves it), or lets it run
	 * on from where it stood. A reset thaws it.
	 */
	freezeClock(frozen = true): Promise<ClockState> {
		return this.call('POST', '/clock', { frozen });
	}

	/** Empties everything; the dev account and the start seed are applied again. */
	async reset(): Promise<void> {
		await this.call('POST', '/reset');
	}
}
