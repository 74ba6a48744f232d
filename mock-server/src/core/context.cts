import type { Accounts } from '../accounts/accounts.cjs';
import type { Faults } from '../admin/faults.cjs';
import type { RequestJournal } from '../admin/journal.cjs';
import type { Clock } from './clock.cjs';
import type { ServerConfig } from './config.cjs';
import type { Logger } from './logger.cjs';
import type { Secrets } from './secrets.cjs';
import type { Db } from '../store/database.cjs';

/** What every route and rule may use; built once in app.ts. */
export interface Context {
	config: ServerConfig;
	db: Db;
	clock: Clock;
	logger: Logger;
	secrets: Secrets;
	accounts: Accounts;
	faults: Faults;
	journal: RequestJournal;
}
