import {
	errorOf,
	loadWorkflow,
	outputOf,
	type RunOptions,
	runWorkflow,
	stopEngineTimers,
} from '../helpers/n8n.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';

/*
 * What a careful operator and an AI agent rely on: Max Credits per Run refuses before anything is
 * sent, the Spend output carries what each search charged, and each node used as a tool answers
 * with one item that says what happened (the only thing n8n hands the model).
 */
describe('spend limits, spend as data and the nodes as AI tools', () => {
	let server: TestServer;
	const TRIGGER = "When clicking 'Execute workflow'";
	const LEADS = 'Fetch Leads';
	const searches = () => server.requestCount('POST', '/api/v1/niche-finder-leads');
	const credentialsOf = (apiKey: string) => ({
		apiKey,
		leadsBaseUrl: server.url,
		inboxBaseUrl: `${server.url}/api/v1`,
	});
	const run = (
		file: string,
		node: string,
		apiKey: string,
		items: object[],
		options: Omit<Partial<RunOptions>, 'parameters'> & { parameters?: object } = {},
	) =>
		runWorkflow(loadWorkflow(file), {
			...options,
			credentials: credentialsOf(apiKey),
			pinData: { [TRIGGER]: items as never },
			parameters: { [node]: (options.parameters ?? {}) as never },
		});
	const asTool = (type: string) => ({ type: `n8n-nodes-lead-inbox.${type}Tool` });
	const credits = async (accountId: string) =>
		(await server.admin('GET', `/accounts/${accountId}`)).body.credits as number;

	const NICHES = ['dentist', 'plumber', 'roofer', 'florist', 'bakery'];
	const CITIES = ['Austin, TX', 'Denver', 'Seattle', 'Boston', 'Chicago'];
	/** 50 searches of 5 leads each over 25 niche-and-city pairs: 250 credits could be charged. */
	const fifty = Array.from({ length: 50 }, (_, i) => ({
		niche: NICHES[i % 5],
		city: CITIES[Math.floor(i / 5) % 5],
		count: 5,
	}));

	beforeAll(async () => {
		server = await startServer();
	});
	afterAll(async () => {
		await server.close();
		stopEngineTimers();
	});

	it('refuses a run whose searches could pass Max Credits per Run before sending any, charging nothing', async () => {
		const { accountId, apiKey } = await server.newAccount({ credits: 1000 });
		const before = searches();
		const result = await run('fetch-leads.json', LEADS, apiKey, fifty, {
			parameters: { options: { maxCreditsPerRun: 100 } },
		});
		expect(errorOf(result)).toMatchObject({
			message:
				'Max Credits per Run (100) would be passed: this search may charge up to 5 credits and 100 credits may already be spent in this run',
			description: expect.stringMatching(/^Nothing was sent for this item and nothing was charged/),
		});
		expect(searches() - before).toBe(0);
		expect(await credits(accountId)).toBe(1000);
	});

	it('with Continue On Fail runs the searches that fit the cap, refuses the rest unsent, and the Spend output adds up to the ledger', async () => {
		const { accountId, apiKey } = await server.newAccount({ credits: 1000 });
		const before = searches();
		const result = await run('fetch-leads.json', LEADS, apiKey, fifty, {
			parameters: { options: { maxCreditsPerRun: 100 }, spendOutput: true },
			nodes: { [LEADS]: { typeVersion: 1.1 } },
			onError: { [LEADS]: 'continueRegularOutput' },
		});
		expect(result.status).toBe('success');
		expect(searches() - before).toBe(20);
		const leads = outputOf(result, LEADS, 0);
		const refused = leads.filter((item) => item.json.error);
		expect(refused.map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 30 }, (_, k) => ({ item: 20 + k })),
		);
		const spend = outputOf(result, LEADS, 1);
		expect(spend.map((item) => item.pairedItem)).toEqual(
			Array.from({ length: 20 }, (_, item) => ({ item })),
		);
		expect(spend[0].json).toEqual({
			niche: 'dentist',
			city: 'Austin, TX',
			requested: 5,
			chargedCredits: 5,
			refundedCredits: 0,
			leads: 5,
			nothingFound: false,
		});
		const charged = spend.reduce((sum, item) => sum + (item.json.chargedCredits as number), 0);
		expect(charged).toBe(leads.length - refused.length);
		expect(await credits(accountId)).toBe(1000 - charged);
	});

	it('keeps one output at version 1 (old workflows), and gives version 1.1 the Spend output by default', async () => {
		const { apiKey } = await server.newAccount();
		const item = [{ niche: 'dentist', city: 'Austin, TX', count: 2 }];
		const v1 = await run('fetch-leads.json', LEADS, apiKey, item);
		expect(v1.data.resultData.runData[LEADS][0].data!.main).toHaveLength(1);
		const v11 = await run('fetch-leads.json', LEADS, apiKey, item, {
			nodes: { [LEADS]: { typeVersion: 1.1 } },
		});
		const main = v11.data.resultData.runData[LEADS][0].data!.main;
		expect(main).toHaveLength(2);
		// The same two leads again: held already, so nothing charged and the reservation refunded.
		expect(main[1]).toEqual([
			{
				json: expect.objectContaining({
					requested: 2,
					chargedCredits: 0,
					refundedCredits: 2,
					leads: 0,
				}),
				pairedItem: { item: 0 },
			},
		]);
	});

	describe('as tools', () => {
		it('Fetch Leads tells the agent the leads and what they cost, and that nothing was found', async () => {
			const { accountId, apiKey } = await server.newAccount({ credits: 500 });
			const found = await run(
				'fetch-leads.json',
				LEADS,
				apiKey,
				[{ niche: 'plumber', city: 'Denver', count: 3 }],
				{ nodes: { [LEADS]: asTool('fetchLeads') } },
			);
			const [answer] = outputOf(found, LEADS);
			expect(outputOf(found, LEADS)).toHaveLength(1);
			expect(answer.json).toMatchObject({
				summary: '3 new leads for "plumber" in "Denver". Charged 3 credits.',
				nothingFound: false,
				leadCount: 3,
				chargedCredits: 3,
				refundedCredits: 0,
				maxCreditsPerRun: 100,
			});
			expect(answer.json.leads).toHaveLength(3);
			expect(await credits(accountId)).toBe(497);

			const none = await run(
				'fetch-leads.json',
				LEADS,
				apiKey,
				[{ niche: 'unicorn trainer', city: 'Austin', count: 5 }],
				{ nodes: { [LEADS]: asTool('fetchLeads') } },
			);
			expect(outputOf(none, LEADS).map((item) => item.json)).toEqual([
				{
					summary:
						'Nothing found: the service has no business for "unicorn trainer" in "Austin". Nothing was charged.',
					nothingFound: true,
					leadCount: 0,
					chargedCredits: 0,
					refundedCredits: 0,
					maxCreditsPerRun: 100,
					leads: [],
				},
			]);
		});

		it('Fetch Leads holds an agent to 100 credits over all its calls in one execution unless the user set a cap', async () => {
			const { accountId, apiKey } = await server.newAccount({ credits: 1000 });
			const call = (count: number, niche: string) =>
				run('fetch-leads.json', LEADS, apiKey, [{ niche, city: 'Boston', count }], {
					nodes: { [LEADS]: asTool('fetchLeads') },
					executionId: `agent-run-${accountId}`,
				});
			const first = outputOf(await call(60, 'dentist'), LEADS)[0].json.chargedCredits as number;
			expect(first).toBeGreaterThan(40);
			// The refusal is the tool's answer: the model reads it (a thrown error reaches an Agent
			// before version 3 as an empty string).
			const second = await call(60, 'roofer');
			expect(errorOf(second)).toBeUndefined();
			const refusal = `Max Credits per Run (100) would be passed: this search may charge up to 60 credits and ${first} credits may already be spent in this run`;
			expect(outputOf(second, LEADS)).toEqual([
				expect.objectContaining({
					json: expect.objectContaining({
						error: refusal,
						summary: expect.stringMatching(
							/^The call failed: Max Credits per Run \(100\) would be passed/,
						),
					}),
				}),
			]);
			expect(await credits(accountId)).toBe(1000 - first);
			const allowed = await run(
				'fetch-leads.json',
				LEADS,
				apiKey,
				[{ niche: 'roofer', city: 'Boston', count: 150 }],
				{
					nodes: { [LEADS]: asTool('fetchLeads') },
					parameters: { options: { maxCreditsPerRun: 500 } },
				},
			);
			// Past the default of 100: the search ran (two results sharing an email count once).
			expect(outputOf(allowed, LEADS)[0].json.chargedCredits).toBeGreaterThan(100);
		});

		it("holds Max Credits per Run when an agent's tool calls of one execution run at once: the account loses at most the cap", async () => {
			const { accountId, apiKey } = await server.newAccount({ credits: 1000 });
			// Five calls of up to 30 credits each, side by side, under a cap of 100.
			const calls = await Promise.all(
				NICHES.map((niche) =>
					run('fetch-leads.json', LEADS, apiKey, [{ niche, city: 'Chicago', count: 30 }], {
						nodes: { [LEADS]: asTool('fetchLeads') },
						parameters: { options: { maxCreditsPerRun: 100 } },
						executionId: `parallel-agent-run-${accountId}`,
					}),
				),
			);
			const answers = calls.map((call) => outputOf(call, LEADS)[0].json);
			const refused = answers.map((answer) => answer.error).filter(Boolean);
			expect(refused.length).toBeGreaterThanOrEqual(2);
			for (const message of refused)
				expect(message).toMatch(
					/^Max Credits per Run \(100\) would be passed: this search may charge up to 30 credits and \d+ credits may already be spent in this run$/,
				);
			const charged = answers
				.filter((answer) => !answer.error)
				.map((answer) => answer.chargedCredits as number);
			expect(1000 - (await credits(accountId))).toBe(charged.reduce((a, b) => a + b, 0));
			expect(1000 - (await credits(accountId))).toBeLessThanOrEqual(100);
		});

		it('Create Inboxes tells the agent what was created, what failed and why, on its first output', async () => {
			const { apiKey } = await server.newAccount();
			const result = await run(
				'create-inboxes.json',
				'Create Inboxes',
				apiKey,
				[
					{ email: 'agent0@gmail.com', appPassword: 'pw' },
					{ email: 'agent1@gmail.com', appPassword: 'invalid-password' },
					{ email: 'agent0@gmail.com', appPassword: 'pw' },
				],
				{ nodes: { 'Create Inboxes': asTool('createInboxes') } },
			);
			const answers = outputOf(result, 'Create Inboxes', 0);
			expect(answers).toHaveLength(1);
			expect(answers[0].json).toEqual({
				summary: expect.stringMatching(
					/^1 inbox created, 2 failed \(agent1@gmail\.com: connection_failed; agent0@gmail\.com: email_exists\)\.$/,
				),
				createdCount: 1,
				failedCount: 2,
				unknownCount: 0,
				created: [
					{
						emailAddress: 'agent0@gmail.com',
						inboxId: expect.any(String),
						poolId: expect.any(String),
						poolName: expect.stringMatching(/^Pool /),
					},
				],
				failed: [
					{
						emailAddress: 'agent1@gmail.com',
						code: 'connection_failed',
						reason: expect.stringMatching(/authentication refused/),
					},
					{ emailAddress: 'agent0@gmail.com', code: 'email_exists', reason: expect.any(String) },
				],
				unknown: [],
			});
			expect(JSON.stringify(answers)).not.toContain('invalid-password');
		});

		it('Create Inboxes as a tool says at once when the hourly limit frees instead of waiting', async () => {
			const { apiKey } = await server.newAccount();
			await server.fillInboxes(apiKey, 1000, 'quota');
			const result = await run(
				'create-inboxes.json',
				'Create Inboxes',
				apiKey,
				[{ email: 'late0@gmail.com', appPassword: 'pw' }],
				{ nodes: { 'Create Inboxes': asTool('createInboxes') } },
			);
			const [answer] = outputOf(result, 'Create Inboxes', 0);
			expect(answer.json).toMatchObject({
				createdCount: 0,
				failed: [
					{
						emailAddress: 'late0@gmail.com',
						code: 'rate_limited',
						reason: expect.stringMatching(
							/hourly inbox limit was reached; it frees at \d\d:\d\d UTC/,
						),
					},
				],
			});
		});

		it('List Inboxes and List Pools tell the agent what was listed and whether more exist', async () => {
			const { apiKey } = await server.newAccount();
			await server.fillInboxes(apiKey, 7, 'listed');
			const inboxes = await run('list-pools-and-inboxes.json', 'List Inboxes', apiKey, [{}], {
				nodes: { 'List Inboxes': asTool('listInboxes') },
				parameters: { returnAll: false, limit: 5 },
			});
			const [listing] = outputOf(inboxes, 'List Inboxes');
			expect(listing.json).toMatchObject({
				summary:
					'Listed 5 inboxes of 7. More exist: 2 not listed (raise Limit or turn on Return All).',
				listed: 5,
				total: 7,
				hasMore: true,
			});
			expect(listing.json.inboxes).toHaveLength(5);
			const pools = await run('list-pools-and-inboxes.json', 'List Pools', apiKey, [{}], {
				nodes: { 'List Pools': asTool('listPools') },
			});
			expect(outputOf(pools, 'List Pools').map((item) => item.json)).toEqual([
				{
					summary: 'Listed all 1 pool of the account.',
					listed: 1,
					hasMore: false,
					pools: [expect.objectContaining({ inboxCount: 7 })],
				},
			]);
		});
	});
});
