/**
 * Pools and inboxes of each account. Listing never selects connection settings or passwords;
 * passwords are stored encrypted. `onChange` tells a cache of listings that an account changed.
 */
import type { InboxStatus } from '../contract/inboxes.cjs';
import type { Clock } from '../core/clock.cjs';
import { sortableId } from '../core/ids.cjs';
import type { Secrets } from '../core/secrets.cjs';
import { type Db, sql } from './database.cjs';

/** The connection settings an inbox is stored with (detected or given). */
export interface InboxSettings {
	provider?: string;
	imapHost: string;
	imapPort: number;
	imapUsername: string;
	imapPassword: string;
	smtpHost: string;
	smtpPort: number;
	smtpUsername: string;
	smtpPassword: string;
}

export interface InboxRow {
	id: string;
	emailAddress: string;
	poolId: string;
	status: InboxStatus;
	dailySendingLimit: number;
	createdAt: string;
}

/** An inbox as GET /inboxes lists it: never connection settings or passwords. */
const LISTED =
	'id, email_address AS emailAddress, pool_id AS poolId, status, daily_sending_limit AS dailySendingLimit, created_at AS createdAt';

export class Inboxes {
	/** Called with the account after every write to its pools or inboxes. */
	onChange: (accountId: string) => void = () => undefined;

	constructor(
		private readonly db: Db,
		private readonly clock: Clock,
		private readonly secrets: Secrets,
	) {}

	poolExists(accountId: string, poolId: string): boolean {
		return !!sql(this.db, 'SELECT 1 FROM pools WHERE id = ? AND account_id = ?').get(
			poolId,
			accountId,
		);
	}

	poolNamed(accountId: string, name: string): string | undefined {
		return (
			sql(
				this.db,
				'SELECT id FROM pools WHERE account_id = ? AND name = ? ORDER BY created_at LIMIT 1',
			).get(accountId, name) as { id: string } | undefined
		)?.id;
	}

	/**
	 * Sets an inbox's status; the inbox is named by ID or by address (case-insensitive). Returns the
	 * inbox as listed, or undefined when the account has no such inbox.
	 */
	setStatus(accountId: string, inbox: string, status: InboxStatus): InboxRow | undefined {
		const byAddress = inbox.includes('@');
		const where = `account_id = ? AND ${byAddress ? 'email_lower' : 'id'} = ?`;
		const key = byAddress ? inbox.trim().toLowerCase() : inbox;
		const changed = sql(
			this.db,
			`UPDATE inboxes SET status = ? WHERE ${where} RETURNING ${LISTED}`,
		).get(status, accountId, key) as InboxRow | undefined;
		if (changed) this.onChange(accountId);
		return changed;
	}

	listPools(accountId: string) {
		return sql(
			this.db,

			`SELECT p.id, p.name, (SELECT COUNT(*) FROM inboxes i WHERE i.pool_id = p.id) AS inboxCount, p.created_at AS createdAt
				 FROM pools p WHERE p.account_id = ? ORDER BY p.created_at, p.id`,
		).all(accountId) as { id: string; name: string; inboxCount: number; createdAt: string }[];
	}

	/** The account's pools (created order) with how many of their inboxes are in each status. */
	poolsByStatus(accountId: string) {
		const rows = sql(
			this.db,
			`SELECT p.id, p.name, p.created_at AS createdAt, i.status, COUNT(i.id) AS n
				 FROM pools p LEFT JOIN inboxes i ON i.pool_id = p.id
				 WHERE p.account_id = ? GROUP BY p.id, i.status ORDER BY p.created_at, p.id`,
		).all(accountId) as {
			id: string;
			name: string;
			createdAt: string;
			status: InboxStatus | null;
			n: number;
		}[];
		const pools = new Map<
			string,
			{ id: string; name: string; createdAt: string; inboxes: Record<InboxStatus, number> }
		>();
		for (const { id, name, createdAt, status, n } of rows) {
			const pool = pools.get(id) ?? {
				id,
				name,
				createdAt,
				inboxes: { active: 0, paused: 0, deactivated: 0, error: 0 },
			};
			if (status) pool.inboxes[status] = n;
			pools.set(id, pool);
		}
		return [...pools.values()];
	}

