import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseConfig } from '../../mock-server/src/core/config.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';
import { withTempDir } from '../helpers/temp-dir.cjs';

describe('reference server foundation', () => {
	let server: TestServer;
	beforeAll(async () => {
		server = await startServer();
	});
	afterAll(() => server.close());

	describe('authentication', () => {
		it('rejects a missing key with 401, WWW-Authenticate and the error body', async () => {
			const res = await server.call('GET', '/api/v1/pools', { key: null });
			expect(res.status).toBe(401);
			expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
			expect(res.body).toEqual({ error: expect.stringContaining('Authorization: Bearer') });
		});

		it('treats a malformed Authorization header as 401, not 400', async () => {
			for (const header of ['Basic abc', 'Bearer', 'Bearer a b', 'token']) {
				const res = await server.call('GET', '/api/v1/pools', {
					key: null,
					headers: { authorization: header },
				});
				expect(res.status).toBe(401);
				expect(res.body.error).toMatch(/Malformed|Missing/);
			}
		});

		it('rejects an unknown key and a key of an inactive account with 401', async () => {
			expect((await server.call('GET', '/api/v1/pools', { key: 'lik_nope' })).status).toBe(401);
			const { accountId, apiKey } = await server.newAccount({ active: false });
			const res = await server.call('GET', '/api/v1/pools', { key: apiKey });
			expect(res.status).toBe(401);
			expect(res.body.error).toMatch(/active subscription/);
			await server.admin('PATCH', `/accounts/${accountId}`, { active: true });
			expect((await server.call('GET', '/api/v1/pools', { key: apiKey })).status).toBe(200);
		});

		it('answers 403 for a valid key without the permission', async () => {
			const { accountId } = await server.newAccount({ permissions: ['pools:read'] });
			const key = (
				await server.admin('POST', `/accounts/${accountId}/keys`, { permissions: ['inboxes:read'] })
			).body.apiKey;
			expect((await server.call('GET', '/api/v1/pools', { key })).status).toBe(403);
			const res = await server.call('GET', '/api/v1/inboxes', { key });
			expect(res.status).toBe(200);
			const write = await server.call('POST', '/api/v1/inboxes', {
				key,
				body: { emailAddress: 'a@gmail.com', imapPassword: 'x' },
			});
			expect(write.status).toBe(403);
			expect(write.body.error).toContain("'inboxes:write'");
		});
	});

	describe('error bodies', () => {
		it('404 for unknown routes and 405 with Allow for a wrong method', async () => {
			const missing = await server.call('GET', '/api/v2/nothing');
			expect(missing.status).toBe(404);
			expect(missing.body.error).toContain('/api/v2/nothing');
			const wrong = await server.call('PUT', '/api/v1/pools');
			expect(wrong.status).toBe(405);
			expect(wrong.headers.get('allow')).toBe('GET');
			expect(wrong.body).toEqual({ error: expect.any(String) });
		});

		it('415 for a non-JSON content type, 400 for malformed JSON, 413 above 1 MiB', async () => {
			const text = await server.call('POST', '/api/v1/inboxes', {
				rawBody: 'hello',
				headers: { 'content-type': 'text/plain' },
			});
			expect(text.status).toBe(415);
			expect(text.body.error).toContain('application/json');
			const form = await server.call('POST', '/api/v1/niche-finder-leads', {
				rawBody: 'a=b',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
			});
			expect(form.status).toBe(415);
			const bad = await server.call('POST', '/api/v1/inboxes', {
				rawBody: '{"emailAddress":',
				headers: { 'content-type': 'application/json' },
			});
			expect(bad.status).toBe(400);
			expect(bad.body.error).toMatch(/not valid JSON/);
			const big = await server.call('POST', '/api/v1/inboxes', {
				rawBody: JSON.stringify({ x: 'a'.repeat(1024 * 1024 + 10) }),
				headers: { 'content-type': 'application/json' },
			});
			expect(big.status).toBe(413);
			expect(big.body.error).toMatch(/1 MiB/);
		});

		it('refuses a deeply nested body with a 400 on every JSON operation, and keeps answering', async () => {
			const deep = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
			const operations: [string, string, 'admin' | 'api'][] = [
				['POST', '/api/v1/niche-finder-leads', 'api'],
				['POST', '/api/v1/inboxes', 'api'],
				['POST', '/accounts', 'admin'],
				['POST', '/seed', 'admin'],
				['POST', '/faults', 'admin'],
			];
			for (const [method, path, kind] of operations) {
				const headers = { 'content-type': 'application/json' };
				const res =
					kind === 'api'
						? await server.call(method, path, { rawBody: deep(5000), headers })
						: await server.call(method, `/__admin${path}`, {
								rawBody: deep(5000),
								headers: { ...headers, authorization: `Bearer ${server.adminToken}` },
							});
				expect({ path, status: res.status }).toEqual({ path, status: 400 });
				expect(res.body.error).toMatch(/deeper than 64 levels/);
			}
			// A body at the limit is judged by its schema as usual, and the journal still lists.
			const flat = await server.call('POST', '/api/v1/niche-finder-leads', {
				rawBody: `{"niche":${deep(60)}}`,
				headers: { 'content-type': 'application/json' },
			});
			expect(flat.status).toBe(400);
			expect(flat.body.error).toMatch(/niche must be a string/);
			expect((await server.admin('GET', '/requests')).status).toBe(200);
		});

		it('names unknown fields and suggests the closest known one', async () => {
			const res = await server.admin('POST', '/accounts', { credit: 5 });
			expect(res.status).toBe(400);
			expect(res.body.details).toEqual([
				{ path: 'credit', message: expect.stringContaining("Did you mean 'credits'?") },
			]);
		});
	});

	describe('admin API', () => {
		it('requires the admin token', async () => {
			expect((await server.call('POST', '/__admin/accounts', { key: null, body: {} })).status).toBe(
				401,
			);
			expect(
				(await server.call('POST', '/__admin/accounts', { key: server.devKey, body: {} })).status,
			).toBe(401);
		});

		it('accepts calls whose fields all have defaults without a body', async () => {
			const res = await fetch(`${server.url}/__admin/accounts`, {
				method: 'POST',
				headers: {
					authorization: `Bearer ${server.adminToken}`,
					'content-type': 'application/json',
				},
			});
			expect(res.status).toBe(201);
			const { accountId } = (await res.json()) as { accountId: string };
			const key = await fetch(`${server.url}/__admin/accounts/${accountId}/keys`, {
				method: 'POST',
				headers: { authorization: `Bearer ${server.adminToken}` },
			});
			expect(key.status).toBe(201);
			// an API call that needs a body still says so
			const leads = await server.call('POST', '/api/v1/niche-finder-leads', {
				headers: { 'content-type': 'application/json' },
				rawBody: '',
			});
			expect(leads.status).toBe(400);
			expect(leads.body.error).toMatch(/needs a JSON body/);
		});

		it("pages an account's contacts in the order they were added", async () => {
			const { apiKey, accountId } = await server.newAccount({ credits: 100 });
			const found = await server.call('POST', '/api/v1/niche-finder-leads', {
				key: apiKey,
				body: { niche: 'florist', city: 'Denver', count: 25 },
			});
			const names = found.body.contacts.map((c: any) => c.businessName);
			const page = async (query: string) =>
				(await server.admin('GET', `/accounts/${accountId}/contacts${query}`)).body;
			const first = await page('?limit=10');
			expect(first.pagination).toEqual({ total: 25, limit: 10, skip: 0, hasMore: true });
			const last = await page('?limit=10&skip=20');
			expect(last.pagination).toEqual({ total: 25, limit: 10, skip: 20, hasMore: false });
			expect(
				[...first.contacts, ...(await page('?limit=10&skip=10')).contacts, ...last.contacts].map(
					(c: any) => c.businessName,
				),
			).toEqual(names);
			const bad = await server.admin('GET', `/accounts/${accountId}/contacts?limit=1001`);
			expect([bad.status, bad.body.details[0].path]).toEqual([400, 'limit']);
		});

		it('creates, reads and patches accounts and issues more keys', async () => {
			const created = await server.admin('POST', '/accounts', {});
			expect(created.status).toBe(201);
			expect(created.body).toEqual({
				accountId: expect.any(String),
				apiKey: expect.any(String),
				keyId: expect.any(String),
			});
			const account = await server.admin('GET', `/accounts/${created.body.accountId}`);
			expect(account.body).toEqual({
				id: created.body.accountId,
				credits: 1000,
				active: true,
				permissions: ['pools:read', 'inboxes:read', 'inboxes:write'],
				contactCount: 0,
			});
			const patched = await server.admin('PATCH', `/accounts/${created.body.accountId}`, {
				credits: 7,
				active: false,
			});
			expect(patched.body).toMatchObject({ credits: 7, active: false });
			const key = await server.admin('POST', `/accounts/${created.body.accountId}/keys`, {});
			expect(key.status).toBe(201);
			expect(key.body.apiKey).not.toBe(created.body.apiKey);
			expect((await server.admin('GET', '/accounts/acc_missing')).status).toBe(404);
			expect(
				(await server.admin('GET', `/accounts/${created.body.accountId}/contacts`)).body,
			).toEqual({ contacts: [], pagination: { total: 0, limit: 1000, skip: 0, hasMore: false } });
			expect(
				(await server.admin('PATCH', `/accounts/${created.body.accountId}`, { credits: -1 }))
					.status,
			).toBe(400);
		});

		it('arms and clears faults, advances the clock, and resets to an empty state', async () => {
			expect(
				(await server.admin('POST', '/faults', { target: 'leads.save', times: 2 })).status,
			).toBe(200);
			expect((await server.admin('POST', '/faults', { target: 'nothing' })).status).toBe(400);
			expect((await server.admin('DELETE', '/faults')).status).toBe(200);

			// A body that asks nothing is refused, saying what to give.
			const empty = await server.admin('POST', '/clock', {});
			expect([empty.status, empty.body.error]).toEqual([
				400,
				'Invalid request body: Give now, advanceSeconds, frozen, or several.',
			]);
			// An instant without a time zone is no instant: refused, naming the field.
			const local = await server.admin('POST', '/clock', { now: '2027-03-01T09:00:00' });
			expect([local.status, local.body.error]).toEqual([400, expect.stringMatching(/now/)]);
			// Set to an instant (earlier than this machine's time too), the clock runs on from it.
			const set = await server.admin('POST', '/clock', { now: '2020-02-29T12:00:00Z' });
			expect(set.body.now.slice(0, 16)).toBe('2020-02-29T12:00');
			expect(new Date(server.clock.now()).toISOString().slice(0, 13)).toBe('2020-02-29T12');
			await server.admin('POST', '/reset');
			const before = server.clock.now();
			const moved = await server.admin('POST', '/clock', { advanceSeconds: 7200 });
			expect(moved.status).toBe(200);
			expect(Date.parse(moved.body.now) - before).toBeGreaterThanOrEqual(7200 * 1000);
			// createdAt timestamps follow the server clock
			const pool = await server.call('POST', '/api/v1/inboxes', {
				body: { emailAddress: 'clock@gmail.com', imapPassword: 'pw' },
			});
			const pools = await server.call('GET', '/api/v1/pools');
			const createdAt = pools.body.pools.find(
				(p: { id: string }) => p.id === pool.body.pool.id,
			).createdAt;
			expect(Date.parse(createdAt) - Date.now()).toBeGreaterThan(7000 * 1000);

			const { apiKey } = await server.newAccount();
			// Armed faults and a journal with requests in it, which the reset clears too.
			await server.admin('POST', '/faults', { target: 'leads.save', times: 2 });
			await server.admin('POST', '/faults', { route: 'GET /api/v1/pools', status: 503 });
			expect((await server.admin('GET', '/requests')).body.requests.length).toBeGreaterThan(0);
			expect((await server.admin('POST', '/reset')).status).toBe(200);
			expect((await server.admin('GET', '/faults')).body).toEqual({ storage: [], routes: [] });
			expect((await server.admin('GET', '/requests')).body.requests).toEqual([]);
			expect((await server.call('GET', '/api/v1/pools', { key: apiKey })).status).toBe(401);
			expect((await server.call('GET', '/api/v1/pools')).body).toEqual({ pools: [] });
			expect([server.clock.offsetSeconds, server.clock.frozen]).toEqual([0, false]);
		});
	});

	describe('OpenAPI and docs', () => {
		it('serves a valid OpenAPI 3.1 document', async () => {
			const res = await server.call('GET', '/openapi.json', { key: null });
			expect(res.status).toBe(200);
			expect(res.body.openapi).toBe('3.1.0');
			const result = JSON.parse(
				execFileSync(process.execPath, [join(__dirname, '../helpers/validate-openapi.mjs')], {
					input: JSON.stringify(res.body),
				}).toString(),
			);
			expect(result).toEqual({ valid: true, version: '3.1', errors: null });
			expect(Object.keys(res.body.paths)).toEqual(
				expect.arrayContaining([
					'/api/v1/niche-finder-leads',
					'/api/v1/pools',
					'/api/v1/inboxes',
					'/__admin/accounts',
				]),
			);
		});

		it('renders the docs page with the locally served renderer', async () => {
			const page = await fetch(`${server.url}/docs`);
			expect(page.headers.get('content-type')).toContain('text/html');
			const html = await page.text();
			expect(html).toContain('swagger-ui-bundle.js');
			const bundle = await fetch(`${server.url}/docs/swagger-ui-bundle.js`);
			expect(bundle.status).toBe(200);
			expect((await bundle.text()).length).toBeGreaterThan(100000);
			expect(await (await fetch(`${server.url}/docs/init.js`)).text()).toContain('/openapi.json');
		});
	});

	it('never writes keys, tokens or passwords into the logs', async () => {
		const { apiKey } = await server.newAccount();
		await server.call('GET', '/api/v1/pools', { key: apiKey });
		await server.call('GET', '/api/v1/pools', { key: 'lik_wrong-secret-key' });
		await server.call('POST', '/api/v1/inboxes', {
			key: apiKey,
			body: { emailAddress: 'log@gmail.com', imapPassword: 'Sup3rSecretPw!' },
		});
		await server.call('POST', '/api/v1/inboxes', {
			key: apiKey,
			body: { emailAddress: 'log2@gmail.com', imapPassword: 'invalidSecretPw!' },
		});
		const all = server.logs.join('\n');
		expect(server.logs.length).toBeGreaterThan(4);
		for (const secret of [
			apiKey,
			server.devKey,
			server.adminToken,
			'lik_wrong-secret-key',
			'Sup3rSecretPw!',
			'invalidSecretPw!',
		]) {
			expect(all).not.toContain(secret);
		}
	});
});

