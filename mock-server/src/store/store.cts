/**
 * The embedded store: one SQLite database and the repositories over it. All SQL of the server is
 * in this folder; the rules elsewhere call these repositories and `transaction`.
 */
import type { Clock } from '../core/clock.cjs';
import type { Secrets } from '../core/secrets.cjs';
import { Accounts } from './accounts.cjs';
import { Contacts } from './contacts.cjs';
import { type Db, scalar, sql } from './database.cjs';
import { Inboxes } from './inboxes.cjs';
import { QuotaLedger } from './quota.cjs';
import { Searches } from './searches.cjs';

/** Tables in the order their rows may be deleted (children before parents). */
const TABLES = [
	'inbox_quota',
	'inboxes',
	'pools',
	'contacts',
	'ledger',
	'searches',
	'api_keys',
	'accounts',
];

export class Store {
	readonly accounts: Accounts;
	readonly contacts: Contacts;
	readonly inboxes: Inboxes;
	readonly quota: QuotaLedger;
	readonly searches: Searches;

	constructor(
		/** The database itself: for tests that read rows the API does not show. */
		readonly db: Db,
		clock: Clock,
		secrets: Secrets,
	) {
		this.accounts = new Accounts(db, clock);
		this.contacts = new Contacts(db, clock);
		this.inboxes = new Inboxes(db, clock, secrets);
		this.quota = new QuotaLedger(db);
		this.searches = new Searches(db, clock);
	}

	/** Runs `work` in one transaction: all of its writes are kept, or none when it throws. */
	transaction<T>(work: () => T): T {
		return this.db.transaction(work);
	}

	/**
	 * Puts one account back as it was created: its contacts, pools, inboxes and the hourly windows
	 * of its keys gone, its credits set back to what it was granted (the ledger records that as a
	 * `set`, so the ledger and searches, its history, stay whole). Keys and permissions are kept.
	 * Answers the credits it now has.
	 */
	resetAccount(accountId: string): number {
		return this.transaction(() => {
			const granted = Number(
				scalar(
					this.db,
					"SELECT delta FROM ledger WHERE account_id = ? AND kind IN ('grant', 'opening') ORDER BY seq LIMIT 1",
					accountId,
				) ?? 0,
			);
			sql(
				this.db,
				'DELETE FROM inbox_quota WHERE key_id IN (SELECT id FROM api_keys WHERE account_id = ?)',
			).run(accountId);
			for (const table of ['inboxes', 'pools', 'contacts'])
				sql(this.db, `DELETE FROM ${table} WHERE account_id = ?`).run(accountId);
			this.accounts.update(accountId, { credits: granted });
			return granted;
		});
	}

	/** Deletes every row (the admin reset); the schema stays. */
	clear(): void {
		this.transaction(() => {
			for (const table of TABLES) this.db.exec(`DELETE FROM ${table}`);
		});
		this.accounts.invalidate();
	}

	get open(): boolean {
		return this.db.open;
	}

	close(): void {
		if (this.db.open) this.db.close();
	}
}
