import {
	errorOf,
	hintsOf,
	loadWorkflow,
	outputOf,
	runWorkflow,
	stopEngineTimers,
	testCredential,
} from '../helpers/n8n.cjs';
import { type Reply, startOtherService, type OtherService } from '../helpers/other-service.cjs';

/*
 * The four nodes and the credential test against a service that answers the way the specs allow,
 * or the way real services behind gateways and proxies do, but our reference server never does:
 * error bodies of every common shape, other statuses for partial batches, results out of order,
 * pagination without hasMore, rate limits as dates, redirects, pages where JSON should be.
 */

const TRIGGER = "When clicking 'Execute workflow'";
const LEADS = 'POST /api/v1/niche-finder-leads';
const contact = (n: number) => ({
	businessName: `Business ${n}`,
	email: `owner${n}@business${n}.test`,
	emails: [`owner${n}@business${n}.test`],
	crmScore: n,
});

let service: OtherService;
beforeAll(async () => {
	service = await startOtherService();
});
afterEach(() => service.reset());
afterAll(async () => {
	await service.close();
	stopEngineTimers();
});

describe('Fetch Leads against another service', () => {
	const workflow = loadWorkflow('fetch-leads.json');
	const run = (options: object = {}, parameters: object = {}) =>
		runWorkflow(workflow, {
			credentials: service.credentials(),
			pinData: { [TRIGGER]: [{ niche: 'plumber', city: 'Springfield', count: 5 }] as never },
			parameters: { 'Fetch Leads': { options, ...parameters } as never },
		});

	it.each<[string, Reply, RegExp]>([
		['message', { json: { message: 'count must be at most 1000' } }, /^count must be at most 1000/],
		[
			'error.message with a code',
			{ json: { error: { message: 'count must be at most 1000', code: 'bad_count' } } },
			/^count must be at most 1000/,
		],
		[
			'RFC 9457 problem details',
			{
				headers: { 'content-type': 'application/problem+json' },
				json: {
					type: 'https://x.test/p/invalid',
					title: 'Invalid request',
					status: 400,
					detail: 'count must be at most 1000',
				},
			},
			/^Invalid request: count must be at most 1000/,
		],
		[
			'errors[] with fields',
			{ json: { errors: [{ field: 'count', message: 'must be at most 1000' }] } },
			/^count: must be at most 1000/,
		],
		[
			'a reason phrase beside the message',
			{ json: { statusCode: 400, error: 'Bad Request', message: 'body/count must be <= 1000' } },
			/^body\/count must be <= 1000 /,
		],
		['plain text', { text: 'count must be at most 1000' }, /^count must be at most 1000/],
		[
			'OAuth style',
			{ json: { error: 'invalid_request', error_description: 'count must be at most 1000' } },
			/^count must be at most 1000/,
		],
	])(
		"shows the service's own words first for a 400 in the form: %s",
		async (_form, reply, words) => {
			service.on(LEADS, { status: 400, ...reply });
			const error = errorOf(await run())!;
			expect(error.message).toMatch(words);
			expect(error.message).toMatch(/\(HTTP 400 from the lead search service\)$/);
			expect(error.httpCode).toBe('400');
			expect(error.description).toMatch(/Check the field named in the message/);
		},
	);

	it('summarises a gateway page and an empty body with the status and the service', async () => {
		service.on(LEADS, {
			status: 502,
			html: '<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>',
		});
		const page = errorOf(await run())!;
		expect(page.message).toBe(
			`The lead search service answered HTTP 502 with an HTML page titled "502 Bad Gateway" (POST ${service.url}/api/v1/niche-finder-leads)`,
		);
		// Behind a failing gateway the search may have run: the user is told how to check.
		expect(page.description).toMatch(
			/A gateway in front of the service failed\. The search was sent and may have been carried out/,
		);
		service.on(LEADS, { status: 500 });
		expect(errorOf(await run())!.message).toMatch(
			/^The lead search service answered HTTP 500 with an empty body/,
		);
	});

	it.each<[string, Reply]>([
		['message in other words', { json: { message: 'No results for this search' } }],
		['a code of its own', { json: { error: 'No businesses found', code: 'E_EMPTY' } }],
		[
			'a bare reason phrase and a telling code',
			{ json: { error: 'Not Found', code: 'NO_RESULTS' } },
		],
		[
			'RFC 9457 detail',
			{ json: { title: 'Not Found', detail: 'Nothing found for plumber in Springfield' } },
		],
		[
			'its own words, unknown to the node',
			{ json: { error: 'The search for plumber in Springfield came back empty' } },
		],
	])(
		'reads a 404 saying nothing was found (%s) as nothing found: no items, a hint, no error',
		async (_form, reply) => {
			service.on(LEADS, { status: 404, ...reply });
			const result = await run();
			expect(result.status).toBe('success');
			expect(outputOf(result, 'Fetch Leads')).toEqual([]);
			expect(hintsOf(result, 'Fetch Leads')).toContainEqual(
				expect.stringMatching(
					/^No businesses found for "plumber" in "Springfield" \(the service said: ".+"\); nothing was charged/,
				),
			);
			const loud = errorOf(await run({ failOnNotFound: true }))!;
			expect(loud).toMatchObject({
				httpCode: '404',
				message: expect.stringMatching(/\(HTTP 404 from the lead search service\)$/),
			});
		},
	);

	it.each<[string, Reply]>([
		[
			'an HTML page (Express)',
			{
				status: 404,
				html: '<!DOCTYPE html><html><body><pre>Cannot POST /api/v1/niche-finder-leads</pre></body></html>',
			},
		],
		['a text page (Go)', { status: 404, text: '404 page not found' }],
		[
			'a framework route message (Fastify)',
			{
				status: 404,
				json: {
					message: 'Route POST:/api/v1/niche-finder-leads not found',
					error: 'Not Found',
					statusCode: 404,
				},
			},
		],
		[
			'a framework default body (Spring)',
			{
				status: 404,
				json: {
					timestamp: '2026-11-23T10:00:00Z',
					status: 404,
					error: 'Not Found',
					path: '/api/v1/niche-finder-leads',
				},
			},
		],
		['a gateway (Kong)', { status: 404, json: { message: 'no Route matched with those values' } }],
		[
			'Rails',
			{ status: 404, json: { error: 'No route matches [POST] "/api/v1/niche-finder-leads"' } },
		],
		['405 Method Not Allowed', { status: 405, json: { error: 'Method Not Allowed' } }],
	])('reads a 404 from %s as a wrong Lead Search Base URL', async (_form, reply) => {
		service.on(LEADS, reply);
		const error = errorOf(await run())!;
		expect(error.message).toBe(
			"The lead search endpoint was not found at the credential's Lead Search Base URL",
		);
		expect(error.description).toMatch(
			/Set the Lead Search Base URL to the service's base URL without \/api\/v1/,
		);
	});

	it.each<[string, Reply]>([
		['{"error":"Not found"}', { status: 404, json: { error: 'Not found' } }],
		['a bare "Not Found" message', { status: 404, json: { message: 'Not Found' } }],
		['an empty body', { status: 404 }],
		['a text "Not Found"', { status: 404, text: 'Not Found' }],
	])(
		'says both readings of a 404 whose words do not settle it (%s), and how to tell them apart',
		async (_form, reply) => {
			service.on(LEADS, reply);
			// Whether or not nothing found is to fail the node: this is not known to be nothing found.
			for (const options of [{}, { failOnNotFound: true }]) {
				const error = errorOf(await run(options))!;
				expect(error).toMatchObject({
					httpCode: '404',
					message:
						'The lead search answered 404 without saying which: no business was found for this search, or the Lead Search Base URL is wrong',
				});
				expect(error.description).toMatch(
					/test the Lead Inbox API credential .* If the test passes, nothing was found.* Nothing was charged either way\.$/,
				);
			}
		},
	);

	it("refuses a 2xx that is not the operation's answer, naming the URL and what came back", async () => {
		service.on(LEADS, { html: '<html><head><title>Welcome to our site</title></head></html>' });
		const page = errorOf(await run())!;
		expect(page.message).toBe(
			'The lead search service answered HTTP 200 with an HTML page titled "Welcome to our site", not a list of contacts',
		);
		expect(page.description).toMatch(
			/POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/niche-finder-leads did not return/,
		);
		expect(page.description).toMatch(/may have charged credits/);
		service.on(LEADS, { json: { ok: true } });
		expect(errorOf(await run())!.message).toMatch(
			/with a JSON object with field ok, not a list of contacts$/,
		);
	});

	it('reads a data envelope, numeric strings and unknown fields; says when the charge is not known', async () => {
		service.on(LEADS, {
			json: { data: { contacts: [contact(1), contact(2)], chargedCredits: '2' } },
		});
		const result = await run();
		expect(outputOf(result, 'Fetch Leads').map((i) => i.json)).toEqual([contact(1), contact(2)]);
		expect(hintsOf(result, 'Fetch Leads')).toEqual(['Charged 2 credits for 2 new leads.']);
		const whole = await run({}, { output: 'response' });
		expect(outputOf(whole, 'Fetch Leads')[0].json).toMatchObject({ chargedCredits: 2 });
		service.on(LEADS, { json: { contacts: [contact(3)] } });
		expect(hintsOf(await run(), 'Fetch Leads')[0]).toMatch(
			/^Charged at least 0 credits for 1 new lead\. The service did not say what one search charged/,
		);
	});

	it('takes a contact whose email is empty but whose emails list holds one as having an email', async () => {
		const listed = { ...contact(1), email: null, emails: ['  owner@one.test '] };
		const none = { ...contact(2), email: '', emails: [] };
		service.on(LEADS, { json: { contacts: [listed, none], chargedCredits: 2 } });
		const result = await run({ onlyWithEmail: true }, { output: 'simplified' });
		expect(outputOf(result, 'Fetch Leads').map((i) => i.json.email)).toEqual(['owner@one.test']);
		expect(hintsOf(result, 'Fetch Leads')[0]).toBe(
			'Charged 2 credits for 1 new lead (1 charged contact without an email left out).',
		);
	});

	it('times out saying after how long, and that the search may have been charged', async () => {
		service.on(LEADS, { stall: true });
		const error = errorOf(await run({ timeoutMinutes: 0.02 }))!;
		expect(error.message).toBe(
			`The lead search service did not answer within 2 s (POST ${service.url}/api/v1/niche-finder-leads)`,
		);
		expect(error.description).toMatch(
			/may have charged credits.*Before re-running, check the account's contacts or credit balance/,
		);
		expect(error.description).toMatch(/raise Options > Timeout \(Minutes\)/);
	});

	it.each([301, 302, 307, 308])(
		'does not follow a %i on the POST and names where it points',
		async (status) => {
			service.on(LEADS, {
				status,
				headers: { location: 'https://leads.example.test/api/v1/niche-finder-leads' },
			});
			const error = errorOf(await run())!;
			expect(error.message).toBe(
				`The lead search service redirected POST ${service.url}/api/v1/niche-finder-leads to https://leads.example.test/api/v1/niche-finder-leads (HTTP ${status})`,
			);
			expect(error.description).toMatch(
				/Set the credential's Lead Search Base URL to https:\/\/leads\.example\.test\./,
			);
			expect(service.requests).toHaveLength(1);
		},
	);

	it('reads Retry-After as an HTTP date and X-RateLimit-Reset as epoch seconds', async () => {
		const inTwoMinutes = new Date(Date.now() + 120_000);
		service.on(LEADS, {
			status: 429,
			headers: { 'retry-after': inTwoMinutes.toUTCString() },
			json: { message: 'Slow down' },
		});
		const dated = errorOf(await run())!;
		expect(dated.message).toBe('Slow down (HTTP 429 from the lead search service)');
		expect(dated.description).toMatch(/asks to wait (119 s|2 min) \(Retry-After: .+GMT\)/);
		const epoch = Math.floor(Date.now() / 1000) + 600;
		service.on(LEADS, { status: 429, headers: { 'x-ratelimit-reset': String(epoch) } });
		expect(errorOf(await run())!.description).toMatch(
			/asks to wait 10 min \(x-ratelimit-reset: \d+\)/,
		);
	});

	it('keeps the API key out of an error even when the service echoes it', async () => {
		service.on(LEADS, (request) => ({
			status: 400,
			json: { error: `Bad header: ${request.headers.authorization}` },
		}));
		const result = await run();
		expect(errorOf(result)!.message).toBe(
			'Bad header: Bearer [API key] (HTTP 400 from the lead search service)',
		);
		expect(JSON.stringify(result.data.resultData.error)).not.toContain(
			service.credentials().apiKey,
		);
	});
});

