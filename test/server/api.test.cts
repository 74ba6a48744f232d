import type { JournalEntry as ServerJournalEntry } from '../../mock-server/src/admin/journal.cjs';
import type {
	Account,
	FaultRoute,
	InboxAsListed,
	InboxStatus,
	JournalEntry,
	Permission,
} from '../../mock-server/src/api/admin-client.cjs';
import { startMockServer } from '../../mock-server/src/api/index.cjs';
import type { MockServerOptions } from '../../mock-server/src/api/options.cjs';
import type {
	FAULT_ROUTES,
	Permission as ServerPermission,
} from '../../mock-server/src/contract/admin.cjs';
import type { InboxStatus as ServerInboxStatus } from '../../mock-server/src/contract/inboxes.cjs';
import type { ServerConfig } from '../../mock-server/src/core/config.cjs';
import type { Account as StoreAccount } from '../../mock-server/src/store/accounts.cjs';
import type { InboxRow } from '../../mock-server/src/store/inboxes.cjs';

/*
 * The API's types are written out (its declarations must stand alone), so they are held to the
 * server's own here: `npm run typecheck` fails when either side changes without the other.
 */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const typesAgree: [
	Same<InboxAsListed, InboxRow>,
	Same<InboxStatus, ServerInboxStatus>,
	Same<Permission, ServerPermission>,
	Same<FaultRoute, (typeof FAULT_ROUTES)[number]>,
	Same<Account, StoreAccount>,
	Same<JournalEntry, ServerJournalEntry>,
	// Every command-line option is an in-process option of the same name, and no other.
	Same<keyof MockServerOptions, keyof ServerConfig>,
] = [true, true, true, true, true, true, true];
void typesAgree;

/** The in-process API from the sources (the packed one: e2e/mock-server-package.e2e.cts). */
// A real search in a test below (helper processes started, websites scanned): minutes on a busy
// 2-core machine.

describe('startMockServer', () => {
	it('refuses a wrong option by its name, before anything starts', async () => {
		await expect(startMockServer({ scanThreads: 99 })).rejects.toThrow(
			'option scanThreads must be an integer from 0 to 16 or auto (got "99")',
		);
		await expect(startMockServer({ adminToken: 'short' })).rejects.toThrow(/option adminToken/);
		await expect(startMockServer({ scanThread: 1 } as never)).rejects.toThrow(
			/Unknown option 'scanThread'/,
		);
		await expect(startMockServer({ seed: { accounts: [{ apiKey: 'short' }] } })).rejects.toThrow(
			/the seed option: Invalid seed: accounts\.0\.apiKey/,
		);
	});

	it('seeds from an object, and every admin call works through the typed client', async () => {
		const server = await startMockServer({
			seed: {
				accounts: [
					{
						apiKey: 'lik_api_test_key_0001',
						credits: 7,
						pools: [{ name: 'Warm-up', inboxes: [{ emailAddress: 'warm@gmail.com' }] }],
					},
				],
			},
		});
		try {
			expect(server.inboxBaseUrl).toBe(`${server.url}/api/v1`);
			expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			const { admin } = server;
			const accounts = await admin.accounts.list();
			const seeded = accounts.find((a) => a.credits === 7)!;
			expect(accounts[0]).toMatchObject({ id: server.accountId, dev: true });

			expect(await admin.setInboxStatus(seeded.id, 'warm@gmail.com', 'paused')).toMatchObject({
				emailAddress: 'warm@gmail.com',
				status: 'paused',
			});
			await expect(
				admin.setInboxStatus(seeded.id, 'none@gmail.com', 'error'),
			).rejects.toMatchObject({
				name: 'AdminApiError',
				status: 404,
			});

			const created = await admin.accounts.create({ credits: 3 });
			expect(await admin.accounts.update(created.accountId, { credits: 5 })).toMatchObject({
				credits: 5,
			});
			const key = await admin.accounts.addKey(created.accountId, ['pools:read']);
			const search = await fetch(`${server.leadsBaseUrl}/api/v1/niche-finder-leads`, {
				method: 'POST',
				headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
				body: JSON.stringify({ niche: 'florist', city: 'Boise', count: 2 }),
			});
			expect(search.status).toBe(200);
			expect(
				(await admin.accounts.contacts(created.accountId, { limit: 1 })).pagination,
			).toMatchObject({ total: 2, limit: 1, hasMore: true });
			expect((await admin.accounts.get(created.accountId)).credits).toBe(3);

			await admin.faults.arm({ route: 'GET /api/v1/inboxes', status: 503, times: 2 });
			expect((await admin.faults.list()).routes).toHaveLength(1);
			await admin.faults.clear();
			expect((await admin.faults.list()).routes).toEqual([]);
			expect(await admin.requests.list({ path: '/api/v1/niche-finder-leads' })).toHaveLength(1);
			await admin.requests.clear();
			expect(await admin.requests.list()).toEqual([]);
			expect((await admin.advanceClock(3600)).offsetSeconds).toBe(3600);
			// Frozen, the clock shows the same time until it is moved; thawed, it runs on from there.
			const frozen = await admin.freezeClock();
			expect(frozen.frozen).toBe(true);
			await admin.accounts.list();
			expect((await admin.advanceClock(0)).now).toBe(frozen.now);
			expect(Date.parse((await admin.advanceClock(60)).now) - Date.parse(frozen.now)).toBe(60_000);
			const thawed = await admin.freezeClock(false);
			expect(thawed.frozen).toBe(false);
			expect(Date.parse(thawed.now)).toBeGreaterThanOrEqual(Date.parse(frozen.now) + 60_000);
			expect(await admin.seed({ accounts: [{ apiKey: 'lik_api_test_key_0002' }] })).toEqual({
				accounts: [{ accountId: expect.any(String), created: true }],
			});

			// Reset applies the start seed again: the seeded account is back as it was; the clock
			// is this machine's again, and runs.
			await admin.freezeClock();
			await admin.reset();
			expect(await admin.advanceClock(0)).toMatchObject({ offsetSeconds: 0, frozen: false });
			const again = await admin.accounts.list();
			expect(again.map((a) => a.credits)).toEqual([10000, 7]);
		} finally {
			await server.close();
			await server.close(); // a second close is harmless
		}
	});
});
