/**
 * Accounts, their API keys and their credit balance. Every change to an account goes through this
 * repository, which is why it may keep looked-up keys in a cache (cleared on any change).
 *
 * Credits (docs/api.md, "Credits and crashes"): the stored balance changes only inside the
 * transaction that saves a search's contacts, by exactly the number saved. A search's reservation
 * lives in this process's memory, so a process that dies mid-search loses nothing: the stored
 * balance never held the reservation. Everything that shows or checks a balance sees the available
 * one (stored minus reserved), so a reservation is still visible and two searches cannot overdraw.
 */
import type { Permission } from '../contract/admin.cjs';
import { boundedCache } from '../core/cache.cjs';
import type { Clock } from '../core/clock.cjs';
import { constantTimeEqual, hashApiKey, newApiKey, newId } from '../core/secrets.cjs';
import { type Db, scalar, sql } from './database.cjs';

export interface Account {
	id: string;
	credits: number;
	active: boolean;
	permissions: Permission[];
	contactCount: number;
}

/** Who a presented API key is: its account, its own id (for the journal) and what it may do. */
export interface Principal {
	accountId: string;
	keyId: string;
	active: boolean;
	permissions: Permission[];
}

interface AccountRow {
	id: string;
	credits: number;
	active: number;
	permissions: string;
	is_dev: number;
	contact_count: number;
}

const ACCOUNT_COLUMNS =
	'a.id, a.credits, a.active, a.permissions, a.is_dev, (SELECT COUNT(*) FROM contacts c WHERE c.account_id = a.id) AS contact_count';

const accountOf = (row: AccountRow, reserved: number): Account => ({
	id: row.id,
	credits: row.credits - reserved,
	active: row.active === 1,
	permissions: JSON.parse(row.permissions) as Permission[],
	contactCount: row.contact_count,
});

/** The non-secret part of a key hash that finds its row. */
const lookupOf = (keyHash: string) => keyHash.slice(0, 16);

/** Credits held for one search until its contacts are saved (`charge`) or it ends (`release`). */
export interface Reservation {
	/** Takes `count` credits from the stored balance; call inside the transaction saving the leads. */
	charge(count: number, searchId: string): void;
	/** Gives the reservation back; idempotent, call whatever the outcome. */
	release(): void;
}

/** One change of an account's stored balance. */
export interface LedgerEntry {
	at: string;
	/** opening: the balance of an account older than the ledger; grant: at creation; set: by the admin API; charge: a search. */
	kind: 'opening' | 'grant' | 'set' | 'charge';
	delta: number;
	/** The stored balance after it. */
	balance: number;
	searchId?: string;
}

export class Accounts {
	/** Credits reserved by searches in flight, by account (never stored: see the file comment). */
	private readonly reserved = new Map<string, number>();

	/** Keys already looked up, by hash prefix (new keys need no clearing: only found keys are kept). */
	private readonly known = boundedCache<string, { keyHash: string; principal: Principal }[]>(
		'apiKeys',
	);

	constructor(
		private readonly db: Db,
		private readonly clock: Clock,
	) {}

	create(input: {
		credits: number;
		active: boolean;
		permissions: Permission[];
		isDev?: boolean;
		/** A fixed key (seed files); generated when absent. */
		apiKey?: string;
	}): { accountId: string; apiKey: string; keyId: string } {
		const accountId = newId('acc');
		const apiKey = input.apiKey ?? newApiKey();
		const keyId = this.db.transaction(() => {
			sql(
				this.db,
				'INSERT INTO accounts (id, credits, active, permissions, is_dev, created_at) VALUES (?, ?, ?, ?, ?, ?)',
			).run(
				accountId,
				input.credits,
				input.active ? 1 : 0,
				JSON.stringify(input.permissions),
				input.isDev ? 1 : 0,
				this.clock.nowIso(),
			);
			this.record(accountId, 'grant', input.credits, input.credits);
			return this.insertKey(accountId, apiKey, input.permissions);
		});
		return { accountId, apiKey, keyId };
	}