describe('List Pools and List Inboxes against another service', () => {
	const workflow = loadWorkflow('list-pools-and-inboxes.json');
	const pool = { id: 'p1', name: 'Outreach', inboxCount: '3', createdAt: '2026-11-01T00:00:00Z' };
	const inbox = (n: number) => ({
		id: `i${n}`,
		emailAddress: `box${n}@example.test`,
		poolId: 'p1',
		status: 'active',
	});
	const run = (inboxes: object = {}) =>
		runWorkflow(workflow, {
			credentials: service.credentials(),
			parameters: { 'List Inboxes': inboxes as never },
		});
	/** A list of `total` inboxes answered by skip/limit, through `shape`. */
	const pages = (
		total: number,
		shape: (list: object[], skip: number, limit: number) => object,
		cap = 1000,
	) =>
		service.on('GET /api/v1/inboxes', (request) => {
			const skip = Number(request.query.get('skip') ?? 0);
			const limit = Math.min(cap, Number(request.query.get('limit') ?? 100));
			const list = Array.from({ length: Math.max(0, Math.min(limit, total - skip)) }, (_, k) =>
				inbox(skip + k),
			);
			return { json: shape(list, skip, limit) };
		});

	it('reads pools as a bare array and numbers sent as strings; refuses a page where JSON should be', async () => {
		service.on('GET /api/v1/pools', { json: [pool] });
		pages(0, (inboxes) => ({ inboxes }));
		const result = await run();
		expect(outputOf(result, 'List Pools').map((i) => i.json)).toEqual([{ ...pool, inboxCount: 3 }]);
		service.on('GET /api/v1/pools', { html: '<html><title>Login</title></html>' });
		expect(errorOf(await run())!.message).toBe(
			'The inbox service answered HTTP 200 with an HTML page titled "Login", not a list of pools',
		);
	});

	it('pages without a pagination object, from the page length', async () => {
		service.on('GET /api/v1/pools', { json: { pools: [] } });
		pages(2500, (inboxes) => ({ inboxes }));
		const result = await run();
		expect(outputOf(result, 'List Inboxes')).toHaveLength(2500);
		expect(
			service.requests.filter((r) => r.path === '/api/v1/inboxes').map((r) => r.query.get('skip')),
		).toEqual(['0', '1000', '2000']);
	});

	it('pages from total without hasMore, and through a service that caps its pages', async () => {
		service.on('GET /api/v1/pools', { json: { pools: [] } });
		pages(2000, (inboxes) => ({ inboxes, pagination: { total: '2000' } }));
		expect(outputOf(await run(), 'List Inboxes')).toHaveLength(2000);
		service.reset();
		service.on('GET /api/v1/pools', { json: { pools: [] } });
		pages(250, (inboxes, skip, limit) => ({ inboxes, pagination: { skip, limit } }), 100);
		expect(outputOf(await run(), 'List Inboxes')).toHaveLength(250);
	});

	it('stops with a clear error when the service ignores skip, instead of paging forever', async () => {
		service.on('GET /api/v1/pools', { json: { pools: [] } });
		pages(5000, (inboxes) => ({ inboxes, pagination: { hasMore: true } }), 100);
		service.on('GET /api/v1/inboxes', () => ({
			json: { inboxes: [inbox(0), inbox(1)], pagination: { total: 5000, hasMore: true } },
		}));
		const error = errorOf(await run())!;
		expect(error.message).toBe(
			'The inbox service answered the same inboxes again for skip=2 (page 2)',
		);
		expect(error.description).toMatch(/It seems to ignore skip.*2 inboxes were read/);
	});

	it('Return All: an inbox removed between two pages does not make another go missing', async () => {
		service.on('GET /api/v1/pools', { json: { pools: [] } });
		let all = Array.from({ length: 250 }, (_, n) => inbox(n));
		let asked = 0;
		service.on('GET /api/v1/inboxes', (request) => {
			// After the first page, i3 is removed: every later item moves up by one.
			if (++asked === 2) all = all.filter((i) => i.id !== 'i3');
			const skip = Number(request.query.get('skip'));
			const inboxes = all.slice(skip, skip + 100);
			return { json: { inboxes, pagination: { total: all.length, skip, limit: 100 } } };
		});
		const result = await run();
		const ids = outputOf(result, 'List Inboxes').map((i) => i.json.id);
		// i100 slid into the first page's place and was skipped by the first pass: read again.
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids).toContain('i100');
		expect(ids.filter((id) => id !== 'i3')).toHaveLength(249);
		expect(hintsOf(result, 'List Inboxes')).toEqual([]);
	});

	it('Return All: says so when the service keeps counting more than it lists', async () => {
		service.on('GET /api/v1/pools', { json: { pools: [] } });
		service.on('GET /api/v1/inboxes', (request) => {
			const skip = Number(request.query.get('skip'));
			// Counts 30, lists 20, in another order each time it is asked: never the same twice.
			const inboxes = skip === 0 ? [...Array(20).keys()].map(inbox).reverse() : [];
			return { json: { inboxes, pagination: { total: 30, skip, hasMore: skip === 0 } } };
		});
		const result = await run();
		const ids = outputOf(result, 'List Inboxes').map((i) => i.json.id);
		expect(ids).toHaveLength(20);
		expect(new Set(ids).size).toBe(20);
		expect(hintsOf(result, 'List Inboxes')).toEqual([
			'Item 1: the inbox list changed while it was read, twice over: the inbox service last counted 30 inboxes and 20 different ones were read (inboxes created or removed meanwhile, or a list in no stable order). Run the node again for a settled list.',
		]);
	});

	it('stops when the service answers another skip than asked', async () => {
		service.on('GET /api/v1/pools', { json: { pools: [] } });
		service.on('GET /api/v1/inboxes', (request) => ({
			json: {
				inboxes: [inbox(Number(request.query.get('skip')) + 7)],
				pagination: { skip: 0, hasMore: true },
			},
		}));
		expect(errorOf(await run())!.message).toBe(
			'The inbox service answered page 2 of inboxes for skip=0, not for skip=1 as asked',
		);
	});

	it('times out a stalled page after the option, saying so', async () => {
		service.on('GET /api/v1/pools', { json: { pools: [] } });
		service.on('GET /api/v1/inboxes', { stall: true });
		const error = errorOf(await run({ options: { timeoutSeconds: 1 } }))!;
		expect(error.message).toMatch(
			/^The inbox service did not answer within 1 s \(GET http:.*\/api\/v1\/inboxes\)$/,
		);
		expect(error.description).toMatch(/Raise Options > Timeout \(Seconds\)/);
	});
});

