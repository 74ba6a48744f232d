import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadWorkflow, outputOf, runWorkflow, stopEngineTimers } from '../helpers/n8n.cjs';
import { type OtherService, startOtherService } from '../helpers/other-service.cjs';
import { closedPort } from '../helpers/ports.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';

/*
 * The reference server in front of a real service (--proxy-leads, --proxy-inboxes): requests are
 * forwarded and answered as the upstream answered, charges and changes only with their allow
 * option, upstream failures answered 502 saying what failed, every exchange recorded (secrets
 * redacted) and replayable offline, and each answer checked against the contract. The upstream
 * here is the reference server itself (nothing differs), or a stand-in that answers as a real
 * service might where the specs are silent, and breaks the spec once.
 */

const SECRET_PASSWORD = 'Proxy-Secret-Password-1';
const dirs: string[] = [];
const tempDir = () => {
	const dir = mkdtempSync(join(tmpdir(), 'proxy-rec-'));
	dirs.push(dir);
	return dir;
};
afterAll(() => {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
	stopEngineTimers();
});

/** A request as a client sends it, through any server. */
async function send(
	url: string,
	method: string,
	path: string,
	key: string,
	body?: unknown,
): Promise<{ status: number; headers: Headers; text: string }> {
	const res = await fetch(`${url}${path}`, {
		method,
		headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: res.status, headers: res.headers, text: await res.text() };
}

const recordingsIn = (dir: string) =>
	readdirSync(dir)
		.sort()
		.map((file) => ({ file, text: readFileSync(join(dir, file), 'utf8') }));

describe('proxy in front of the reference server', () => {
	let upstream: TestServer;
	let key: string;
	let accountId: string;
	const upstreamRequests = async (method: string, path: string) =>
		(await upstream.admin('GET', `/requests?method=${method}&path=${path}`)).body.requests
			.length as number;
	const credits = async () => (await upstream.admin('GET', `/accounts/${accountId}`)).body.credits;

	beforeAll(async () => {
		upstream = await startServer();
		({ apiKey: key, accountId } = await upstream.newAccount({ credits: 100 }));
	});
	afterAll(() => upstream.close());

	const proxyOf = (options: object = {}) =>
		startServer({
			proxyLeads: upstream.url,
			proxyInboxes: `${upstream.url}/api/v1`,
			...options,
		});

	it('forwards reads; refuses a lead search and inbox creation without their allow options, forwarding nothing', async () => {
		const proxy = await proxyOf();
		try {
			const direct = await send(upstream.url, 'GET', '/api/v1/pools', key);
			const through = await send(proxy.url, 'GET', '/api/v1/pools', key);
			expect([through.status, through.text]).toEqual([direct.status, direct.text]);

			await upstream.admin('DELETE', '/requests');
			const search = await send(proxy.url, 'POST', '/api/v1/niche-finder-leads', key, {
				niche: 'dentist',
				city: 'Austin, TX',
				count: 3,
			});
			expect(search.status).toBe(403);
			expect(JSON.parse(search.text).error).toMatch(
				/only with --proxy-allow-charges.*Nothing was forwarded/,
			);
			const create = await send(proxy.url, 'POST', '/api/v1/inboxes', key, {
				emailAddress: 'refused@gmail.com',
				imapPassword: SECRET_PASSWORD,
			});
			expect(create.status).toBe(403);
			expect(JSON.parse(create.text).error).toMatch(/only with --proxy-allow-changes/);
			// The upstream saw neither: its journal is empty, its ledger unmoved.
			expect((await upstream.admin('GET', '/requests')).body.requests).toEqual([]);
			expect(await credits()).toBe(100);
		} finally {
			await proxy.close();
		}
	});

	it('with both allowed, answers exactly as the upstream, moves its ledger, records every exchange without secrets, and finds nothing that differs', async () => {
		const dir = tempDir();
		const proxy = await proxyOf({ proxyAllowCharges: true, proxyAllowChanges: true, record: dir });
		try {
			const before = await credits();
			const search = await send(proxy.url, 'POST', '/api/v1/niche-finder-leads', key, {
				niche: 'plumber',
				city: 'Denver, CO',
				count: 4,
			});
			expect(search.status).toBe(200);
			const charged = JSON.parse(search.text).chargedCredits as number;
			expect(charged).toBeGreaterThan(0);
			expect(await credits()).toBe(before - charged);
			expect(await upstreamRequests('POST', '/api/v1/niche-finder-leads')).toBeGreaterThan(0);

			// What the nodes send, and the answers the contract gives: all checked, none differs.
			const exchanges: Array<[string, string, unknown?]> = [
				[
					'POST',
					'/api/v1/inboxes',
					{ emailAddress: 'one@gmail.com', imapPassword: SECRET_PASSWORD },
				],
				[
					'POST',
					'/api/v1/inboxes?poolName=Proxy',
					[
						{ emailAddress: 'two@gmail.com', imapPassword: SECRET_PASSWORD },
						{ emailAddress: 'bad@gmail.com', imapPassword: 'invalid-password' },
					],
				],
				['POST', '/api/v1/inboxes', { emailAddress: 'not-an-address' }],
				['GET', '/api/v1/pools'],
				['GET', '/api/v1/inboxes?limit=2'],
				['GET', '/api/v1/inboxes?status=paused'],
				['GET', '/api/v1/inboxes?poolId=pool_nope'],
				['GET', '/api/v1/inboxes?limit=5000'],
				['POST', '/api/v1/niche-finder-leads', { niche: 'dentist', city: 'Atlantis' }],
			];
			for (const [method, path, body] of exchanges) {
				const through = await send(proxy.url, method, path, key, body);
				expect([path, through.status]).toEqual([path, expect.any(Number)]);
			}
			const wrongKey = await send(proxy.url, 'GET', '/api/v1/pools', 'lik_wrong_key_00000000');
			expect(wrongKey.status).toBe(401);
			expect(wrongKey.headers.get('www-authenticate')).toBe('Bearer');
			// The upstream's own 429, with its headers, passed on.
			await upstream.admin('POST', '/faults', {
				route: 'POST /api/v1/inboxes',
				status: 429,
				retryAfter: 7,
			});
			const limited = await send(proxy.url, 'POST', '/api/v1/inboxes', key, [
				{ emailAddress: 'late@gmail.com', imapPassword: SECRET_PASSWORD },
			]);
			expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '7']);

			expect((await proxy.admin('GET', '/divergences')).body).toEqual({ divergences: [] });

			// One file per exchange, sorted names, no key, no password anywhere.
			const files = recordingsIn(dir);
			expect(files.length).toBe(exchanges.length + 3);
			expect(files.map((f) => f.file)).toEqual([...files.map((f) => f.file)].sort());
			for (const { file, text } of files) {
				expect([file, text.includes(key), text.includes(SECRET_PASSWORD)]).toEqual([
					file,
					false,
					false,
				]);
				expect(JSON.parse(text)).toEqual({
					request: expect.objectContaining({
						method: expect.any(String),
						path: expect.any(String),
					}),
					response: expect.objectContaining({ status: expect.any(Number) }),
					recordedAt: expect.any(String),
					durationMs: expect.any(Number),
				});
			}
			const journal = JSON.stringify((await proxy.admin('GET', '/requests')).body);
			expect(journal).not.toContain(SECRET_PASSWORD);
			expect(journal).not.toContain(key);
			expect(proxy.logs.join('\n')).not.toContain(key);
		} finally {
			await proxy.close();
		}
	});

	it('replays what it recorded with the upstream stopped: the same bytes, nothing spent, the closest recording named for a request it never saw', async () => {
		const own = await startServer();
		const { apiKey } = await own.newAccount({ credits: 50 });
		const dir = tempDir();
		const recorder = await startServer({
			proxyLeads: own.url,
			proxyInboxes: `${own.url}/api/v1`,
			proxyAllowCharges: true,
			proxyAllowChanges: true,
			record: dir,
		});
		const session: Array<[string, string, unknown?]> = [
			['GET', '/api/v1/inboxes'],
			[
				'POST',
				'/api/v1/inboxes',
				{ emailAddress: 'replayed@gmail.com', imapPassword: SECRET_PASSWORD },
			],
			['GET', '/api/v1/inboxes'],
			['POST', '/api/v1/niche-finder-leads', { niche: 'florist', city: 'Boise', count: 2 }],
		];
		const recorded = [];
		for (const [method, path, body] of session)
			recorded.push(await send(recorder.url, method, path, apiKey, body));
		await recorder.close();
		await own.close();

		const replay = await startServer({ replay: dir });
		try {
			const ledger = async () =>
				(await replay.admin('GET', `/accounts/${replay.devAccountId}`)).body;
			const before = await ledger();
			for (const [i, [method, path, body]] of session.entries()) {
				// The same request the same way, however its JSON is spaced or ordered.
				const again = await send(replay.url, method, path, apiKey, body);
				expect([path, again.status, again.text]).toEqual([
					path,
					recorded[i].status,
					recorded[i].text,
				]);
				expect(again.headers.get('content-type')).toBe(recorded[i].headers.get('content-type'));
			}
			// The list before and after the creation: two recordings, replayed in order.
			expect(JSON.parse(recorded[0].text).inboxes).toEqual([]);
			expect(JSON.parse(recorded[2].text).inboxes).toHaveLength(1);
			expect(await ledger()).toEqual(before);

			const unknown = await send(replay.url, 'POST', '/api/v1/niche-finder-leads', apiKey, {
				niche: 'florist',
				city: 'Boise',
				count: 3,
			});
			expect(unknown.status).toBe(404);
			expect(JSON.parse(unknown.text).error).toMatch(
				/^No recording matches POST \/api\/v1\/niche-finder-leads\. The closest is POST_api-v1-niche-finder-leads_[0-9a-f]{8}_001\.json, which differs in body\.count: recorded 2, got 3\./,
			);
		} finally {
			await replay.close();
		}
		const ignoring = await startServer({ replay: dir, replayIgnore: ['count'] });
		try {
			const search = await send(ignoring.url, 'POST', '/api/v1/niche-finder-leads', apiKey, {
				niche: 'florist',
				city: 'Boise',
				count: 9,
			});
			expect([search.status, search.text]).toEqual([200, recorded[3].text]);
		} finally {
			await ignoring.close();
		}
	});
});

