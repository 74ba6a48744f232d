import { AdminClient } from '../../mock-server/src/api/admin-client.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';

/*
 * One server shared by tests running side by side, each with its own account: faults, checks and
 * resets scoped to an account never reach another test's requests.
 */
describe('per-account isolation on one server', () => {
	let server: TestServer;
	let client: AdminClient;
	const SEARCH = { niche: 'dentist', city: 'Austin, TX', count: 2 };
	const search = (key: string, body: object = SEARCH) =>
		server.call('POST', '/api/v1/niche-finder-leads', { key, body });

	beforeAll(async () => {
		server = await startServer({ log: false });
		client = new AdminClient(server.url, server.adminToken);
	});
	afterAll(() => server.close());

	it('answers a new account with the id of its key, as the journal and faults name it', async () => {
		const created = await server.admin('POST', '/accounts', {});
		expect(created.body).toEqual({
			accountId: expect.stringMatching(/^acc_/),
			apiKey: expect.any(String),
			keyId: expect.stringMatching(/^key_/),
		});
		const keys = await server.admin('GET', `/accounts/${created.body.accountId}/keys`);
		expect(keys.body.keys.map((k: { id: string }) => k.id)).toEqual([created.body.keyId]);
	});

	it("faults one account's requests only: another account's identical request succeeds", async () => {
		const a = await server.newAccount();
		const b = await server.newAccount();
		const armed = await server.admin('POST', '/faults', {
			route: 'POST /api/v1/niche-finder-leads',
			accountId: a.accountId,
			status: 503,
			times: 5,
		});
		expect(armed.status).toBe(200);
		expect((await search(b.apiKey)).status).toBe(200);
		expect((await search(a.apiKey)).status).toBe(503);
		// The faulted request keeps its caller and its body in the journal.
		const [faulted] = await client.requests.list({ accountId: a.accountId });
		expect(faulted).toMatchObject({ status: 503, keyId: expect.any(String), body: SEARCH });
		await server.admin('DELETE', `/faults?accountId=${a.accountId}`);
		expect((await search(a.apiKey, { ...SEARCH, niche: 'plumber' })).status).toBe(200);
	});

	it('scopes a fault to one key, and a storage fault to one account', async () => {
		const account = await server.newAccount();
		const other = await client.accounts.create();
		const second = await server.admin('POST', `/accounts/${account.accountId}/keys`, {});
		expect(second.body.keyId).toMatch(/^key_/);
		await client.faults.arm({ route: 'GET /api/v1/pools', keyId: second.body.keyId, status: 500 });
		expect((await server.call('GET', '/api/v1/pools', { key: account.apiKey })).status).toBe(200);
		expect((await server.call('GET', '/api/v1/pools', { key: second.body.apiKey })).status).toBe(
			500,
		);
		await client.faults.arm({ target: 'leads.save', accountId: account.accountId });
		expect((await search(other.apiKey)).status).toBe(200);
		expect((await search(account.apiKey)).status).toBe(500);
		expect((await client.accounts.get(account.accountId)).credits).toBe(1000);
	});

	it('faults one request of a walk by its query, such as the second page of a Return All', async () => {
		const { accountId, apiKey } = await server.newAccount();
		await server.fillInboxes(apiKey, 5, 'walk');
		await client.faults.arm({
			route: 'GET /api/v1/inboxes',
			accountId,
			match: { query: { skip: '2' } },
			status: 502,
		});
		const page = (skip: number) =>
			server.call('GET', `/api/v1/inboxes?limit=2&skip=${skip}`, { key: apiKey });
		expect((await page(0)).status).toBe(200);
		expect((await page(2)).status).toBe(502);
		expect((await page(2)).status).toBe(200);
		// And by the body: only the entry for this address.
		await client.faults.arm({
			route: 'POST /api/v1/inboxes',
			accountId,
			match: { body: [{ emailAddress: 'doomed@gmail.com' }] },
			status: 503,
		});
		const create = (emailAddress: string) =>
			server.call('POST', '/api/v1/inboxes', {
				key: apiKey,
				body: [{ emailAddress, imapPassword: 'pw', skipConnectionTest: true }],
			});
		expect((await create('fine@gmail.com')).status).toBe(200);
		expect((await create('doomed@gmail.com')).status).toBe(503);
	});

	it('fires a fault with its probability, using a use only when it fires', async () => {
		const { accountId, apiKey } = await server.newAccount();
		await client.faults.arm({
			route: 'GET /api/v1/pools',
			accountId,
			status: 503,
			probability: 0.5,
			times: 1000,
		});
		let faulted = 0;
		for (let i = 0; i < 200; i++)
			if ((await server.call('GET', '/api/v1/pools', { key: apiKey })).status === 503) faulted++;
		// Binomial(200, 0.5): outside 60..140 once in about 10^8 runs.
		expect(faulted).toBeGreaterThan(60);
		expect(faulted).toBeLessThan(140);
		const [left] = (await client.faults.list()).routes.filter(
			(f) => 'accountId' in f && f.accountId === accountId,
		);
		expect(left.times).toBe(1000 - faulted);
		await client.faults.clear(accountId);
	});

	it('counts and filters the journal by account, key, query and body', async () => {
		const { accountId, apiKey, keyId } = await client.accounts.create();
		const other = await client.accounts.create();
		await search(apiKey);
		await search(apiKey, { ...SEARCH, niche: 'plumber' });
		await search(other.apiKey);
		const count = (filter: object) => client.requests.count(filter);
		expect(await count({ accountId })).toBe(2);
		expect(await count({ keyId })).toBe(2);
		expect(await count({ accountId, body: { niche: 'plumber' } })).toBe(1);
		expect(await count({ accountId, bodyContains: '"dentist"' })).toBe(1);
		expect(await count({ accountId: other.accountId, body: SEARCH })).toBe(1);
		const raw = await server.admin(
			'GET',
			`/requests/count?accountId=${accountId}&body=${encodeURIComponent('{"count":2}')}`,
		);
		expect(raw.body).toEqual({ count: 2 });
		const bad = await server.admin('GET', '/requests/count?body=%7Bnot-json');
		expect(bad.status).toBe(400);
		expect(JSON.stringify(bad.body)).toMatch(/body/);
		await server.call('GET', '/api/v1/inboxes?limit=7', { key: apiKey });
		expect(await count({ accountId, query: { limit: '7' } })).toBe(1);
	});

	it('verifies calls with a failure that says what was expected, what came, and the nearest request', async () => {
		const { accountId, apiKey } = await client.accounts.create();
		await search(apiKey);
		await client.requests.verify({ accountId, path: '/api/v1/niche-finder-leads', body: SEARCH });
		await expect(
			client.requests.verify(
				{ accountId, path: '/api/v1/niche-finder-leads', body: { niche: 'roofer' } },
				{ times: 1 },
			),
		).rejects.toThrow(
			/^Expected exactly 1 request\(s\) matching .*"roofer".*, but 0 matched\. The nearest recorded request: POST \/api\/v1\/niche-finder-leads \{\} -> 200 \(account acc_\w+, body \{"niche":"dentist","city":"Austin, TX","count":2\}\)$/,
		);
	});

	it('waits on the live events for a request made later, and says what came when it times out', async () => {
		const { accountId, apiKey } = await client.accounts.create();
		const waiting = client.requests.waitFor(
			{ accountId, path: '/api/v1/pools' },
			{ timeoutMs: 20_000 },
		);
		// Sent while the wait runs: before it subscribes, the wait's first count finds it; after, the stream does.
		setTimeout(() => void server.call('GET', '/api/v1/pools', { key: apiKey }), 50);
		expect((await waiting).map((r) => r.path)).toEqual(['/api/v1/pools']);
		await expect(
			client.requests.waitFor({ accountId, path: '/api/v1/inboxes' }, { timeoutMs: 300 }),
		).rejects.toThrow(/^Expected at least 1 within 300 ms request\(s\) matching .*but 0 matched/);
	});

	it('puts one account back as created, its keys kept, another account untouched', async () => {
		const a = await client.accounts.create({ credits: 300 });
		const b = await client.accounts.create({ credits: 300 });
		for (const account of [a, b]) {
			await search(account.apiKey);
			await server.fillInboxes(account.apiKey, 3, `reset-${account.accountId}`);
		}
		await client.faults.arm({ route: 'GET /api/v1/pools', accountId: a.accountId, status: 500 });
		expect((await client.accounts.get(a.accountId)).credits).toBe(298);

		const after = await client.accounts.reset(a.accountId);
		expect(after).toMatchObject({ credits: 300, contactCount: 0 });
		// The same key works, with an empty account, its hour's quota whole and no fault left.
		const pools = await server.call('GET', '/api/v1/pools', { key: a.apiKey });
		expect([pools.status, pools.body.pools]).toEqual([200, []]);
		const keys = (await server.admin('GET', `/accounts/${a.accountId}/keys`)).body.keys;
		expect(keys[0].hourlyWindow).toMatchObject({ used: 0, remaining: 1000 });
		expect((await search(a.apiKey)).body.contacts).toHaveLength(2);
		// The ledger says what happened: the charge, then the balance set back to the grant.
		const ledger = (await server.admin('GET', `/accounts/${a.accountId}/ledger`)).body.entries;
		expect(ledger.map((e: { kind: string; balance: number }) => [e.kind, e.balance])).toEqual([
			['grant', 300],
			['charge', 298],
			['set', 300],
			['charge', 298],
		]);
		// Its journal holds only what came after the reset; the other account is as it was.
		expect(await client.requests.count({ accountId: a.accountId })).toBe(2);
		expect(await client.accounts.get(b.accountId)).toMatchObject({ credits: 298, contactCount: 2 });
		const bPools = await server.call('GET', '/api/v1/pools', { key: b.apiKey });
		expect(bPools.body.pools[0].inboxCount).toBe(3);
		expect((await server.admin('POST', '/accounts/acc_nobody/reset')).status).toBe(404);
	});
});
