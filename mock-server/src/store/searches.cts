/**
 * The lead searches that saved contacts, one row each, written in the transaction that saved them
 * and charged for them: what was asked, what the walk found, what was added and charged. A search
 * that failed changed nothing and is not here (the request journal has it).
 */
import type { LeadSearchRequest } from '../contract/leads.cjs';
import type { Clock } from '../core/clock.cjs';
import { type Db, scalar, sql } from './database.cjs';

export interface SearchRecord {
	id: string;
	accountId: string;
	at: string;
	/** The request as sent: niche, city, count and the filters given (kept as JSON: those not given are left out). */
	request: LeadSearchRequest;
	/** Businesses the walk took (matching every filter), before dedup. */
	found: number;
	/** Contacts added and charged. */
	charged: number;
	/** Found but already held by the account, or twice in the walk: not added, not charged. */
	duplicates: number;
	/** Reserved up front and given back: count - charged. */
	refunded: number;
	durationMs: number;
}

interface SearchRow {
	id: string;
	account_id: string;
	at: string;
	request: string;
	found: number;
	charged: number;
	duration_ms: number;
}

const recordOf = (row: SearchRow): SearchRecord => {
	const request = JSON.parse(row.request) as SearchRecord['request'];
	return {
		id: row.id,
		accountId: row.account_id,
		at: row.at,
		request,
		found: row.found,
		charged: row.charged,
		duplicates: row.found - row.charged,
		refunded: request.count - row.charged,
		durationMs: row.duration_ms,
	};
};

export class Searches {
	constructor(
		private readonly db: Db,
		private readonly clock: Clock,
	) {}

	/** Call inside the transaction that saves the search's contacts. */
	add(
		search: Pick<SearchRecord, 'id' | 'accountId' | 'request' | 'found' | 'charged' | 'durationMs'>,
	): void {
		sql(
			this.db,
			'INSERT INTO searches (id, account_id, at, request, found, charged, duration_ms) VALUES (?, ?, ?, ?, ?, ?, ?)',
		).run(
			search.id,
			search.accountId,
			this.clock.nowIso(),
			JSON.stringify(search.request),
			search.found,
			search.charged,
			Math.round(search.durationMs),
		);
	}

	/** Newest first, `limit` from `skip`, of one account or all; and how many there are. */
	list(filter: { accountId?: string; limit: number; skip: number }): {
		searches: SearchRecord[];
		total: number;
	} {
		const where = filter.accountId === undefined ? '' : 'WHERE account_id = ?';
		const params = filter.accountId === undefined ? [] : [filter.accountId];
		const rows = sql(
			this.db,
			`SELECT id, account_id, at, request, found, charged, duration_ms FROM searches ${where} ORDER BY at DESC, id DESC LIMIT ? OFFSET ?`,
		).all(...params, filter.limit, filter.skip) as unknown as SearchRow[];
		return {
			searches: rows.map(recordOf),
			total: scalar(this.db, `SELECT COUNT(*) FROM searches ${where}`, ...params) as number,
		};
	}
}
