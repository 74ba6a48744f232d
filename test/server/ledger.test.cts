import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { MIGRATIONS } from '../../mock-server/src/store/migrations.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';
import { withTempDir } from '../helpers/temp-dir.cjs';

/*
 * The credit ledger and the search history (GET /__admin/accounts/{id}/ledger, GET
 * /__admin/searches): every change of a stored balance and every search that saved contacts,
 * written in the transaction that made it, so the history always adds up to the balance and the
 * contacts; a search that failed is in neither.
 */

const SEARCH = { niche: 'plumber', city: 'Denver, CO', count: 5 };

describe('the credit ledger and the search history', () => {
	let server: TestServer;
	beforeAll(async () => {
		server = await startServer();
	});
	afterAll(() => server.close());

	const ledgerOf = async (id: string) => (await server.admin('GET', `/accounts/${id}/ledger`)).body;
	const searchesOf = async (id: string) =>
		(await server.admin('GET', `/searches?accountId=${id}`)).body;
	const search = (key: string, body: object) =>
		server.call('POST', '/api/v1/niche-finder-leads', { key, body });

	it('records the grant, each charge with its search, a set balance; the deltas add up to the balance', async () => {
		const { accountId, apiKey } = await server.newAccount({ credits: 100 });
		const first = await search(apiKey, { ...SEARCH, metaAds: true });
		expect(first.status).toBe(200);
		const charged = first.body.chargedCredits as number;
		expect(charged).toBeGreaterThan(0);
		// The same search again: every business is a duplicate, nothing charged, nothing in the ledger.
		const again = await search(apiKey, { ...SEARCH, metaAds: true });
		expect(again.body.chargedCredits).toBe(0);
		await server.admin('PATCH', `/accounts/${accountId}`, { credits: 500 });

		const { entries, pagination } = await ledgerOf(accountId);
		const { searches } = await searchesOf(accountId);
		expect(entries).toEqual([
			{ at: expect.any(String), kind: 'grant', delta: 100, balance: 100 },
			{
				at: expect.any(String),
				kind: 'charge',
				delta: -charged,
				balance: 100 - charged,
				searchId: searches[1].id,
			},
			{ at: expect.any(String), kind: 'set', delta: 400 + charged, balance: 500 },
		]);
		expect(pagination).toEqual({ total: 3, limit: 1000, skip: 0, hasMore: false });
		const account = (await server.admin('GET', `/accounts/${accountId}`)).body;
		expect(entries.reduce((sum: number, e: { delta: number }) => sum + e.delta, 0)).toBe(
			account.credits,
		);

		// Newest first: what each asked, found, added, charged and gave back.
		expect(searches).toEqual([
			{
				id: expect.stringMatching(/^search_/),
				accountId,
				at: expect.any(String),
				request: { ...SEARCH, metaAds: true },
				found: charged,
				charged: 0,
				duplicates: charged,
				refunded: 5,
				durationMs: expect.any(Number),
			},
			{
				id: expect.stringMatching(/^search_/),
				accountId,
				at: expect.any(String),
				request: { ...SEARCH, metaAds: true },
				found: charged,
				charged,
				duplicates: 0,
				refunded: 5 - charged,
				durationMs: expect.any(Number),
			},
		]);
		expect(searches.reduce((sum: number, s: { charged: number }) => sum + s.charged, 0)).toBe(
			account.contactCount,
		);
	});

	it('keeps failed searches out of both: no credits (402), an unknown city (400), nothing found (404), a failed save (500)', async () => {
		const { accountId, apiKey } = await server.newAccount({ credits: 10 });
		expect((await search(apiKey, { ...SEARCH, count: 50 })).status).toBe(402);
		expect((await search(apiKey, { niche: 'plumber', city: 'Atlantis' })).status).toBe(400);
		expect(
			(await search(apiKey, { niche: 'submarine repair', city: 'Boise', count: 1 })).status,
		).toBe(404);
		await server.admin('POST', '/faults', { target: 'leads.save', times: 1 });
		expect((await search(apiKey, SEARCH)).status).toBe(500);
		expect((await ledgerOf(accountId)).entries.map((e: { kind: string }) => e.kind)).toEqual([
			'grant',
		]);
		expect((await searchesOf(accountId)).searches).toEqual([]);
	});

	it('pages the history and says which parameter is wrong', async () => {
		const { accountId, apiKey } = await server.newAccount({ credits: 100 });
		for (const city of ['Austin, TX', 'Boise', 'Denver, CO'])
			await search(apiKey, { ...SEARCH, city });
		const page = (await server.admin('GET', `/searches?accountId=${accountId}&limit=2&skip=1`))
			.body;
		expect([
			page.searches.map((s: { request: { city: string } }) => s.request.city),
			page.pagination,
		]).toEqual([['Boise', 'Austin, TX'], { total: 3, limit: 2, skip: 1, hasMore: false }]);
		const wrong = await server.admin('GET', `/accounts/${accountId}/ledger?limit=0`);
		expect([wrong.status, wrong.body.error]).toEqual([400, expect.stringContaining('limit')]);
		expect((await server.admin('GET', '/accounts/acc_nope/ledger')).status).toBe(404);
	});
});

describe('a database made before the ledger', () => {
	it('opens with an opening entry of each balance', () =>
		withTempDir('lead-inbox-ledger-', async (dir) => {
			const file = join(dir, 'old.sqlite');
			const old = new DatabaseSync(file);
			for (const migration of MIGRATIONS.slice(0, 2)) old.exec(migration);
			old.exec('PRAGMA user_version = 2');
			old
				.prepare(
					"INSERT INTO accounts (id, credits, active, permissions, is_dev, created_at) VALUES ('acc_old', 42, 1, '[]', 0, '2026-01-01T00:00:00.000Z')",
				)
				.run();
			old.close();
			const server = await startServer({ db: file });
			try {
				expect((await server.admin('GET', '/accounts/acc_old/ledger')).body.entries).toEqual([
					{ at: '2026-01-01T00:00:00.000Z', kind: 'opening', delta: 42, balance: 42 },
				]);
			} finally {
				await server.close();
			}
		}));
});