	/** The account, or undefined when no account has this id. */
	find(id: string): Account | undefined {
		const row = sql(this.db, `SELECT ${ACCOUNT_COLUMNS} FROM accounts a WHERE a.id = ?`).get(id) as
			| AccountRow
			| undefined;
		return row && accountOf(row, this.reservedBy(row.id));
	}

	/** Every account, the dev account (`dev: true`) first, then in the order they were created. */
	list(): (Account & { dev: boolean })[] {
		const rows = sql(
			this.db,
			`SELECT ${ACCOUNT_COLUMNS} FROM accounts a ORDER BY a.is_dev DESC, a.created_at, a.id`,
		).all() as unknown as AccountRow[];
		return rows.map((row) => ({
			...accountOf(row, this.reservedBy(row.id)),
			dev: row.is_dev === 1,
		}));
	}

	/**
	 * Sets credits and/or active of an account. `credits` is the available balance the caller will
	 * see: credits reserved by searches in flight are kept on top, and come back if not charged.
	 */
	update(id: string, patch: { credits?: number; active?: boolean }): void {
		this.known.clear();
		const { credits } = patch;
		if (credits !== undefined)
			this.db.transaction(() => {
				const before = this.stored(id);
				const after = credits + this.reservedBy(id);
				sql(this.db, 'UPDATE accounts SET credits = ? WHERE id = ?').run(after, id);
				if (after !== before) this.record(id, 'set', after - before, after);
			});
		if (patch.active !== undefined)
			sql(this.db, 'UPDATE accounts SET active = ? WHERE id = ?').run(patch.active ? 1 : 0, id);
	}

	/**
	 * Reserves `count` credits when the available balance covers them, or undefined. The check and
	 * the hold happen in one synchronous step of the one process that owns the database (a second
	 * server on the same file is refused), so two searches cannot both take the last credits.
	 */
	reserve(accountId: string, count: number): Reservation | undefined {
		if (this.credits(accountId) < count) return undefined;
		this.reserved.set(accountId, this.reservedBy(accountId) + count);
		let held = count;
		return {
			charge: (charged, searchId) => {
				if (charged > held)
					throw new Error(`charge of ${charged} exceeds the reservation of ${held}`);
				if (charged === 0) return;
				const { credits } = sql(
					this.db,
					'UPDATE accounts SET credits = credits - ? WHERE id = ? RETURNING credits',
				).get(charged, accountId) as { credits: number };
				this.record(accountId, 'charge', -charged, credits, searchId);
			},
			release: () => {
				const left = this.reservedBy(accountId) - held;
				held = 0;
				if (left > 0) this.reserved.set(accountId, left);
				else this.reserved.delete(accountId);
			},
		};
	}

	/** The available balance: stored credits minus what searches in flight hold. */
	credits(accountId: string): number {
		return this.stored(accountId) - this.reservedBy(accountId);
	}

	/** The changes of an account's stored balance, oldest first (`limit` of them from `skip`), and how many there are. */
	ledger(
		accountId: string,
		page: { limit: number; skip: number },
	): { entries: LedgerEntry[]; total: number } {
		const rows = sql(
			this.db,
			'SELECT at, kind, delta, balance, search_id FROM ledger WHERE account_id = ? ORDER BY seq LIMIT ? OFFSET ?',
		).all(accountId, page.limit, page.skip) as unknown as (Omit<LedgerEntry, 'searchId'> & {
			search_id: string | null;
		})[];
		return {
			entries: rows.map(({ search_id, ...entry }) => ({
				...entry,
				...(search_id ? { searchId: search_id } : {}),
			})),
			total: scalar(
				this.db,
				'SELECT COUNT(*) FROM ledger WHERE account_id = ?',
				accountId,
			) as number,
		};
	}

	/** Writes one ledger entry; called in the statement's transaction, beside the balance it records. */
	private record(
		accountId: string,
		kind: LedgerEntry['kind'],
		delta: number,
		balance: number,
		searchId?: string,
	): void {
		sql(
			this.db,
			'INSERT INTO ledger (account_id, at, kind, delta, balance, search_id) VALUES (?, ?, ?, ?, ?, ?)',
		).run(accountId, this.clock.nowIso(), kind, delta, balance, searchId ?? null);
	}