describe('n8n workflows through the proxy, then offline from the recording', () => {
	it('give the same output both ways, and the replay charges nothing', async () => {
		const real = await startServer();
		const { apiKey, accountId } = await real.newAccount({ credits: 200 });
		await real.fillInboxes(apiKey, 3, 'n8n');
		const dir = tempDir();
		const proxy = await startServer({
			proxyLeads: real.url,
			proxyInboxes: `${real.url}/api/v1`,
			proxyAllowCharges: true,
			record: dir,
		});
		const run = async (url: string) => {
			const credentials = { apiKey, leadsBaseUrl: url, inboxBaseUrl: `${url}/api/v1` };
			const leads = await runWorkflow(loadWorkflow('fetch-leads.json'), { credentials });
			const lists = await runWorkflow(loadWorkflow('list-pools-and-inboxes.json'), { credentials });
			for (const result of [leads, lists]) expect(result.status).toBe('success');
			return {
				leads: outputOf(leads, 'Fetch Leads').map((i) => i.json),
				pools: outputOf(lists, 'List Pools').map((i) => i.json),
				inboxes: outputOf(lists, 'List Inboxes').map((i) => i.json),
			};
		};
		let live;
		try {
			live = await run(proxy.url);
			expect(live.leads.length).toBeGreaterThan(0);
			expect(live.inboxes).toHaveLength(3);
		} finally {
			await proxy.close();
		}
		const credits = (await real.admin('GET', `/accounts/${accountId}`)).body.credits;
		await real.close();

		const replay = await startServer({ replay: dir });
		try {
			expect(await run(replay.url)).toEqual(live);
			expect((await replay.admin('GET', '/requests')).body.requests.length).toBeGreaterThan(0);
		} finally {
			await replay.close();
		}
		// What the live run charged stays what it charged: the replay reached no ledger.
		expect(credits).toBeLessThan(200);
	});
});

