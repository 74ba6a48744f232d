import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadWorkflow, outputOf, runWorkflow, stopEngineTimers } from '../helpers/n8n.cjs';
import { type OtherService, startOtherService } from '../helpers/other-service.cjs';
import { closedPort } from '../helpers/ports.cjs';
import { startProxyFor, startServer, type TestServer } from '../helpers/server.cjs';

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
		redirect: 'manual',
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
				[
					'POST',
					'/api/v1/inboxes',
					[
						{
							emailAddress: 'three@company.test',
							imapPassword: SECRET_PASSWORD,
							provider: 'google',
						},
						{
							emailAddress: 'four@company.test',
							imapPassword: SECRET_PASSWORD,
							imapHost: 'imap.company.test',
							imapPort: 993,
							smtpHost: 'smtp.company.test',
							smtpPort: 465,
						},
					],
				],
				['GET', '/api/v1/inboxes?limit=2'],
				['GET', '/api/v1/inboxes?limit=1'],
				['GET', '/api/v1/inboxes?limit=1&skip=1'],
				['GET', '/api/v1/inboxes?limit=1&skip=2'],
				[
					'POST',
					'/api/v1/niche-finder-leads',
					{ niche: 'plumber', city: 'Denver, CO', count: 3, metaAds: true },
				],
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

			const report = (await proxy.admin('GET', '/divergences')).body;
			expect([report.exchanges, report.divergences]).toEqual([exchanges.length + 3, []]);

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
		proxy = await startProxyFor(service.url, { proxyTimeout: 1000 });
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

	it("words each difference from the spec's words and the request: the cases a user found misreported", async () => {
		const search = { niche: 'plumber', city: 'Springfield', count: 3 };
		const contact = (n: number, extra: object = {}) => ({
			businessName: `B${n}`,
			address: 'Main Street',
			website: `https://b${n}.test/`,
			email: null,
			emails: null,
			phone: null,
			phone_numbers: null,
			instagram: null,
			facebook: null,
			linkedin: null,
			tiktok: null,
			fbPixel: null,
			tikTokPixel: null,
			gAnalytics: null,
			googleBusinessCategories: [],
			...extra,
		});
		// Lists null where the contact has no value: allowed ("may be null"), an open point only.
		service.on('POST /api/v1/niche-finder-leads', {
			json: { contacts: [contact(1), contact(2)], chargedCredits: 2 },
		});
		await through('POST', '/api/v1/niche-finder-leads', search);
		// An extra code in a search error; a 429 to a search; an Instagram that is no URL.
		service.on('POST /api/v1/niche-finder-leads', {
			status: 400,
			json: { error: 'Bad city', code: 'BAD_CITY' },
		});
		await through('POST', '/api/v1/niche-finder-leads', search);
		service.on('POST /api/v1/niche-finder-leads', {
			status: 429,
			headers: { 'retry-after': '60' },
			json: { error: 'Slow down' },
		});
		await through('POST', '/api/v1/niche-finder-leads', search);
		service.on('POST /api/v1/niche-finder-leads', {
			json: { contacts: [contact(1, { instagram: '@b1' })], chargedCredits: 1 },
		});
		await through('POST', '/api/v1/niche-finder-leads', search);
		// A listing that ignores skip, a status outside the list, a createdAt that is not ISO UTC.
		const page = {
			id: 'i1',
			emailAddress: 'a@x.test',
			poolId: 'p1',
			status: 'warming',
			dailySendingLimit: 2,
			createdAt: '2026-01-05 09:00:00',
		};
		service.on('GET /api/v1/inboxes', {
			json: { inboxes: [page], pagination: { total: 3, limit: 1, skip: 0, hasMore: true } },
		});
		await through('GET', '/api/v1/inboxes?limit=1');
		await through('GET', '/api/v1/inboxes?limit=1&skip=1');
		// A 409 for a batch that created two, in another order, without autoFilledFields, one
		// failed entry in a shape of its own, JSON sent as text/plain.
		service.on('POST /api/v1/inboxes', {
			status: 409,
			headers: {
				'content-type': 'text/plain',
				'x-ratelimit-limit': '1000',
				'x-ratelimit-remaining': '998',
				'x-ratelimit-reset': '1796000000',
			},
			text: JSON.stringify({
				success: false,
				summary: { total: 3, created: 2, failed: 1 },
				pool: { id: 'p9', name: 'New' },
				results: [
					{ emailAddress: 'b@company.test', success: true, inboxId: 'i2' },
					{ emailAddress: 'a@gmail.com', success: true, inboxId: 'i1' },
					{ emailAddress: 'c@gmail.com', success: false, message: 'exists' },
				],
			}),
		});
		await through('POST', '/api/v1/inboxes', [
			{ emailAddress: 'a@gmail.com', imapPassword: 'pw' },
			{ emailAddress: 'b@company.test', imapPassword: 'pw', provider: 'google' },
			{ emailAddress: 'c@gmail.com', imapPassword: 'pw' },
		]);
		// A redirect, an error object, an empty success body.
		service.on('GET /api/v1/pools', {
			status: 301,
			headers: { location: 'https://api.example.test/v2/pools' },
		});
		await through('GET', '/api/v1/pools');
		service.on('GET /api/v1/pools', {
			status: 400,
			json: { error: { message: 'Bad', code: 'x' } },
		});
		await through('GET', '/api/v1/pools');
		service.on('GET /api/v1/pools', { status: 200, text: '' });
		await through('GET', '/api/v1/pools');
		service.on('GET /api/v1/pools', { status: 409, json: { error: 'Conflict' } });
		await through('GET', '/api/v1/pools');

		const found = await divergences();
		const brief = found.map((d) => [d.class, d.kind, d.seen]);
		// What a status hides comes first, plainly.
		expect(found[0]).toMatchObject({
			kind: 'created-under-error',
			first: true,
			seen: 'HTTP 409 while 2 of 3 entries were created',
			decision: { words: 'an array body always answers 200', link: 'docs/api.md#post-inboxes' },
			nodes: { effect: 'handled' },
		});
		expect(brief).toEqual(
			expect.arrayContaining([
				['open-point', 'contact-list-null', 'null'],
				['open-point', 'leads-error-code', '400 with code "BAD_CITY"'],
				['open-point', 'leads-rate-limited', '429 with Retry-After: 60'],
				['breaks-spec', 'url', '"@b1" (text)'],
				['breaks-spec', 'page-skip-ignored', 'skip=1 answered the first page again (1 inbox)'],
				['breaks-spec', 'page-skip-answered', 'pagination.skip 0 for skip=1'],
				['breaks-spec', 'status-value', '"warming" (text)'],
				['breaks-spec', 'timestamp', '"2026-01-05 09:00:00" (text)'],
				[
					'open-point',
					'results-order',
					'results in the order b@company.test, a@gmail.com, c@gmail.com',
				],
				['breaks-spec', 'autofill-missing', expect.stringContaining('provider "google"')],
				[
					'breaks-spec',
					'autofill-missing',
					expect.stringContaining('known by its domain (gmail.com)'),
				],
				['open-point', 'failed-entry-shape', 'a failed entry of emailAddress, message, success'],
				['open-point', 'content-type', 'JSON sent as text/plain'],
				['beyond-spec', 'redirect', '301 to https://api.example.test/v2/pools'],
				['breaks-spec', 'error-body', 'error is an object {message, code}'],
				['breaks-spec', 'body-empty', 'an empty body'],
				['beyond-spec', 'status-other', '409'],
			]),
		);
		// Nothing allowed is reported as breaking the spec, and no failed entry twice.
		expect(
			found.filter(
				(d) => d.class === 'breaks-spec' && /emails|phone_numbers/.test(d.example.at ?? ''),
			),
		).toEqual([]);
		expect(found.filter((d) => d.kind === 'extra-field' || d.kind === 'error-extra-field')).toEqual(
			[],
		);
		// The spec's own words, with "or null"; the decision quoted for searches is ours; a GET's statuses are a GET's.
		expect(found.find((d) => d.kind === 'url').spec).toBe('instagram: string (URL) or null');
		expect(found.find((d) => d.kind === 'leads-rate-limited').decision.words).toMatch(
			/^Searches are not rate-limited/,
		);
		expect(found.find((d) => d.kind === 'status-other').spec).toBe(
			'one of 200, 400, 401, 403, 500',
		);
		for (const d of found) expect(JSON.stringify(d)).not.toMatch(/decisions\.md|shared\//);
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
