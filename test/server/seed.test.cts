import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../helpers/server.cjs';
import { withTempDir } from '../helpers/temp-dir.cjs';

const SEED = join(__dirname, '../../examples/seed.json');
const KEY = 'lik_ci_demo_key_0001';

/** Starting the server in a known state: the example seed file of the docs. */
describe('seed files', () => {
	it('starts with the seeded accounts, keys, pools, inboxes (with status) and contacts', async () => {
		const server = await startServer({ log: false, seed: SEED });
		try {
			const pools = await server.call('GET', '/api/v1/pools', { key: KEY });
			expect(pools.body.pools.map((p: any) => [p.name, p.inboxCount])).toEqual([
				['Warm-up', 2],
				['Retired', 1],
			]);
			const inboxes = await server.call('GET', '/api/v1/inboxes', { key: KEY });
			expect(
				inboxes.body.inboxes.map((i: any) => [i.emailAddress, i.status, i.dailySendingLimit]),
			).toEqual([
				['sales@gmail.com', 'active', 30],
				['outreach@yahoo.com', 'paused', 2],
				['old.team@outlook.com', 'deactivated', 2],
			]);
			expect(
				(await server.call('GET', '/api/v1/pools', { key: 'lik_ci_inactive_key_0002' })).status,
			).toBe(401);
			const accounts = (await server.admin('GET', '/accounts')).body.accounts;
			const demo = accounts.find((a: any) => a.credits === 500);
			expect(demo).toMatchObject({ active: true, contactCount: 1, dev: false });
			// A seeded contact counts for dedup like any other.
			const contacts = (await server.admin('GET', `/accounts/${demo.id}/contacts`)).body.contacts;
			expect(contacts[0]).toMatchObject({
				businessName: 'Bright Smile Dental',
				emails: ['info@bright-smile-dental.test'],
				fbPixel: null,
			});
		} finally {
			await server.close();
		}
	});

	it('is idempotent on restart with a file database, and is applied again on reset', async () => {
		await withTempDir('lead-inbox-seed-', async (dir) => {
			const db = join(dir, 'data.sqlite');
			const first = await startServer({ log: false, seed: SEED, db });
			await first.call('POST', '/api/v1/niche-finder-leads', {
				key: KEY,
				body: { niche: 'dentist', city: 'Austin, TX', count: 3 },
			});
			await first.close();
			const second = await startServer({ log: false, seed: SEED, db });
			try {
				const demo = (await second.admin('GET', '/accounts')).body.accounts.find(
					(a: any) => !a.dev && a.active,
				);
				expect(demo).toMatchObject({ credits: 497, contactCount: 4 });
				expect(
					(await second.call('GET', '/api/v1/inboxes', { key: KEY })).body.pagination.total,
				).toBe(3);
				await second.admin('POST', '/reset');
				const again = (await second.admin('GET', '/accounts')).body.accounts.find(
					(a: any) => !a.dev && a.active,
				);
				expect(again).toMatchObject({ credits: 500, contactCount: 1 });
			} finally {
				await second.close();
			}
		});
	});

	it('applies the same body through POST /__admin/seed, and names the bad path of an invalid one', async () => {
		const server = await startServer({ log: false });
		try {
			const seed = {
				accounts: [
					{
						apiKey: 'lik_posted_seed_0001',
						pools: [{ name: 'P', inboxes: [{ emailAddress: 'a@gmail.com' }] }],
					},
				],
			};
			const applied = await server.admin('POST', '/seed', seed);
			expect(applied.body.accounts).toEqual([{ accountId: expect.any(String), created: true }]);
			expect((await server.admin('POST', '/seed', seed)).body.accounts[0].created).toBe(false);
			expect(
				(await server.call('GET', '/api/v1/inboxes', { key: 'lik_posted_seed_0001' })).body
					.pagination.total,
			).toBe(1);

			const bad = await server.admin('POST', '/seed', {
				accounts: [
					{
						apiKey: 'lik_ok_key_00000001',
						pools: [{ name: 'P', inboxes: [{ emailAddress: 'x@gmail.com', status: 'sleeping' }] }],
					},
				],
			});
			expect(bad.status).toBe(400);
			expect(bad.body.details[0].path).toBe('accounts.0.pools.0.inboxes.0.status');
			const undetectable = await server.admin('POST', '/seed', {
				accounts: [
					{
						apiKey: 'lik_ok_key_00000002',
						pools: [{ name: 'P', inboxes: [{ emailAddress: 'x@custom-domain.com' }] }],
					},
				],
			});
			expect(undetectable.body.error).toMatch(
				/^Invalid seed: accounts\.0\.pools\.0\.inboxes\.0: Cannot detect the mail provider/,
			);
		} finally {
			await server.close();
		}
	});

	it('refuses to start from an invalid seed file, naming the file and the path', async () => {
		await withTempDir('lead-inbox-badseed-', async (dir) => {
			const file = join(dir, 'seed.json');
			writeFileSync(file, JSON.stringify({ accounts: [{ apiKey: 'short' }] }));
			await expect(startServer({ log: false, seed: file })).rejects.toThrow(
				`${file}: Invalid seed file: accounts.0.apiKey must be 16 to 200 letters, digits, "_" or "-"`,
			);
			copyFileSync(SEED, file);
			const server = await startServer({ log: false, seed: file });
			await server.close();
		});
	});

	it('reads a seed file that starts with a UTF-8 byte order mark', async () => {
		await withTempDir('lead-inbox-bomseed-', async (dir) => {
			const file = join(dir, 'seed.json');
			writeFileSync(
				file,
				'\uFEFF' + JSON.stringify({ accounts: [{ apiKey: 'lik_bom_seed_key_0001' }] }),
			);
			const server = await startServer({ log: false, seed: file });
			try {
				expect(
					(await server.call('GET', '/api/v1/pools', { key: 'lik_bom_seed_key_0001' })).status,
				).toBe(200);
			} finally {
				await server.close();
			}
		});
	});

	it('refuses entries it would otherwise merge without a word, naming both places', async () => {
		const server = await startServer({ log: false });
		try {
			const sameKey = await server.admin('POST', '/seed', {
				accounts: [{ apiKey: 'lik_twice_key_000001' }, { apiKey: 'lik_twice_key_000001' }],
			});
			expect(sameKey.status).toBe(400);
			expect(sameKey.body.details[0]).toEqual({
				path: 'accounts.1.apiKey',
				message: expect.stringMatching(
					/same key as accounts\.0\.apiKey; give each account its own key/,
				),
			});
			const sharedEmail = await server.admin('POST', '/seed', {
				accounts: [
					{
						apiKey: 'lik_shared_email_0001',
						contacts: Array.from({ length: 3 }, (_, i) => ({
							businessName: `B${i}`,
							email: ' Info@Same.test ',
						})),
					},
				],
			});
			expect(sharedEmail.status).toBe(400);
			expect(sharedEmail.body.details.map((d: any) => d.path)).toEqual([
				'accounts.0.contacts.1.email',
				'accounts.0.contacts.2.email',
			]);
			expect(sharedEmail.body.details[0].message).toMatch(
				/same email as accounts\.0\.contacts\.0\.email; contacts are deduplicated by email/,
			);
			const sameInbox = await server.admin('POST', '/seed', {
				accounts: [
					{
						apiKey: 'lik_same_inbox_00001',
						pools: [
							{ name: 'A', inboxes: [{ emailAddress: 'x@gmail.com' }] },
							{ name: 'B', inboxes: [{ emailAddress: 'X@gmail.com' }] },
						],
					},
				],
			});
			expect(sameInbox.body.details[0].path).toBe('accounts.0.pools.1.inboxes.0.emailAddress');
			const devKey = await server.admin('POST', '/seed', { accounts: [{ apiKey: server.devKey }] });
			expect(devKey.status).toBe(400);
			expect(devKey.body.error).toMatch(
				/accounts\.0\.apiKey is the dev account's key \(--dev-key, MOCK_DEV_KEY\)/,
			);
			// Nothing of a refused seed is applied.
			expect(
				(await server.call('GET', '/api/v1/pools', { key: 'lik_same_inbox_00001' })).status,
			).toBe(401);
		} finally {
			await server.close();
		}
	});
});