describe('proxy in front of a service that answers otherwise', () => {
	let service: OtherService;
	let proxy: TestServer;
	beforeAll(async () => {
		service = await startOtherService();
		proxy = await startServer({
			proxyLeads: service.url,
			proxyInboxes: `${service.url}/api/v1`,
			proxyAllowCharges: true,
			proxyAllowChanges: true,
			proxyTimeout: 1000,
		});
	});
	afterAll(async () => {
		await proxy.close();
		await service.close();
	});
	beforeEach(async () => {
		service.reset();
		await proxy.admin('POST', '/reset');
	});
	const through = (method: string, path: string, body?: unknown) =>
		send(proxy.url, method, path, service.credentials().apiKey, body);
	const divergences = async () =>
		(await proxy.admin('GET', '/divergences')).body.divergences as any[];

	it('classifies each difference: the open points it decided otherwise, what breaks the spec, what goes beyond it', async () => {
		// The lead search's error shape is not shown by its spec: another shape is an open point.
		service.on('POST /api/v1/niche-finder-leads', { status: 400, json: { message: 'Bad city' } });
		// The inbox spec gives the error body: another shape breaks it.
		service.on('GET /api/v1/pools', { status: 404, json: { message: 'No such account' } });
		await through('POST', '/api/v1/niche-finder-leads', { niche: 'x', city: 'y' });
		await through('GET', '/api/v1/pools');
		// A 207 batch with failed entries in another shape, the new pool under another name.
		service.on('POST /api/v1/inboxes', {
			status: 207,
			json: {
				success: false,
				summary: { total: 2, created: 1, failed: 1 },
				newPool: { id: 'p1', name: 'Auto' },
				results: [
					{ emailAddress: 'a@gmail.com', success: true, inboxId: 'i1' },
					{ emailAddress: 'b@gmail.com', success: false, message: 'exists' },
				],
			},
		});
		await through('POST', '/api/v1/inboxes', [
			{ emailAddress: 'a@gmail.com' },
			{ emailAddress: 'b@gmail.com' },
		]);
		// Pages capped at 500, and a wrong type (inboxCount as text) with an extra field.
		service.on('GET /api/v1/inboxes', {
			json: {
				inboxes: [],
				pagination: { total: 0, limit: 500, skip: 0, hasMore: false },
			},
		});
		await through('GET', '/api/v1/inboxes?limit=1000');
		service.on('GET /api/v1/pools', {
			json: {
				pools: [
					{ id: 'p1', name: 'A', inboxCount: '3', createdAt: '2026-01-01T00:00:00Z', owner: 'x' },
				],
			},
		});
		await through('GET', '/api/v1/pools');
		await through('GET', '/api/v1/pools');
		// A 429 whose Retry-After is a date, without the X-RateLimit headers.
		service.on('POST /api/v1/inboxes', {
			status: 429,
			headers: { 'retry-after': new Date(Date.now() + 60_000).toUTCString() },
			json: { error: 'Hourly limit reached' },
		});
		await through('POST', '/api/v1/inboxes', [{ emailAddress: 'c@gmail.com' }]);

		const found = await divergences();
		const brief = found.map((d) => [d.class, d.operation, d.what, d.seen, d.count]);
		expect(brief).toEqual([
			['breaks-spec', 'GET /api/v1/pools', 'error body', 'keys message', 1],
			['breaks-spec', 'GET /api/v1/pools', 'field type', 'string', 2],
			['open-point', 'GET /api/v1/inboxes', 'page size', 'capped at 500', 1],
			['open-point', 'POST /api/v1/inboxes', 'auto-created pool field', 'newPool', 1],
			['open-point', 'POST /api/v1/inboxes', 'batch status', '207', 1],
			['open-point', 'POST /api/v1/inboxes', 'extra field', 'results[].message', 1],
			[
				'open-point',
				'POST /api/v1/inboxes',
				'failed entry fields',
				'emailAddress, message, success',
				1,
			],
			[
				'open-point',
				'POST /api/v1/inboxes',
				'rate-limit headers',
				expect.stringContaining('without x-ratelimit-limit'),
				2,
			],
			['open-point', 'POST /api/v1/inboxes', 'Retry-After', 'an HTTP date', 1],
			['open-point', 'POST /api/v1/niche-finder-leads', 'error body', 'keys message', 1],
			['beyond-spec', 'GET /api/v1/pools', 'extra field', 'pools[].owner', 2],
		]);
		// Open points name the decision this server follows; each kind has one redacted example.
		for (const d of found.filter((d) => d.class === 'open-point'))
			expect([d.what, d.decision]).toEqual([
				d.what,
				expect.stringMatching(/^(Both services|Lead search|Inbox management): /),
			]);
		expect(found.find((d) => d.what === 'field type').example).toEqual({
			request: 'GET /api/v1/pools',
			status: 200,
			at: 'pools[0].inboxCount',
			value: '3',
		});
	});

	it("classes statuses: the specs' and this server's pass, a decided one answered otherwise is an open point, others go beyond", async () => {
		service.on('POST /api/v1/niche-finder-leads', {
			status: 429,
			headers: { 'retry-after': '30' },
			json: { error: 'Too many searches' },
		});
		service.on('GET /api/v1/pools', { status: 503, json: { error: 'Maintenance' } });
		service.on('GET /api/v1/inboxes', { status: 403, json: { error: 'Missing inboxes:read' } });
		await through('POST', '/api/v1/niche-finder-leads', { niche: 'x', city: 'y' });
		await through('GET', '/api/v1/pools');
		await through('GET', '/api/v1/inboxes');
		expect((await divergences()).map((d) => [d.class, d.operation, d.what, d.seen])).toEqual([
			['open-point', 'POST /api/v1/niche-finder-leads', 'status', '429'],
			['beyond-spec', 'GET /api/v1/pools', 'status', '503'],
		]);
	});

	it('answers 502 naming what failed and where: refused, a name that does not resolve, a time-out, a reset mid-answer', async () => {
		const refused = await startServer({
			proxyInboxes: `http://127.0.0.1:${await closedPort()}/api/v1`,
		});
		const unresolvable = await startServer({
			proxyInboxes: 'http://inboxes.lead-inbox.invalid/api/v1',
		});
		try {
			const cases: Array<[TestServer, RegExp]> = [
				[refused, /127\.0\.0\.1:\d+ refused the connection/],
				[unresolvable, /the host name inboxes\.lead-inbox\.invalid does not resolve/],
			];
			for (const [server, message] of cases) {
				const res = await send(server.url, 'GET', '/api/v1/pools', 'lik_any_key_000000000');
				expect(res.status).toBe(502);
				expect(JSON.parse(res.text).error).toMatch(message);
			}
		} finally {
			await refused.close();
			await unresolvable.close();
		}
		service.on('GET /api/v1/pools', { stall: true });
		const stalled = await through('GET', '/api/v1/pools');
		expect([stalled.status, JSON.parse(stalled.text).error]).toEqual([
			502,
			expect.stringMatching(/did not answer within 1 s \(--proxy-timeout\)/),
		]);
		service.on('GET /api/v1/inboxes', { drop: true });
		const dropped = await through('GET', '/api/v1/inboxes');
		expect([dropped.status, JSON.parse(dropped.text).error]).toEqual([
			502,
			expect.stringMatching(/the connection to http:\/\/127\.0\.0\.1:\d+ broke before it answered/),
		]);
		// Headers and half a body, then the connection is reset.
		const cut = net.createServer((socket) =>
			socket.once('data', () => {
				socket.write(
					'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n{"pools":[',
				);
				setImmediate(() => socket.resetAndDestroy());
			}),
		);
		await new Promise<void>((resolve) => cut.listen(0, '127.0.0.1', resolve));
		const midway = await startServer({
			proxyInboxes: `http://127.0.0.1:${(cut.address() as net.AddressInfo).port}/api/v1`,
		});
		try {
			const res = await send(midway.url, 'GET', '/api/v1/pools', 'lik_any_key_000000000');
			expect([res.status, JSON.parse(res.text).error]).toEqual([
				502,
				expect.stringMatching(/broke while its answer was being read/),
			]);
		} finally {
			await midway.close();
			cut.close();
		}
	});
});
