import type { Accounts } from '../accounts/accounts';
import type { Faults } from '../admin/faults';
import type { Clock } from './clock';
import type { ServerConfig } from './config';
import type { Logger } from './logger';
import type { Secrets } from './secrets';
import type { Db } from '../store/database';

/** What every route and rule may use; built once in app.ts. */
export interface Context {
	config: ServerConfig;
	db: Db;
	clock: Clock;
	logger: Logger;
	secrets: Secrets;
	accounts: Accounts;
	faults: Faults;
}
