/**
 * A small typed client of the admin API (docs/api.md, "Admin API"), for tests that start the
 * server in-process. It uses only fetch, and every type here is written out, so the package's type
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

/** A fault: a storage fault (the next contact saves fail) or a route fault (the next requests). */
export type Fault =
	| { target: 'leads.save'; times?: number }
	| {
			route: FaultRoute;
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
	  };

export interface JournalEntry {
	id: number;
	time: string;
	method: string;
	path: string;
	/** As sent, secrets redacted. */
	query: Record<string, unknown>;
	/** The ID of the API key used (never the key), when the request authenticated. */
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

	private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
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

	readonly accounts = {
		/** Every account, the dev account first (dev: true). */
		list: async () =>
			(await this.call<{ accounts: (Account & { dev: boolean })[] }>('GET', '/accounts')).accounts,
		/** A new account (credits 1000, active, every permission unless given) and its first key. */
		create: (input: { credits?: number; active?: boolean; permissions?: Permission[] } = {}) =>
			this.call<{ accountId: string; apiKey: string }>('POST', '/accounts', input),
		get: (id: string) => this.call<Account>('GET', `/accounts/${encodeURIComponent(id)}`),
		/** Sets the available credits, or turns the account off (a 403 on every call). */
		update: (id: string, patch: { credits?: number; active?: boolean }) =>
			this.call<Account>('PATCH', `/accounts/${encodeURIComponent(id)}`, patch),
		addKey: async (id: string, permissions?: Permission[]) =>
			(
				await this.call<{ apiKey: string }>(
					'POST',
					`/accounts/${encodeURIComponent(id)}/keys`,
					permissions ? { permissions } : {},
				)
			).apiKey,
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
		list: () => this.call<{ storage: unknown[]; routes: unknown[] }>('GET', '/faults'),
		clear: async () => {
			await this.call('DELETE', '/faults');
		},
	};

	readonly requests = {
		/** The journal, oldest first; `path` may end with * for a prefix. */
		list: async (
			filter: {
				method?: string;
				path?: string;
				status?: number;
				since?: string;
				limit?: number;
			} = {},
		) =>
			(
				await this.call<{ requests: JournalEntry[] }>(
					'GET',
					`/requests${AdminClient.query(filter)}`,
				)
			).requests,
		clear: async () => {
			await this.call('DELETE', '/requests');
		},
	};

	/** Moves the server's clock forward (rate-limit windows, timestamps). */
	advanceClock(seconds: number): Promise<ClockState> {
		return this.call('POST', '/clock', { advanceSeconds: seconds });
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