describe('persistence', () => {
	it('keeps accounts, keys and inboxes across a restart with a file database', async () => {
		await withTempDir('lead-inbox-', async (dir) => {
			const db = join(dir, 'data.sqlite');
			const first = await startServer({ db });
			const { accountId, apiKey } = await first.newAccount({ credits: 42 });
			await first.call('POST', '/api/v1/inboxes', {
				key: apiKey,
				body: { emailAddress: 'keep@gmail.com', imapPassword: 'pw' },
			});
			const devKey = first.devKey;
			const adminToken = first.adminToken;
			await first.close();

			const second = await startServer({ db });
			try {
				expect(second.devKey).toBe(devKey);
				expect(second.adminToken).toBe(adminToken);
				expect((await second.admin('GET', `/accounts/${accountId}`)).body.credits).toBe(42);
				const inboxes = await second.call('GET', '/api/v1/inboxes', { key: apiKey });
				expect(inboxes.body.inboxes.map((i: { emailAddress: string }) => i.emailAddress)).toEqual([
					'keep@gmail.com',
				]);
				expect((await second.call('GET', '/api/v1/pools')).status).toBe(200);
			} finally {
				await second.close();
			}
		});
	});
});

describe('options', () => {
	it('reads flags before environment variables and rejects bad values with a clear message', () => {
		const config = parseConfig(['--port', '5000'], {
			MOCK_PORT: '6000',
			MOCK_LATENCY: 'realistic',
		});
		expect(config).toMatchObject({
			port: 5000,
			latency: 'realistic',
			host: '127.0.0.1',
			connectionTest: 'simulated',
		});
		expect(() => parseConfig(['--latency', 'slow'], {})).toThrow(
			/--latency must be one of none, realistic/,
		);
		expect(() => parseConfig(['--prot', '1'], {})).toThrow(/--help/);
		expect(() => parseConfig([], { MOCK_PORT: 'abc' })).toThrow(
			'MOCK_PORT (environment) must be an integer from 0 to 65535 (0 picks a free port) (got "abc")',
		);
		expect(parseConfig([], { MOCK_SCAN_CONCURRENCY: '64' })).toMatchObject({ scanConcurrency: 64 });
		expect(parseConfig([], {})).toMatchObject({ scanConcurrency: 1024 });
		expect(() => parseConfig(['--scan-concurrency', '0'], {})).toThrow(
			'--scan-concurrency must be an integer from 1 to 8192 (got "0")',
		);
		expect(() => parseConfig(['--mail-ca', '/nonexistent/ca.pem'], {})).toThrow(
			/--mail-ca: no file at \/nonexistent\/ca.pem/,
		);
	});

	it('explains a negative number instead of calling it an ambiguous argument', () => {
		expect(() => parseConfig(['--port', '-1'], {})).toThrow(
			'--port must be an integer from 0 to 65535 (0 picks a free port) (got "-1")',
		);
		expect(() => parseConfig(['--journal-size', '-1'], {})).toThrow(
			'--journal-size must be an integer from 0 to 1000000 (got "-1")',
		);
	});

	it('refuses an admin token too short to guard the admin API, naming where it came from', () => {
		expect(() => parseConfig(['--admin-token', 'x'], {})).toThrow(
			/--admin-token must be at least 16 characters long/,
		);
		expect(() => parseConfig([], { MOCK_ADMIN_TOKEN: 'short' })).toThrow(
			/MOCK_ADMIN_TOKEN \(environment\) must be at least 16/,
		);
		expect(parseConfig(['--admin-token', 'a'.repeat(16)], {})).toMatchObject({
			adminToken: 'a'.repeat(16),
		});
	});

	it('checks at start that --mail-ca holds a readable PEM certificate', async () => {
		await withTempDir('mail-ca-', async (dir) => {
			const notPem = join(dir, 'ca.pem');
			writeFileSync(notPem, 'this is not a certificate');
			expect(() => parseConfig(['--mail-ca', notPem], {})).toThrow(
				/--mail-ca: .*ca\.pem holds no PEM certificate/,
			);
			const broken = join(dir, 'broken.pem');
			writeFileSync(broken, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
			expect(() => parseConfig(['--mail-ca', broken], {})).toThrow(
				/certificate 1 in .*broken\.pem cannot be read/,
			);
		});
	});

	it('reads the targets real connection tests may reach, and refuses a malformed one', () => {
		expect(
			parseConfig(['--connection-test-allow', 'localhost:3143, [::1]:3587,127.0.0.1:25'], {}),
		).toMatchObject({
			connectionTestAllow: [
				{ host: 'localhost', port: 3143 },
				{ host: '::1', port: 3587 },
				{ host: '127.0.0.1', port: 25 },
			],
		});
		expect(() => parseConfig([], { MOCK_CONNECTION_TEST_ALLOW: 'localhost' })).toThrow(
			'MOCK_CONNECTION_TEST_ALLOW (environment): "localhost" is not HOST:PORT',
		);
	});
});
