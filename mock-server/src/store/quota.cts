/** The ledger of created inboxes per API key, from which the hourly limit is computed. */
import { type Db, sql } from './database.cjs';

export class QuotaLedger {
	constructor(private readonly db: Db) {}

	/** Creations by the key after `sinceMs`, oldest first. */
	usageSince(keyId: string, sinceMs: number): { at: number; count: number }[] {
		return sql(
			this.db,
			'SELECT at_ms AS at, count FROM inbox_quota WHERE key_id = ? AND at_ms > ? ORDER BY at_ms',
		).all(keyId, sinceMs) as { at: number; count: number }[];
	}

	record(keyId: string, atMs: number, count: number): void {
		sql(this.db, 'INSERT INTO inbox_quota (key_id, at_ms, count) VALUES (?, ?, ?)').run(
			keyId,
			atMs,
			count,
		);
	}
}
