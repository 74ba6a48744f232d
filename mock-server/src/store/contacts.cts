/** The contacts of each account, deduplicated by their key (contract/contact-key.cts). */
import type { Contact } from '../contract/leads.cjs';
import type { Clock } from '../core/clock.cjs';
import { column, type Db, scalar, sql } from './database.cjs';

export class Contacts {
	constructor(
		private readonly db: Db,
		private readonly clock: Clock,
	) {}

	/**
	 * Which of these keys the account already holds, by position: one index lookup per key (a join
	 * would walk all the account's contacts), and only numbers come back.
	 */
	knownPositions(accountId: string, keys: string[]): Set<number> {
		return new Set(
			column(
				this.db,
				'SELECT k.key FROM json_each(?) AS k WHERE EXISTS (SELECT 1 FROM contacts WHERE account_id = ? AND dedup_key = k.value)',
				JSON.stringify(keys),
				accountId,
			) as number[],
		);
	}

	/** Adds a contact under its key; false (nothing written) when the account already holds the key. */
	add(accountId: string, key: string, contact: Contact): boolean {
		return (
			sql(
				this.db,
				'INSERT OR IGNORE INTO contacts (account_id, dedup_key, data, created_at) VALUES (?, ?, ?, ?)',
			).run(accountId, key, JSON.stringify(contact), this.clock.nowIso()).changes === 1
		);
	}

	/** A page of the account's contacts in the order they were added, and how many there are. */
	page(accountId: string, limit: number, skip: number): { contacts: Contact[]; total: number } {
		const rows = sql(
			this.db,
			'SELECT data FROM contacts WHERE account_id = ? ORDER BY seq LIMIT ? OFFSET ?',
		).all(accountId, limit, skip) as unknown as { data: string }[];
		const total = scalar(
			this.db,
			'SELECT COUNT(*) FROM contacts WHERE account_id = ?',
			accountId,
		) as number;
		return { contacts: rows.map((r) => JSON.parse(r.data) as Contact), total };
	}
}