describe('Create Inboxes against another service', () => {
	const workflow = loadWorkflow('create-inboxes.json');
	const NODE = 'Create Inboxes';
	const input = (n: number) =>
		Array.from({ length: n }, (_, i) => ({
			email: `Box${i}@Example.test`,
			appPassword: 'pw',
			row: i,
		}));
	const run = (n: number, options: object = {}) =>
		runWorkflow(workflow, {
			credentials: service.credentials(),
			pinData: { [TRIGGER]: input(n) as never },
			parameters: { [NODE]: { options } as never },
		});
	const posts = () => service.requests.filter((r) => r.method === 'POST');
	const ok = (email: string, k: number, extra: object = {}) => ({
		emailAddress: email.toLowerCase(),
		success: true,
		inboxId: `in_${k}`,
		...extra,
	});

	it('pairs results given in another order by address, and finds the pool under another name (207)', async () => {
		service.on('POST /api/v1/inboxes', (request) => {
			const entries = request.body as { emailAddress: string }[];
			return {
				status: 207,
				json: {
					createdPool: { id: 'pool_new', name: 'Pool of today' },
					results: entries.map((e, k) => ok(e.emailAddress, k)).reverse(),
				},
			};
		});
		const result = await run(3);
		const created = outputOf(result, NODE);
		expect(
			created.map((i) => [
				i.pairedItem,
				i.json.emailAddress,
				i.json.inboxId,
				i.json.poolId,
				i.json.poolName,
			]),
		).toEqual([
			[{ item: 0 }, 'box0@example.test', 'in_0', 'pool_new', 'Pool of today'],
			[{ item: 1 }, 'box1@example.test', 'in_1', 'pool_new', 'Pool of today'],
			[{ item: 2 }, 'box2@example.test', 'in_2', 'pool_new', 'Pool of today'],
		]);
	});

	it.each([400, 409, 422])(
		'reads per-entry results from a %i: the created ones are in Created, the reasons in Failed',
		async (status) => {
			service.on('POST /api/v1/inboxes', {
				status,
				json: {
					results: [
						{
							emailAddress: 'box2@example.test',
							success: false,
							message: 'Login refused by the IMAP server',
							errorCode: 'IMAP_AUTH',
						},
						ok('box0@example.test', 0, { poolId: 'pool_x' }),
						{
							emailAddress: 'BOX1@example.test',
							success: 'false',
							error: { message: 'Address already exists', code: 'DUPLICATE' },
						},
					],
				},
			});
			const result = await run(3);
			expect(result.status).toBe('success');
			expect(
				outputOf(result, NODE).map((i) => [i.pairedItem, i.json.inboxId, i.json.poolId]),
			).toEqual([[{ item: 0 }, 'in_0', 'pool_x']]);
			expect(
				outputOf(result, NODE, 1).map((i) => [
					i.pairedItem,
					i.json.code,
					i.json.reason,
					i.json.row,
				]),
			).toEqual([
				[{ item: 1 }, 'DUPLICATE', 'Address already exists', 1],
				[{ item: 2 }, 'IMAP_AUTH', 'Login refused by the IMAP server', 2],
			]);
		},
	);

	it('pairs results without addresses by position when there is one per entry', async () => {
		service.on('POST /api/v1/inboxes', {
			json: {
				results: [
					{ success: true, inboxId: 'a' },
					{ success: false, reason: 'quota' },
				],
			},
		});
		const result = await run(2);
		expect(
			outputOf(result, NODE).map((i) => [i.pairedItem, i.json.inboxId, i.json.emailAddress]),
		).toEqual([[{ item: 0 }, 'a', 'Box0@Example.test']]);
		expect(
			outputOf(result, NODE, 1).map((i) => [i.pairedItem, i.json.code, i.json.reason]),
		).toEqual([[{ item: 1 }, 'failed', 'quota']]);
	});

	it('sends later batches to the pool the first one created, read from its results', async () => {
		service.on('POST /api/v1/inboxes', (request) => ({
			json: {
				results: (request.body as { emailAddress: string }[]).map((e, k) =>
					ok(e.emailAddress, k, { poolId: 'pool_from_results' }),
				),
			},
		}));
		await run(3, { batchSize: 2 });
		expect(posts().map((r) => (r.body as { poolId?: string }[]).map((e) => e.poolId))).toEqual([
			[undefined, undefined],
			['pool_from_results'],
		]);
	});

	it.each<[string, Reply]>([
		['a 2xx without results', { json: { success: true } }],
		['a gateway error page', { status: 502, html: '<html><title>502 Bad Gateway</title></html>' }],
		['a time-out', { stall: true }],
		['a dropped connection', { drop: true }],
	])(
		'after %s, asks the inbox list which entries exist: none created is missing from Created',
		async (_form, reply) => {
			service.on('POST /api/v1/inboxes', reply);
			service.on('GET /api/v1/inboxes', {
				json: {
					inboxes: [
						{ id: 'in_9', emailAddress: 'box1@example.test', poolId: 'pool_q', status: 'active' },
					],
					pagination: { total: 1, hasMore: false },
				},
			});
			const result = await run(3, { timeoutSeconds: 1 });
			expect(result.status).toBe('success');
			expect(
				outputOf(result, NODE).map((i) => [
					i.pairedItem,
					i.json.inboxId,
					i.json.confirmedByListing,
				]),
			).toEqual([[{ item: 1 }, 'in_9', true]]);
			expect(outputOf(result, NODE, 1).map((i) => [i.pairedItem, i.json.code])).toEqual([
				[{ item: 0 }, 'not_created'],
				[{ item: 2 }, 'not_created'],
			]);
			expect(hintsOf(result, NODE).join(' ')).toMatch(/the inbox list showed 1 of them created/);
		},
	);

	it('says the outcome is unknown when the inbox list cannot be read either', async () => {
		service.on('POST /api/v1/inboxes', { status: 504, text: 'upstream timed out' });
		service.on('GET /api/v1/inboxes', {
			status: 403,
			json: { error: 'Missing permission inboxes:read' },
		});
		const result = await run(1, {});
		// Nothing is known to be created: the node stops with the batch's own error.
		expect(errorOf(result)!.message).toBe('upstream timed out (HTTP 504 from the inbox service)');
		const soft = await runWorkflow(workflow, {
			credentials: service.credentials(),
			pinData: { [TRIGGER]: input(1) as never },
			onError: { [NODE]: 'continueRegularOutput' },
		});
		expect(outputOf(soft, NODE, 1)[0].json).toMatchObject({
			code: 'unknown_outcome',
			reason: expect.stringMatching(
				/Whether the inbox was created is unknown.*Missing permission inboxes:read.*List Inboxes before running this item again/,
			),
		});
	});

	it("stops on a 4xx without results (nothing created), in the service's words", async () => {
		service.on('POST /api/v1/inboxes', {
			status: 400,
			json: { detail: 'Body must be an array of entries', title: 'Invalid body' },
		});
		const error = errorOf(await run(2))!;
		expect(error.message).toBe(
			'Invalid body: Body must be an array of entries (HTTP 400 from the inbox service)',
		);
		expect(posts()).toHaveLength(1);
	});

	it('waits out a 429 whose Retry-After is an HTTP date, or whose reset is a delta, then retries', async () => {
		const waits: Record<string, string>[] = [
			{ 'retry-after': new Date(Date.now() + 1500).toUTCString() },
			{ 'x-ratelimit-reset': '1' },
		];
		for (const headers of waits) {
			service.reset();
			service.on('POST /api/v1/inboxes', (request, seen) =>
				seen === 0
					? { status: 429, headers, json: { message: 'Hourly limit' } }
					: {
							json: {
								results: (request.body as { emailAddress: string }[]).map((e, k) =>
									ok(e.emailAddress, k),
								),
							},
						},
			);
			const result = await run(2);
			expect(outputOf(result, NODE)).toHaveLength(2);
			expect(posts()).toHaveLength(2);
		}
	});

	it('waits 60 s on a 429 that says nothing about when to come back, within Max Wait on Rate Limit', async () => {
		const limitedOnce = () => {
			service.reset();
			service.on('POST /api/v1/inboxes', (request, seen) =>
				seen === 0
					? { status: 429, json: { message: 'Hourly limit' } }
					: {
							json: {
								results: (request.body as { emailAddress: string }[]).map((e, k) =>
									ok(e.emailAddress, k),
								),
							},
						},
			);
		};
		// A maximum under a minute: the wait it would take is too long, and the error says the
		// service did not say how long.
		limitedOnce();
		const refused = await run(1, { maxRateLimitWait: 59 });
		expect(errorOf(refused)?.description).toContain(
			'the service did not say when it frees, which is more than Max Wait',
		);
		expect(posts()).toHaveLength(1);

		// A minute allowed: the node sleeps 60 s (n8n's sleep, a timer asked here for 60000 ms and
		// run at once, so that the test does not take a minute), then sends the batch again.
		limitedOnce();
		const asked: number[] = [];
		const realSetTimeout = global.setTimeout;
		const spy = jest.spyOn(global, 'setTimeout').mockImplementation(((
			callback: () => void,
			ms?: number,
			...rest: unknown[]
		) => {
			const minute = ms !== undefined && ms >= 60_000 && ms < 61_000;
			if (minute) asked.push(ms);
			return Reflect.apply(realSetTimeout, globalThis, [callback, minute ? 0 : ms, ...rest]);
		}) as typeof setTimeout);
		try {
			const result = await run(1, { maxRateLimitWait: 60 });
			expect(outputOf(result, NODE)).toHaveLength(1);
		} finally {
			spy.mockRestore();
		}
		expect(asked).toEqual([60_000]);
		expect(posts()).toHaveLength(2);
	});
});

