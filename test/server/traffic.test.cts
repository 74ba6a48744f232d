import { startServer, type TestServer } from '../helpers/server.cjs';

/** What CI pipelines ask of a mock server: is it up, what was called, and fail on purpose. */
describe('healthz, the request journal and route faults', () => {
	let server: TestServer;
	beforeAll(async () => {
		server = await startServer({ log: false });
	});
	afterAll(() => server.close());
	beforeEach(async () => {
		await server.admin('DELETE', '/faults');
		await server.admin('DELETE', '/requests');
	});
	const journal = async (query = '') =>
		(await server.admin('GET', `/requests${query}`)).body.requests;

	it('answers /healthz without a key', async () => {
		const res = await server.call('GET', '/healthz', { key: null });
		expect([res.status, res.body]).toEqual([200, { status: 'ok' }]);
	});

	it('journals API requests with the key id, redacted bodies and a summary, never the key', async () => {
		const { apiKey } = await server.newAccount({ credits: 50 });
		await server.call('POST', '/api/v1/niche-finder-leads', {
			key: apiKey,
			body: { niche: 'dentist', city: 'Austin, TX', count: 2 },
		});
		await server.call('POST', '/api/v1/inboxes', {
			key: apiKey,
			body: [
				{
					emailAddress: 'journal@gmail.com',
					imapPassword: 'Secret-Imap-1',
					smtpPassword: 'Secret-Smtp-2',
				},
			],
		});
		await server.call('GET', '/api/v1/inboxes?limit=5', { key: 'lik_not-a-key' });
		const entries = await journal();
		expect(entries.map((e: any) => [e.method, e.path, e.status])).toEqual([
			['POST', '/api/v1/niche-finder-leads', 200],
			['POST', '/api/v1/inboxes', 200],
			['GET', '/api/v1/inboxes', 401],
		]);
		const [search, create, denied] = entries;
		expect(search).toMatchObject({
			keyId: expect.any(String),
			query: {},
			body: { niche: 'dentist', city: 'Austin, TX', count: 2 },
			response: { contacts: 2, chargedCredits: 2 },
			durationMs: expect.any(Number),
			time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
		});
		expect(create.body).toEqual([
			{ emailAddress: 'journal@gmail.com', imapPassword: '[redacted]', smtpPassword: '[redacted]' },
		]);
		expect(create.response).toMatchObject({ summary: { total: 1, created: 1, failed: 0 } });
		expect(denied).toMatchObject({
			keyId: null,
			query: { limit: '5' },
			response: { error: expect.stringMatching(/Invalid API key/) },
		});
		const text = JSON.stringify(entries);
		for (const secret of [apiKey, 'lik_not-a-key', 'Secret-Imap-1', 'Secret-Smtp-2'])
			expect(text).not.toContain(secret);
	});

	it('keeps no secret: query parameters and fields named like secrets (misspelt too) are redacted, and a secret of the wrong type is not echoed', async () => {
		await server.admin('DELETE', '/requests');
		await server.call('GET', '/api/v1/inboxes?limit=5&api_key=lik_leaked_key_123&password=hunter2');
		const typed = await server.call('POST', '/api/v1/inboxes', {
			body: { emailAddress: 'typo@gmail.com', imapPassword: 73317331, imapPasword: 'hunter2' },
		});
		expect(typed.status).toBe(400);
		expect(JSON.stringify(typed.body)).not.toContain('73317331');
		expect(typed.body.details).toEqual(
			expect.arrayContaining([
				{ path: 'imapPassword', message: 'imapPassword must be a string, not a number.' },
			]),
		);
		const text = JSON.stringify((await server.admin('GET', '/requests')).body);
		for (const secret of ['lik_leaked_key_123', 'hunter2', '73317331'])
			expect({ secret, kept: text.includes(secret) }).toEqual({ secret, kept: false });
	});

	it('filters by method, path, status, time and the most recent n, and can be emptied', async () => {
		const before = new Date().toISOString();
		await server.call('GET', '/api/v1/pools');
		await server.call('GET', '/api/v1/inboxes');
		await server.call('GET', '/api/v1/inboxes?status=nope');
		expect((await journal('?path=/api/v1/inboxes')).map((e: any) => e.status)).toEqual([200, 400]);
		expect((await journal('?status=400')).map((e: any) => e.path)).toEqual(['/api/v1/inboxes']);
		expect(await journal('?method=post')).toEqual([]);
		expect((await journal('?path=/api/v1/*&limit=2')).map((e: any) => e.status)).toEqual([
			200, 400,
		]);
		expect(await journal(`?since=${encodeURIComponent(before)}`)).toHaveLength(3);
		expect((await server.admin('GET', '/requests?limit=zero')).status).toBe(400);
		await server.admin('DELETE', '/requests');
		expect(await journal()).toEqual([]);
	});

	it('keeps only the last --journal-size requests', async () => {
		const small = await startServer({ log: false, journalSize: 2 });
		try {
			for (const path of ['/api/v1/pools', '/api/v1/inboxes', '/api/v1/pools'])
				await small.call('GET', path);
			const kept = (await small.admin('GET', '/requests')).body.requests;
			expect(kept.map((e: any) => e.path)).toEqual(['/api/v1/inboxes', '/api/v1/pools']);
		} finally {
			await small.close();
		}
	});

	it('keeps only a summary of requests that did not authenticate, whatever they carry', async () => {
		const big = 'x'.repeat(200_000);
		await server.call('POST', '/api/v1/inboxes', {
			key: 'lik_not-a-key',
			body: { emailAddress: 'a@gmail.com', note: big },
		});
		await server.call('GET', `/api/v1/inboxes?q=${'y'.repeat(5000)}`, { key: null });
		const [post, get] = await journal();
		expect(post).toMatchObject({
			status: 401,
			keyId: null,
			bodyNote: {
				kept: 'not kept',
				reason: 'the request did not authenticate',
				bytes: expect.any(Number),
			},
		});
		expect(post.bodyNote.bytes).toBeGreaterThan(200_000);
		expect(post).not.toHaveProperty('body');
		expect(JSON.stringify(get.query).length).toBeLessThanOrEqual(1024);
	});

	it('bounds what it keeps: bodies shortened past --journal-body-bytes, oldest out past --journal-bytes', async () => {
		const small = await startServer({ log: false, journalBodyBytes: 2000, journalBytes: 20_000 });
		try {
			const batch = Array.from({ length: 100 }, (_, i) => ({
				emailAddress: `bound${i}@gmail.com`,
				imapPassword: `pw-${i}-secret`,
				skipConnectionTest: true,
			}));
			await small.call('POST', '/api/v1/inboxes', { body: batch });
			const [kept] = (await small.admin('GET', '/requests')).body.requests;
			expect(kept.bodyNote).toMatchObject({
				kept: 'shortened',
				reason: expect.stringContaining('--journal-body-bytes (2000)'),
			});
			expect(JSON.stringify(kept.body).length).toBeLessThanOrEqual(2000);
			// Shortened, not cut mid-value: the first entries are whole, redacted, and the rest counted.
			expect(kept.body[0]).toEqual({
				emailAddress: 'bound0@gmail.com',
				imapPassword: '[redacted]',
				skipConnectionTest: true,
			});
			expect(kept.body.at(-1)).toMatch(/^\[\d+ more items\]$/);
			expect(JSON.stringify(kept)).not.toContain('-secret');

			for (let i = 0; i < 40; i++)
				await small.call('POST', '/api/v1/niche-finder-leads', {
					body: { niche: 'dentist', city: 'Austin, TX', count: 1, padding: 'p'.repeat(1500) },
				});
			const all = (await small.admin('GET', '/requests')).body.requests;
			const bodies = all.reduce(
				(n: number, e: any) => n + JSON.stringify(e.body ?? null).length,
				0,
			);
			expect(all.length).toBeLessThan(41);
			expect(bodies).toBeLessThanOrEqual(20_000);
			expect(all.at(-1).path).toBe('/api/v1/niche-finder-leads');
		} finally {
			await small.close();
		}
	});

	it('serves a route fault the given number of times, then clears it', async () => {
		const armed = await server.admin('POST', '/faults', {
			route: 'GET /api/v1/pools',
			times: 2,
			status: 503,
		});
		expect(armed.status).toBe(200);
		expect((await server.admin('GET', '/faults')).body.routes).toEqual([
			{ route: 'GET /api/v1/pools', times: 2, status: 503 },
		]);
		const first = await server.call('GET', '/api/v1/pools');
		expect([first.status, first.body.error]).toEqual([
			503,
			expect.stringMatching(/^Injected fault: GET \/api\/v1\/pools answered 503/),
		]);
		expect((await server.call('GET', '/api/v1/pools')).status).toBe(503);
		expect((await server.call('GET', '/api/v1/pools')).status).toBe(200);
		expect((await server.admin('GET', '/faults')).body.routes).toEqual([]);
		expect((await journal()).map((e: any) => e.status)).toEqual([503, 503, 200]);
	});

	it('injects a 200 that looks right but is not, such as the empty list of a replica behind', async () => {
		const { apiKey } = await server.newAccount();
		await server.fillInboxes(apiKey, 2, 'glitch');
		const empty = { inboxes: [], pagination: { total: 0, limit: 100, skip: 0, hasMore: false } };
		const armed = await server.admin('POST', '/faults', {
			route: 'GET /api/v1/inboxes',
			status: 200,
			body: empty,
		});
		expect(armed.status).toBe(200);
		const glitch = await server.call('GET', '/api/v1/inboxes', { key: apiKey });
		expect([glitch.status, glitch.body]).toEqual([200, empty]);
		expect(
			(await server.call('GET', '/api/v1/inboxes', { key: apiKey })).body.inboxes,
		).toHaveLength(2);
		const bodiless = await server.admin('POST', '/faults', {
			route: 'GET /api/v1/inboxes',
			status: 200,
		});
		expect([bodiless.status, bodiless.body.error]).toEqual([
			400,
			expect.stringMatching(/a 200 fault answers as if all went well, so it needs the body/),
		]);
		const redirect = await server.admin('POST', '/faults', {
			route: 'GET /api/v1/inboxes',
			status: 301,
			body: {},
		});
		expect(redirect.body.error).toMatch(/redirects are not faults it can inject/);
	});

	it('injects a 429 that looks like the real hourly limit', async () => {
		const { apiKey } = await server.newAccount();
		const entries = (n: number, p: string) =>
			Array.from({ length: n }, (_, i) => ({
				emailAddress: `${p}${i}@gmail.com`,
				imapPassword: 'pw',
				skipConnectionTest: true,
			}));
		await server.fillInboxes(apiKey, 1000);
		const real = await server.call('POST', '/api/v1/inboxes', {
			key: apiKey,
			body: entries(3, 'over'),
		});
		const { apiKey: other } = await server.newAccount();
		await server.admin('POST', '/faults', {
			route: 'POST /api/v1/inboxes',
			status: 429,
			retryAfter: 30,
		});
		const fake = await server.call('POST', '/api/v1/inboxes', {
			key: other,
			body: entries(3, 'fake'),
		});
		for (const res of [real, fake]) {
			expect(res.status).toBe(429);
			expect(res.body.error).toMatch(
				/^Hourly limit reached: this request would create 3 inbox\(es\) but only 0 of 1000 remain for this API key in the current hour; retry in \d+ s\. Nothing was created\.$/,
			);
			for (const name of [
				'retry-after',
				'x-ratelimit-limit',
				'x-ratelimit-remaining',
				'x-ratelimit-reset',
			])
				expect([name, res.headers.get(name)]).toEqual([name, expect.stringMatching(/^\d+$/)]);
		}
		expect(fake.headers.get('retry-after')).toBe('30');
		expect(
			(await server.call('GET', '/api/v1/inboxes', { key: other })).body.pagination.total,
		).toBe(0);
	});

	it('drops the connection without an answer, and delays a real answer', async () => {
		await server.admin('POST', '/faults', { route: 'POST /api/v1/niche-finder-leads', drop: true });
		await expect(
			fetch(`${server.url}/api/v1/niche-finder-leads`, {
				method: 'POST',
				headers: { authorization: `Bearer ${server.devKey}`, 'content-type': 'application/json' },
				body: JSON.stringify({ niche: 'dentist', city: 'Austin', count: 1 }),
			}),
		).rejects.toThrow(/fetch failed/);
		await server.admin('POST', '/faults', { route: 'GET /api/v1/pools', delayMs: 300 });
		const started = Date.now();
		const delayed = await server.call('GET', '/api/v1/pools');
		expect(delayed.status).toBe(200);
		expect(Date.now() - started).toBeGreaterThanOrEqual(300);
		expect((await journal()).map((e: any) => [e.path, e.status])).toEqual([
			['/api/v1/niche-finder-leads', null],
			['/api/v1/pools', 200],
		]);
	});

	it('refuses a fault that is neither one kind nor the other, saying what to send', async () => {
		const both = await server.admin('POST', '/faults', {
			target: 'leads.save',
			route: 'GET /api/v1/pools',
			status: 500,
		});
		expect(both.status).toBe(400);
		expect(both.body.error).toMatch(
			/send either target \(a storage fault\) or route \(a route fault\)/,
		);
		const nothing = await server.admin('POST', '/faults', { route: 'GET /api/v1/pools' });
		expect(nothing.body.error).toMatch(/a route fault needs status, delayMs or drop/);
		const unknown = await server.admin('POST', '/faults', {
			route: 'GET /api/v1/nope',
			status: 500,
		});
		expect(unknown.status).toBe(400);
	});
});
