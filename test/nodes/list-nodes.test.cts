import { searchPools } from '../../nodes/shared/pools';
import {
	applyGenericAuth,
	errorOf,
	loadWorkflow,
	outputOf,
	runWorkflow,
	stopEngineTimers,
	testCredential,
} from '../helpers/n8n.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';

describe('List Pools and List Inboxes nodes', () => {
	let server: TestServer;
	let key: string;
	const workflow = loadWorkflow('list-pools-and-inboxes.json');
	const credentials = (apiKey: string) => ({
		apiKey,
		leadsBaseUrl: server.url,
		inboxBaseUrl: `${server.url}/api/v1/`,
	});
	const inboxRequests = () => server.requestCount('GET', '/api/v1/inboxes');

	beforeAll(async () => {
		server = await startServer();
		const { accountId } = await server.newAccount();
		key = (await server.admin('POST', `/accounts/${accountId}/keys`, {})).body.apiKey;
		// 2,500 inboxes in 25 batches; each key may create 1000 per hour, so three keys share the work.
		const keys = [
			key,
			...(await Promise.all(
				[1, 2].map(
					async () => (await server.admin('POST', `/accounts/${accountId}/keys`, {})).body.apiKey,
				),
			)),
		];
		let poolId: string | undefined;
		for (let b = 0; b < 25; b++) {
			const body = Array.from({ length: 100 }, (_, i) => ({
				emailAddress: `box${b * 100 + i}@gmail.com`,
				imapPassword: 'pw',
				skipConnectionTest: true,
				...(poolId && b < 10 ? { poolId } : {}),
			}));
			const res = await server.call('POST', '/api/v1/inboxes', {
				key: keys[Math.floor(b / 10)],
				body,
			});
			expect(res.body.summary.created).toBe(100);
			poolId ??= res.body.pool.id;
		}
	});
	afterAll(async () => {
		await server.close();
		stopEngineTimers();
	});

	it('lists pools as one item each, and all 2,500 inboxes in exactly 3 requests', async () => {
		const before = inboxRequests();
		const result = await runWorkflow(workflow, { credentials: credentials(key) });
		expect(result.status).toBe('success');
		const pools = outputOf(result, 'List Pools');
		expect(pools.length).toBe(16);
		expect(pools[0].json).toEqual({
			id: expect.any(String),
			name: expect.any(String),
			inboxCount: 1000,
			createdAt: expect.any(String),
		});
		const inboxes = outputOf(result, 'List Inboxes');
		expect(inboxes).toHaveLength(2500);
		expect(new Set(inboxes.map((i) => i.json.id)).size).toBe(2500);
		expect(inboxes[2499].pairedItem).toEqual({ item: 0 });
		expect(inboxRequests() - before).toBe(3);
	});

	it('honours Limit, the pool and the status filter', async () => {
		const pools = outputOf(
			await runWorkflow(workflow, { credentials: credentials(key) }),
			'List Pools',
		);
		const before = inboxRequests();
		const limited = await runWorkflow(workflow, {
			credentials: credentials(key),
			parameters: { 'List Inboxes': { returnAll: false, limit: 30 } },
		});
		expect(outputOf(limited, 'List Inboxes')).toHaveLength(30);
		const inPool = await runWorkflow(workflow, {
			credentials: credentials(key),
			parameters: {
				'List Inboxes': {
					returnAll: true,
					poolId: { __rl: true, mode: 'id', value: pools[1].json.id },
				},
			},
		});
		const items = outputOf(inPool, 'List Inboxes');
		expect(items).toHaveLength(100);
		expect(items.every((i) => i.json.poolId === pools[1].json.id)).toBe(true);
		expect(inboxRequests() - before).toBe(2);
		const paused = await runWorkflow(workflow, {
			credentials: credentials(key),
			parameters: { 'List Inboxes': { status: 'paused' } },
		});
		expect(outputOf(paused, 'List Inboxes')).toEqual([]);
	});

	it('names the service and the status when the service fails (an injected 503)', async () => {
		await server.admin('POST', '/faults', { route: 'GET /api/v1/inboxes', status: 503 });
		const result = await runWorkflow(workflow, { credentials: credentials(key) });
		expect(errorOf(result)).toMatchObject({
			message: expect.stringMatching(/^Injected fault.*\(HTTP 503 from the inbox service\)$/),
			httpCode: '503',
			node: 'List Inboxes',
		});
	});

	it('fails with the service message for an unknown pool and for a bad key', async () => {
		const unknown = await runWorkflow(workflow, {
			credentials: credentials(key),
			parameters: { 'List Inboxes': { poolId: { __rl: true, mode: 'id', value: 'pool_missing' } } },
		});
		expect(errorOf(unknown)).toMatchObject({
			message: expect.stringMatching(/Pool 'pool_missing' not found/),
			httpCode: '404',
		});
		const bad = await runWorkflow(workflow, { credentials: credentials('lik_bad') });
		expect(errorOf(bad)).toMatchObject({ httpCode: '401' });
	});

	it('explains an inbox base URL without /api/v1', async () => {
		const result = await runWorkflow(workflow, {
			credentials: { apiKey: key, leadsBaseUrl: server.url, inboxBaseUrl: server.url },
		});
		expect(errorOf(result)?.message).toMatch(/Inbox Base URL must end with \/api\/v1/);
	});

	describe('credential test', () => {
		it('passes with a valid key', async () => {
			expect(await testCredential(credentials(key))).toEqual({
				status: 'OK',
				message: expect.stringMatching(/^Connection successful/),
			});
		});
		it('fails with a wrong key, a wrong base URL, or an unreachable server', async () => {
			expect(await testCredential(credentials('lik_wrong'))).toMatchObject({
				status: 'Error',
				message: expect.stringMatching(
					/^The inbox service refused the API key \(HTTP 401: "Invalid API key.*The lead search service refused the API key/,
				),
			});
			expect(
				await testCredential({ apiKey: key, leadsBaseUrl: server.url, inboxBaseUrl: server.url }),
			).toMatchObject({
				status: 'Error',
				message: expect.stringMatching(/Inbox Base URL must end with \/api\/v1/),
			});
			expect(
				await testCredential({
					apiKey: key,
					leadsBaseUrl: server.url,
					inboxBaseUrl: 'http://127.0.0.1:1/api/v1',
				}),
			).toMatchObject({
				status: 'Error',
				message: expect.stringMatching(
					/^Could not reach the inbox service at http:\/\/127.0.0.1:1\/api\/v1 \(connect ECONNREFUSED/,
				),
			});
		});
	});
});

describe('pool picker (listSearch)', () => {
	it('loads the pools for the resource locator, filtered by the search text', async () => {
		const server = await startServer({ log: false });
		try {
			const { apiKey } = await server.newAccount();
			for (const email of ['a@gmail.com', 'b@gmail.com'])
				await server.call('POST', '/api/v1/inboxes', {
					key: apiKey,
					body: { emailAddress: email, imapPassword: 'pw' },
				});
			const pools = (await server.call('GET', '/api/v1/pools', { key: apiKey })).body.pools;
			const credentials = {
				apiKey,
				leadsBaseUrl: server.url,
				inboxBaseUrl: `${server.url}/api/v1`,
			};
			// the part of n8n's load-options context the picker uses, with n8n's request semantics
			const context = {
				getNode: () => ({
					name: 'List Inboxes',
					type: 'n8n-nodes-lead-inbox.listInboxes',
					typeVersion: 1,
					parameters: {},
				}),
				getCredentials: async () => credentials,
				helpers: {
					httpRequestWithAuthentication: async (
						_type: string,
						request: { method: string; url: string },
					) => {
						const authed = applyGenericAuth(credentials as never, request as never);
						const response = await fetch(authed.url, {
							method: authed.method,
							headers: authed.headers as Record<string, string>,
						});
						return {
							statusCode: response.status,
							headers: Object.fromEntries(response.headers),
							body: await response.json(),
						};
					},
				},
			};
			const all = await searchPools.call(context as never);
			expect(all.results).toEqual(
				pools.map((p: { id: string; name: string }) => ({
					name: `${p.name} (1 inbox)`,
					value: p.id,
				})),
			);
			const one = await searchPools.call(context as never, pools[1].id.slice(-6));
			expect(one.results.map((r) => r.value)).toEqual([pools[1].id]);
		} finally {
			await server.close();
		}
	});
});