	/** The stored balance (reservations not taken off). */
	private stored(accountId: string): number {
		return (
			(scalar(this.db, 'SELECT credits FROM accounts WHERE id = ?', accountId) as
				| number
				| undefined) ?? 0
		);
	}

	private reservedBy(accountId: string): number {
		return this.reserved.get(accountId) ?? 0;
	}

	/** The account's keys: their ids and permissions, never the keys (only their hashes are kept). */
	keys(accountId: string): { id: string; permissions: Permission[]; createdAt: string }[] {
		const rows = sql(
			this.db,
			'SELECT id, permissions, created_at FROM api_keys WHERE account_id = ? ORDER BY created_at, id',
		).all(accountId) as { id: string; permissions: string; created_at: string }[];
		return rows.map((row) => ({
			id: row.id,
			permissions: JSON.parse(row.permissions) as Permission[],
			createdAt: row.created_at,
		}));
	}

	/** A new key for an existing account (the caller checked it exists). */
	addKey(accountId: string, permissions: Permission[]): { apiKey: string; keyId: string } {
		const apiKey = newApiKey();
		return { apiKey, keyId: this.insertKey(accountId, apiKey, permissions) };
	}

	/** The account a key belongs to, if any. */
	accountOfKey(apiKey: string): string | undefined {
		return (
			sql(this.db, 'SELECT account_id FROM api_keys WHERE key_hash = ?').get(hashApiKey(apiKey)) as
				| { account_id: string }
				| undefined
		)?.account_id;
	}

	/** Makes sure a given key (the dev key) exists for the account. */
	ensureKey(accountId: string, apiKey: string, permissions: Permission[]): void {
		if (!this.accountOfKey(apiKey)) this.insertKey(accountId, apiKey, permissions);
	}

	devAccountId(): string | undefined {
		const row = sql(
			this.db,
			'SELECT id FROM accounts WHERE is_dev = 1 ORDER BY created_at LIMIT 1',
		).get() as { id: string } | undefined;
		return row?.id;
	}

	/** Resolves a presented key; undefined when unknown. The full hash is compared in constant time. */
	authenticate(apiKey: string): Principal | undefined {
		const presented = hashApiKey(apiKey);
		const lookup = lookupOf(presented);
		let candidates = this.known.get(lookup);
		if (!candidates) {
			const rows = sql(
				this.db,
				`SELECT k.id AS keyId, k.key_hash AS keyHash, k.permissions, a.id AS accountId, a.active
				 FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.key_lookup = ?`,
			).all(lookup) as {
				keyId: string;
				keyHash: string;
				permissions: string;
				accountId: string;
				active: number;
			}[];
			candidates = rows.map((row) => ({
				keyHash: row.keyHash,
				principal: {
					accountId: row.accountId,
					keyId: row.keyId,
					active: row.active === 1,
					permissions: JSON.parse(row.permissions) as Permission[],
				},
			}));
			if (candidates.length > 0) this.known.set(lookup, candidates);
		}
		return candidates.find((c) => constantTimeEqual(c.keyHash, presented))?.principal;
	}

	/** Forget looked-up keys (after a change outside this repository: a seed, a reset). */
	invalidate(): void {
		this.known.clear();
	}

	/** Stores the key's hash; answers the key's id. */
	private insertKey(accountId: string, apiKey: string, permissions: Permission[]): string {
		const keyHash = hashApiKey(apiKey);
		const keyId = newId('key');
		sql(
			this.db,
			'INSERT INTO api_keys (id, account_id, key_hash, key_lookup, permissions, created_at) VALUES (?, ?, ?, ?, ?, ?)',
		).run(
			keyId,
			accountId,
			keyHash,
			lookupOf(keyHash),
			JSON.stringify(permissions),
			this.clock.nowIso(),
		);
		return keyId;
	}
}
