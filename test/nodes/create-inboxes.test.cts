import { errorOf, loadWorkflow, outputOf, runWorkflow, stopEngineTimers } from '../helpers/n8n.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';

describe('Create Inboxes node', () => {
	let server: TestServer;
	const workflow = loadWorkflow('create-inboxes.json');
	const TRIGGER = "When clicking 'Execute workflow'";
	const NODE = 'Create Inboxes';
	const postRequests = () => server.requestCount('POST', '/api/v1/inboxes');
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
		expect(out[0].json).toEqual({
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

	it('routes failed entries to the error output, paired to their input items', async () => {
		const { apiKey } = await server.newAccount();
		const result = await run(apiKey, mixed(), {}, 'continueErrorOutput');
		expect(result.status).toBe('success');
		const ok = outputOf(result, NODE, 0);
		const failed = outputOf(result, NODE, 1);
		expect(ok.map((o) => [o.pairedItem, o.json.emailAddress])).toEqual([
			[{ item: 0 }, 'good0@gmail.com'],
			[{ item: 2 }, 'good2@yahoo.com'],
			[{ item: 4 }, 'good4@gmail.com'],
		]);
		expect(failed.map((o) => o.pairedItem)).toEqual([{ item: 1 }, { item: 3 }]);
		// n8n keeps only the error message of an error item: it names address, reason and code
		expect(failed[0].json).toMatchObject({
			error: expect.stringMatching(
				/^Could not create bad1@gmail.com: Connection test failed: IMAP authentication refused .* \(connection_failed\)$/,
			),
		});
		expect(failed[1].json.error).toMatch(
			/no-provider@custom-domain.com: Cannot detect the mail provider .*set provider.*\(invalid_entry\)$/,
		);
	});

	it('keeps failed entries in the main output with "Continue (using regular output)"', async () => {
		const { apiKey } = await server.newAccount();
		const result = await run(apiKey, mixed(), {}, 'continueRegularOutput');
		const out = outputOf(result, NODE);
		expect(out).toHaveLength(5);
		expect(out.filter((o) => o.json.error !== undefined).map((o) => o.pairedItem)).toEqual([
			{ item: 1 },
			{ item: 3 },
		]);
	});

	it('fails otherwise, saying which entries were created and which failed', async () => {
		const { apiKey } = await server.newAccount();
		const result = await run(apiKey, mixed());
		expect(result.status).toBe('error');
		const error = errorOf(result)!;
		expect(error.message).toMatch(
			/^2 inbox\(es\) could not be created: 1 \(bad1@gmail.com: Connection test failed/,
		);
		expect(error.description).toMatch(
			/Created: 3 \(items 0 \(good0@gmail.com\), 2 \(good2@yahoo.com\), 4 \(good4@gmail.com\)\)/,
		);
		expect(error.itemIndex).toBe(1);
	});

	it('fails an item with an empty email before sending anything for it', async () => {
		const { apiKey } = await server.newAccount();
		const result = await run(
			apiKey,
			[
				{ email: '', appPassword: 'pw' },
				{ email: 'fine@gmail.com', appPassword: 'pw' },
			],
			{},
			'continueErrorOutput',
		);
		expect(outputOf(result, NODE, 1)).toEqual([
			expect.objectContaining({
				pairedItem: { item: 0 },
				json: expect.objectContaining({ error: 'Email Address is empty' }),
			}),
		]);
		expect(outputOf(result, NODE, 0)).toHaveLength(1);
		const regular = await run(
			apiKey,
			[
				{ email: 'first@gmail.com', appPassword: 'pw' },
				{ email: '', appPassword: 'pw' },
			],
			{},
			'continueRegularOutput',
		);
		expect(outputOf(regular, NODE).map((o) => o.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	describe('hourly limit', () => {
		const fill = async () => {
			const { apiKey } = await server.newAccount();
			for (let b = 0; b < 10; b++) {
				const body = Array.from({ length: 100 }, (_, i) => ({
					emailAddress: `fill${b}-${i}@gmail.com`,
					imapPassword: 'pw',
					skipConnectionTest: true,
				}));
				expect((await server.call('POST', '/api/v1/inboxes', { key: apiKey, body })).status).toBe(
					200,
				);
			}
			return apiKey;
		};

		it('waits out a 429 (Retry-After) and retries the same batch', async () => {
			const apiKey = await fill();
			// The window's oldest creations age out about two seconds from now.
			await server.admin('POST', '/clock', { advanceSeconds: 3598 });
			const before = postRequests();
			const started = Date.now();
			const result = await run(apiKey, items(5, 'late'), { options: { maxRateLimitWait: 30 } });
			expect(result.status).toBe('success');
			expect(outputOf(result, NODE)).toHaveLength(5);
			expect(postRequests() - before).toBe(2);
			expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
		});

		it('fails clearly when the wait would exceed the maximum', async () => {
			const apiKey = await fill();
			const result = await run(apiKey, items(5, 'never'), { options: { maxRateLimitWait: 5 } });
			const error = errorOf(result)!;
			expect(error.message).toMatch(
				/Hourly inbox limit reached; the service asks to wait \d+ s, more than the allowed maximum wait/,
			);
			expect(error.description).toMatch(/0 inbox\(es\) were created before the limit/);
			expect(
				(await server.call('GET', '/api/v1/inboxes?limit=1', { key: apiKey })).body.pagination
					.total,
			).toBe(1000);
		});
	});
});
