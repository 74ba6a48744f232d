import {
	errorOf,
	hintsOf,
	loadWorkflow,
	outputOf,
	runWorkflow,
	stopEngineTimers,
} from '../helpers/n8n.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';
import { WAIT_MS, waitUntil } from '../helpers/wait.cjs';

describe('Create Inboxes node', () => {
	let server: TestServer;
	const workflow = loadWorkflow('create-inboxes.json');
	const TRIGGER = "When clicking 'Execute workflow'";
	const NODE = 'Create Inboxes';
	const postRequests = () => server.requestCount('POST', '/api/v1/inboxes');
	/** Whether a POST /inboxes after the first `before` ones was answered 429. */
	const limited = (before: number) =>
		server.logs
			.filter((line) => line.includes('"method":"POST","path":"/api/v1/inboxes"'))
			.slice(before)
			.some((line) => line.includes('"status":429'));

	const items = (n: number, prefix: string, password = (_i: number) => 'app-password') =>
		Array.from({ length: n }, (_, i) => ({
			email: `${prefix}${i}@gmail.com`,
			appPassword: password(i),
		}));
	const run = (
		key: string,
		input: object[],
		parameters: object = {},
		onError?: 'continueRegularOutput' | 'continueErrorOutput',
	) =>
		runWorkflow(workflow, {
			credentials: { apiKey: key, leadsBaseUrl: server.url, inboxBaseUrl: `${server.url}/api/v1` },
			pinData: { [TRIGGER]: input as never },
			parameters: { [NODE]: parameters as never },
			onError: onError ? { [NODE]: onError } : undefined,
		});

	beforeAll(async () => {
		server = await startServer();
	});
	afterAll(async () => {
		await server.close();
		stopEngineTimers();
	});

	it('creates 250 inboxes in exactly 3 requests, all in one new pool, one output item per input', async () => {
		const { apiKey } = await server.newAccount();
		const before = postRequests();
		const result = await run(apiKey, items(250, 'bulk'));
		expect(result.status).toBe('success');
		expect(postRequests() - before).toBe(3);
		const out = outputOf(result, NODE);
		expect(out).toHaveLength(250);
		expect(out.map((o) => o.pairedItem)).toEqual(
			Array.from({ length: 250 }, (_, i) => ({ item: i })),
		);
		const poolIds = new Set(out.map((o) => o.json.poolId));
		expect(poolIds.size).toBe(1);
		// The input item's fields first (its password left out), then the service's result.
		expect(out[0].json).toEqual({
			email: 'bulk0@gmail.com',
			emailAddress: 'bulk0@gmail.com',
			success: true,
			inboxId: expect.any(String),
			poolId: expect.any(String),
			poolName: expect.stringMatching(/^Pool /),
			autoFilledFields: ['imapHost', 'imapPort', 'smtpHost', 'smtpPort'],
		});
		const pools = (await server.call('GET', '/api/v1/pools', { key: apiKey })).body.pools;
		expect(pools).toEqual([expect.objectContaining({ id: [...poolIds][0], inboxCount: 250 })]);
		const listed = (await server.call('GET', '/api/v1/inboxes?limit=1', { key: apiKey })).body
			.inboxes[0];
		expect(listed.dailySendingLimit).toBe(20);
	});

	it('adds to an existing pool picked by ID, with a smaller batch size', async () => {
		const { apiKey } = await server.newAccount();
		const seed = await server.call('POST', '/api/v1/inboxes', {
			key: apiKey,
			body: { emailAddress: 'seed@gmail.com', imapPassword: 'pw' },
		});
		const before = postRequests();
		const result = await run(apiKey, items(25, 'exist'), {
			poolMode: 'existing',
			poolId: { __rl: true, mode: 'id', value: seed.body.pool.id },
			options: { batchSize: 10 },
		});
		expect(result.status).toBe('success');
		expect(postRequests() - before).toBe(3);
		expect(outputOf(result, NODE).every((o) => o.json.poolId === seed.body.pool.id)).toBe(true);
	});

	const mixed = () => [
		{ email: 'good0@gmail.com', appPassword: 'pw' },
		{ email: 'bad1@gmail.com', appPassword: 'invalid-password' },
		{ email: 'good2@yahoo.com', appPassword: 'pw' },
		{ email: 'no-provider@custom-domain.com', appPassword: 'pw' },
		{ email: 'good4@gmail.com', appPassword: 'pw' },
	];

	it('puts failed entries on the Failed output with their data as fields, paired to their input items', async () => {
		const { apiKey } = await server.newAccount();
		const result = await run(apiKey, mixed());
		expect(result.status).toBe('success');
		const ok = outputOf(result, NODE, 0);
		const failed = outputOf(result, NODE, 1);
		expect(ok.map((o) => [o.pairedItem, o.json.emailAddress])).toEqual([
			[{ item: 0 }, 'good0@gmail.com'],
			[{ item: 2 }, 'good2@yahoo.com'],
			[{ item: 4 }, 'good4@gmail.com'],
		]);
		expect(failed).toEqual([
			{
				pairedItem: { item: 1 },
				// The input item's fields, less its password: n8n stores every item it outputs.
				json: {
					email: 'bad1@gmail.com',
					success: false,
					emailAddress: 'bad1@gmail.com',
					code: 'connection_failed',
					reason: expect.stringMatching(/^Connection test failed: IMAP authentication refused/),
				},
			},
			{
				pairedItem: { item: 3 },
				json: expect.objectContaining({
					emailAddress: 'no-provider@custom-domain.com',
					code: 'invalid_entry',
					reason: expect.stringMatching(/^Cannot detect the mail provider .*set provider/),
				}),
			},
		]);
		expect(hintsOf(result, NODE)).toEqual([
			'3 inbox(es) created, 2 failed (connection_failed, invalid_entry): the failed ones are on the Failed output with emailAddress, code and reason.',
		]);
	});

	it('never outputs a password, whatever the input column holding it is called, and keeps the other fields', async () => {
		const { apiKey } = await server.newAccount();
		const input = [
			{
				email: 'keep0@gmail.com',
				appPassword: 'pw-0-secret',
				row: 7,
				note: { imap_pass: 'x', raw: 'pw-0-secret' },
			},
			{
				email: 'keep1@gmail.com',
				appPassword: 'invalid-pw-1',
				row: 8,
				oddlyNamed: 'invalid-pw-1',
				apiKey: 'k',
			},
		];
		const result = await run(apiKey, input, {
			imapPassword: '={{ $json.appPassword }}',
			additionalFields: { smtpPassword: '={{ $json.appPassword }}' },
		});
		const all = [...outputOf(result, NODE, 0), ...outputOf(result, NODE, 1)];
		expect(all.map((o) => o.json.row)).toEqual([7, 8]);
		const stored = JSON.stringify(all);
		for (const secret of ['pw-0-secret', 'invalid-pw-1', 'imap_pass', 'appPassword', 'apiKey'])
			expect(stored).not.toContain(secret);
		expect(outputOf(result, NODE, 0)[0].json).toMatchObject({ email: 'keep0@gmail.com', note: {} });
	});

	it("keeps the Failed output beside n8n's error output", async () => {
		const { apiKey } = await server.newAccount();
		const result = await run(apiKey, mixed(), {}, 'continueErrorOutput');
		expect(outputOf(result, NODE, 0)).toHaveLength(3);
		expect(outputOf(result, NODE, 1).map((o) => o.json.code)).toEqual([
			'connection_failed',
			'invalid_entry',
		]);
		expect(outputOf(result, NODE, 2)).toEqual([]);
	});

	it('names the problem of the entry, not its position in the batch', async () => {
		const { apiKey } = await server.newAccount();
		const result = await run(apiKey, [
			{ email: 'ok@gmail.com', appPassword: 'pw' },
			{ email: 'also-ok@gmail.com', appPassword: 'pw' },
			{ email: 'not-an-address', appPassword: 'pw' },
			{ appPassword: 'pw' },
			{ email: 'jane@gmial.com', appPassword: 'pw' },
		]);
		const failed = outputOf(result, NODE, 1);
		expect(failed.map((o) => [o.pairedItem, o.json.code, o.json.reason])).toEqual([
			[
				{ item: 2 },
				'invalid_entry',
				'Invalid entry: emailAddress must be a valid email address such as name@example.com',
			],
			[
				{ item: 3 },
				'invalid_entry',
				'Email Address is empty: map the address with an expression, e.g. {{ $json.email }}',
			],
			[{ item: 4 }, 'invalid_entry', expect.stringContaining('did you mean jane@gmail.com?')],
		]);
		// The service's words stay; the node adds where the field it names sits on the panel.
		expect(failed[2].json.reason).toMatch(
			/send acceptDomainAsTyped: true if it is right\..*\(in this node: acceptDomainAsTyped is "Additional Fields > Accept Address As Typed"\)$/,
		);
	});

	it('reads New Pool Name for each item: one new pool per name, in as few requests as the names need', async () => {
		const { apiKey } = await server.newAccount();
		const input = items(6, 'team').map((item, i) => ({
			...item,
			team: i % 2 ? 'Sales' : 'Support',
		}));
		const before = postRequests();
		const result = await run(apiKey, input, { newPoolName: '={{ $json.team }} inboxes' });
		expect(postRequests() - before).toBe(2);
		const out = outputOf(result, NODE);
		expect(out.map((o) => [o.pairedItem, o.json.emailAddress, o.json.poolName])).toEqual(
			input.map((item, i) => [{ item: i }, item.email, `${item.team} inboxes`]),
		);
		const pools = (await server.call('GET', '/api/v1/pools', { key: apiKey })).body.pools;
		expect(pools.map((p: { name: string; inboxCount: number }) => [p.name, p.inboxCount])).toEqual([
			['Support inboxes', 3],
			['Sales inboxes', 3],
		]);
	});

	it('says so when an expression gives a run-wide option another value for a later item', async () => {
		const { apiKey } = await server.newAccount();
		const input = items(3, 'size').map((item, i) => ({ ...item, size: i === 2 ? 1 : 50 }));
		const result = await run(apiKey, input, { options: { batchSize: '={{ $json.size }}' } });
		expect(outputOf(result, NODE)).toHaveLength(3);
		expect(hintsOf(result, NODE)).toEqual([
			"Options > Batch Size applies to the whole run, so the first item's value was used, although item 2 gives 1.",
		]);
	});

	it('names the new pool as asked, and a name already used gets a number', async () => {
		const { apiKey } = await server.newAccount();
		const first = await run(apiKey, items(2, 'named'), { newPoolName: 'Outreach November' });
		expect(outputOf(first, NODE).map((o) => o.json.poolName)).toEqual([
			'Outreach November',
			'Outreach November',
		]);
		const second = await run(apiKey, items(1, 'named-again'), {
			newPoolName: 'Outreach November',
		});
		expect(outputOf(second, NODE)[0].json.poolName).toBe('Outreach November (2)');
		const pools = (await server.call('GET', '/api/v1/pools', { key: apiKey })).body.pools;
		expect(pools.map((p: { name: string }) => p.name)).toEqual([
			'Outreach November',
			'Outreach November (2)',
		]);
	});

	describe('hourly limit', () => {
		const fill = async () => {
			const { apiKey } = await server.newAccount();
			await server.fillInboxes(apiKey, 1000);
			return apiKey;
		};

		it('waits out a 429 (Retry-After) and retries the same batch', async () => {
			const apiKey = await fill();
			// The clock is frozen with the window's oldest creations 2-3 s (server time) from
			// aging out: the first POST gets the real limit's 429 however long the fill took, and
			// the retry succeeds only once the test has moved the clock past them.
			const listed = (await server.call('GET', '/api/v1/inboxes?limit=1000', { key: apiKey })).body
				.inboxes as Array<{ createdAt: string }>;
			const oldest = Math.min(...listed.map((inbox) => Date.parse(inbox.createdAt)));
			const { body: frozen } = await server.admin('POST', '/clock', { frozen: true });
			const untilAgedOut = oldest + 3_600_000 - Date.parse(frozen.now);
			await server.admin('POST', '/clock', {
				advanceSeconds: Math.floor(untilAgedOut / 1000) - 2,
			});
			const before = postRequests();
			const started = Date.now();
			const running = run(apiKey, items(5, 'late'), { options: { maxRateLimitWait: 30 } });
			await waitUntil(() => limited(before), WAIT_MS, 'the 429 of the real limit', 10);
			await server.admin('POST', '/clock', { advanceSeconds: 3, frozen: false });
			const result = await running;
			expect(result.status).toBe('success');
			expect(outputOf(result, NODE)).toHaveLength(5);
			expect(postRequests() - before).toBe(2);
			expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
		});

		it('waits out an injected 429 with its Retry-After, then succeeds', async () => {
			const { apiKey } = await server.newAccount();
			await server.admin('POST', '/faults', {
				route: 'POST /api/v1/inboxes',
				status: 429,
				retryAfter: 1,
			});
			const before = postRequests();
			const started = Date.now();
			const result = await run(apiKey, items(3, 'injected'), { options: { maxRateLimitWait: 10 } });
			expect(result.status).toBe('success');
			expect(outputOf(result, NODE)).toHaveLength(3);
			expect(postRequests() - before).toBe(2);
			expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
		});

		it('fails clearly when the wait would exceed the maximum and nothing was created', async () => {
			const apiKey = await fill();
			const result = await run(apiKey, items(5, 'never'), { options: { maxRateLimitWait: 5 } });
			const error = errorOf(result)!;
			expect(error.message).toMatch(/^Hourly limit reached.*\(HTTP 429 from the inbox service\)$/);
			expect(error.description).toMatch(
				/asks to wait \d+ min \(Retry-After: \d+\).*more than Max Wait on Rate Limit allows\. Nothing was created/,
			);
			// The wait quoted is the service's: the hour less the seconds since the oldest creation
			// (a busy machine takes some), in whole minutes rounded up.
			const [, minutes, seconds] = /wait (\d+) min \(Retry-After: (\d+)\)/.exec(
				error.description!,
			)!;
			expect(Number(seconds)).toBeGreaterThan(3000);
			expect(Number(seconds)).toBeLessThanOrEqual(3600);
			expect(Number(minutes)).toBe(Math.ceil(Number(seconds) / 60));
			expect(
				(await server.call('GET', '/api/v1/inboxes?limit=1', { key: apiKey })).body.pagination
					.total,
			).toBe(1000);
		});

		it('keeps the inboxes created before the limit and outputs the rest as rate_limited', async () => {
			const { apiKey } = await server.newAccount();
			await server.fillInboxes(apiKey, 950);
			// 950 created: room for 50 more this hour.
			const result = await run(apiKey, items(80, 'partial'), {
				options: { batchSize: 25, maxRateLimitWait: 5 },
			});
			expect(result.status).toBe('success');
			const created = outputOf(result, NODE, 0);
			const failed = outputOf(result, NODE, 1);
			expect(created).toHaveLength(50);
			expect(failed).toHaveLength(30);
			expect(failed[0]).toMatchObject({
				pairedItem: { item: 50 },
				json: {
					emailAddress: 'partial50@gmail.com',
					code: 'rate_limited',
					reason: expect.stringMatching(/^Hourly limit reached/),
				},
			});
		});
	});
});
