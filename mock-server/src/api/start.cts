/**
 * The reference server started from a test or a script, in the calling process: a free port and
 * a database in memory by default, every command-line option available, closed with close().
 */
import { buildServer } from '../app.cjs';
import { AdminClient } from './admin-client.cjs';
import { configOf } from './config.cjs';
import type { MockServerOptions, SharedScans } from './options.cjs';

export interface MockServer {
	/** The server's root, e.g. http://127.0.0.1:53211 (also the lead search base URL). */
	url: string;
	/** Base URL of the lead search service (the credential's Leads Base URL). */
	leadsBaseUrl: string;
	/** Base URL of the inbox service, with /api/v1 (the credential's Inbox Base URL). */
	inboxBaseUrl: string;
	/** The dev account's API key (10,000 credits, every permission). */
	apiKey: string;
	/** The dev account's ID, for the admin API. */
	accountId: string;
	adminToken: string;
	/** A typed client of the admin API: accounts, seed, faults, requests, clock, inbox status, reset. */
	admin: AdminClient;
	/** Stops the server: in-flight requests finish, helper processes end, the database is closed. */
	close(): Promise<void>;
}

/**
 * Starts a server. `shared.scans`: a Map given to several servers started in this process, so a
 * website one of them scanned is not scanned again by the others (its flags are a function of its
 * address); the workflow test runner shares one between its test files' servers.
 */
export async function startMockServer(
	options: MockServerOptions = {},
	shared: { scans?: SharedScans } = {},
): Promise<MockServer> {
	const { config, seed } = configOf(options);
	const running = await buildServer(config, { seed, sharedScans: shared.scans }).listen();
	let closing: Promise<void> | undefined;
	return {
		url: running.url,
		leadsBaseUrl: running.url,
		inboxBaseUrl: `${running.url}/api/v1`,
		apiKey: running.devKey,
		accountId: running.devAccountId,
		adminToken: running.adminToken,
		admin: new AdminClient(running.url, running.adminToken),
		// A second close (afterAll after a test closed it) waits for the first.
		close: () => (closing ??= running.close()),
	};
}