	/** A page of the account's inboxes (created order) and how many match in all. */
	listInboxes(
		accountId: string,
		filter: { poolId?: string; status?: string },
		limit: number,
		skip: number,
	) {
		// node:sqlite refuses a named parameter the statement does not use: give only those used.
		const where = ['account_id = @accountId'];
		const filters: Record<string, string> = {};
		if (filter.poolId) {
			where.push('pool_id = @poolId');
			filters.poolId = filter.poolId;
		}
		if (filter.status) {
			where.push('status = @status');
			filters.status = filter.status;
		}
		const { total } = sql(
			this.db,
			`SELECT COUNT(*) AS total FROM inboxes WHERE ${where.join(' AND ')}`,
		).get({ accountId, ...filters }) as { total: number };
		const inboxes = sql(
			this.db,

			`SELECT ${LISTED}
				 FROM inboxes WHERE ${where.join(' AND ')} ORDER BY created_at, id LIMIT @limit OFFSET @skip`,
		).all({ accountId, ...filters, limit, skip });
		return { inboxes: inboxes as unknown as InboxRow[], total };
	}

	existingEmails(accountId: string, emailsLower: string[]): Set<string> {
		if (emailsLower.length === 0) return new Set();
		const rows = sql(
			this.db,
			`SELECT email_lower AS e FROM inboxes WHERE account_id = ? AND email_lower IN (${emailsLower.map(() => '?').join(',')})`,
		).all(accountId, ...emailsLower) as { e: string }[];
		return new Set(rows.map((r) => r.e));
	}

	/**
	 * A new pool, named by the caller or after the minute it was made. Names are unique in the
	 * account: a second pool of the same minute (or name) becomes "... (2)".
	 */
	createPool(accountId: string, requestedName?: string): { id: string; name: string } {
		const now = this.clock.now();
		const iso = new Date(now).toISOString();
		const base = requestedName ?? `Pool ${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
		let name = base;
		const taken = sql(this.db, 'SELECT 1 FROM pools WHERE account_id = ? AND name = ?');
		for (let n = 2; taken.get(accountId, name); n++) name = `${base} (${n})`;
		const id = sortableId('pool', now);
		this.onChange(accountId);
		sql(this.db, 'INSERT INTO pools (id, account_id, name, created_at) VALUES (?, ?, ?, ?)').run(
			id,
			accountId,
			name,
			iso,
		);
		return { id, name };
	}

	/** Inserts one inbox; its id, or undefined when the address already exists in the account. */
	insertInbox(
		accountId: string,
		poolId: string,
		emailAddress: string,
		dailySendingLimit: number,
		s: InboxSettings,
	): string | undefined {
		const now = this.clock.now();
		const id = sortableId('inb', now);
		const result = sql(
			this.db,

			`INSERT OR IGNORE INTO inboxes (id, account_id, pool_id, email_address, email_lower, status, daily_sending_limit, provider,
				   imap_host, imap_port, imap_username, imap_password_enc, smtp_host, smtp_port, smtp_username, smtp_password_enc, created_at)
				 VALUES (?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		).run(
			id,
			accountId,
			poolId,
			emailAddress,
			emailAddress.toLowerCase(),
			dailySendingLimit,
			s.provider ?? null,
			s.imapHost,
			s.imapPort,
			s.imapUsername,
			this.secrets.encrypt(s.imapPassword),
			s.smtpHost,
			s.smtpPort,
			s.smtpUsername,
			this.secrets.encrypt(s.smtpPassword),
			new Date(now).toISOString(),
		);
		this.onChange(accountId);
		return result.changes === 1 ? id : undefined;
	}
}
