/**
 * The embedded store: one SQLite database and the repositories over it. All SQL of the server is
 * in this folder; the rules elsewhere call these repositories and `transaction`.
 */
import type { Clock } from '../core/clock.cjs';
import type { Secrets } from '../core/secrets.cjs';
import { Accounts } from './accounts.cjs';
import { Contacts } from './contacts.cjs';
import type { Db } from './database.cjs';
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