describe('the credential test against another service', () => {
	const wellBehaved = () => {
		service.on('GET /api/v1/pools', { json: { pools: [] } });
		service.on('GET /api/v1/inboxes', {
			json: { inboxes: [], pagination: { total: 0, limit: 1, skip: 0, hasMore: false } },
		});
		service.on('POST /api/v1/inboxes', { status: 400, json: { error: 'Send 1 to 100 entries' } });
		service.on(LEADS, { status: 400, json: { error: 'niche is required' } });
	};

	it('passes when both URLs lead to the services and the key may do everything, charging nothing', async () => {
		wellBehaved();
		expect(await testCredential(service.credentials())).toMatchObject({ status: 'OK' });
		const search = service.requests.find((r) => r.path === '/api/v1/niche-finder-leads')!;
		expect(search.body).toEqual({});
		// The write check sends no body at all: nothing a lenient service could create from.
		const write = service.requests.find(
			(r) => r.method === 'POST' && r.path === '/api/v1/inboxes',
		)!;
		expect(write.body ?? '').toBe('');
	});

	it('passes against a service that says yes to everything, sending nothing it could create or charge for', async () => {
		service.on('GET /api/v1/pools', { json: { pools: [] } });
		service.on('GET /api/v1/inboxes', {
			json: { inboxes: [], pagination: { total: 0, limit: 1, skip: 0, hasMore: false } },
		});
		service.on('POST /api/v1/inboxes', { json: { success: true, results: [] } });
		service.on(LEADS, { json: { contacts: [], chargedCredits: 0 } });
		expect(await testCredential(service.credentials())).toMatchObject({ status: 'OK' });
		const posts = service.requests.filter((r) => r.method === 'POST');
		expect(posts.map((r) => r.body ?? '')).toEqual(['', {}]);
	});

	it("passes for a key that lacks a permission, naming it in the service's words", async () => {
		wellBehaved();
		service.on('POST /api/v1/inboxes', { status: 403, json: { message: 'This key is read-only' } });
		expect(await testCredential(service.credentials())).toEqual({
			status: 'OK',
			message:
				'Connection successful. Inbox management works, but this key may not create inboxes (inboxes:write) (HTTP 403: "This key is read-only"): the nodes that need it will fail until the operator grants it. Lead search works.',
		});
	});

	it('checks only the services whose URL is set, and fails when none is', async () => {
		wellBehaved();
		expect(await testCredential({ ...service.credentials(), inboxBaseUrl: '' })).toEqual({
			status: 'OK',
			message: 'Connection successful. Lead search works.',
		});
		expect(service.requests.every((r) => r.path === '/api/v1/niche-finder-leads')).toBe(true);
		expect(
			await testCredential({ ...service.credentials(), inboxBaseUrl: '', leadsBaseUrl: ' ' }),
		).toMatchObject({ status: 'Error', message: expect.stringMatching(/names no service/) });
	});

	it('fails when the key may do nothing at a service that is set', async () => {
		wellBehaved();
		for (const route of ['GET /api/v1/pools', 'GET /api/v1/inboxes', 'POST /api/v1/inboxes'])
			service.on(route, { status: 403, json: { error: 'No inbox permissions' } });
		expect(await testCredential(service.credentials())).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				/^Inbox management: the API key may not list pools \(pools:read\) .*, list inboxes .* and create inboxes .*Ask the service operator/,
			),
		});
	});

	it('tells a wrong key from a wrong Lead Search Base URL and from a failing service', async () => {
		service.on('GET /api/v1/pools', { status: 401, json: { message: 'Token expired' } });
		service.on(LEADS, { status: 401, json: { message: 'Token expired' } });
		expect((await testCredential(service.credentials())).message).toMatch(
			/^The inbox service refused the API key \(HTTP 401: "Token expired"\)\. Check the API key\./,
		);
		service.reset();
		wellBehaved();
		const wrongLeads = await testCredential({
			...service.credentials(),
			leadsBaseUrl: `${service.url}/leads`,
		});
		expect(wrongLeads.message).toMatch(
			/^Lead Search Base URL: POST http:\/\/127\.0\.0\.1:\d+\/leads\/api\/v1\/niche-finder-leads answered HTTP 404 with an HTML page.*does not lead to the lead search service/,
		);
		service.on('GET /api/v1/pools', { status: 503, text: 'Maintenance until 10:00' });
		expect((await testCredential(service.credentials())).message).toBe(
			'The inbox service answered with a server error (HTTP 503: "Maintenance until 10:00"): this says nothing about the API key; try again later.',
		);
	});
});
