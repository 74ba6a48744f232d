import {
	errorOf,
	hintsOf,
	loadWorkflow,
	outputOf,
	runWorkflow,
	stopEngineTimers,
} from '../helpers/n8n.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';

describe('Fetch Leads node', () => {
	let server: TestServer;
	const workflow = loadWorkflow('fetch-leads.json');
	const TRIGGER = "When clicking 'Execute workflow'";
	const run = async (
		key: string,
		items: object[],
		parameters: object = {},
		onError?: 'continueRegularOutput' | 'continueErrorOutput',
	) =>
		runWorkflow(workflow, {
			credentials: {
				apiKey: key,
				leadsBaseUrl: `${server.url}/`,
				inboxBaseUrl: `${server.url}/api/v1`,
			},
			pinData: { [TRIGGER]: items as never },
			parameters: { 'Fetch Leads': parameters as never },
			onError: onError ? { 'Fetch Leads': onError } : undefined,
		});

	beforeAll(async () => {
		server = await startServer({ scanTimeoutMs: 3000 });
	});
	afterAll(async () => {
		await server.close();
		stopEngineTimers();
	});

	it('outputs one item per contact, paired to its input item, and reports the credits charged', async () => {
		const { apiKey, accountId } = await server.newAccount({ credits: 100 });
		const result = await run(apiKey, [
			{ niche: 'dentist', city: 'Austin, TX', count: 4 },
			{ niche: 'plumber', city: 'Munich, Germany', count: 3 },
		]);
		expect(result.status).toBe('success');
		const items = outputOf(result, 'Fetch Leads');
		expect(items).toHaveLength(7);
		expect(items.map((i) => i.pairedItem)).toEqual([
			...Array(4).fill({ item: 0 }),
			...Array(3).fill({ item: 1 }),
		]);
		expect(items[0].json).toEqual(
			expect.objectContaining({
				businessName: expect.any(String),
				emails: expect.any(Array),
				googleBusinessCategories: expect.any(Array),
			}),
		);
		expect(hintsOf(result, 'Fetch Leads')).toEqual(['Charged 7 credits for 7 new leads.']);
		expect((await server.admin('GET', `/accounts/${accountId}`)).body.credits).toBe(93);
	});

	it('outputs the full response as one item and sends the filters', async () => {
		const { apiKey } = await server.newAccount();
		const result = await run(apiKey, [{ niche: 'hair salon', city: 'Austin', count: 5 }], {
			output: 'response',
			metaAds: 'yes',
			gAnalytics: 'no',
		});
		const [item] = outputOf(result, 'Fetch Leads');
		expect(item.json.chargedCredits).toBe(5);
		const contacts = item.json.contacts as { fbPixel: boolean; gAnalytics: boolean }[];
		expect(contacts).toHaveLength(5);
		for (const c of contacts) expect([c.fbPixel, c.gAnalytics]).toEqual([true, false]);
	});

	it('leaves contacts without an email out when asked, still reporting what was charged', async () => {
		const { apiKey, accountId } = await server.newAccount({ credits: 1000 });
		const result = await run(apiKey, [{ niche: 'dentist', city: 'Houston, TX', count: 150 }], {
			options: { onlyWithEmail: true },
		});
		const items = outputOf(result, 'Fetch Leads');
		const charged = 1000 - (await server.admin('GET', `/accounts/${accountId}`)).body.credits;
		const dropped = charged - items.length;
		expect(dropped).toBeGreaterThan(0);
		expect(items.every((i) => typeof i.json.email === 'string' && i.json.email !== '')).toBe(true);
		expect(hintsOf(result, 'Fetch Leads')).toEqual([
			`Charged ${charged} credits for ${items.length} new leads (${dropped} charged contact${dropped === 1 ? '' : 's'} without an email left out).`,
		]);
	});

	it('fails on 402 saying how many credits were needed, with nothing charged', async () => {
		const { apiKey, accountId } = await server.newAccount({ credits: 3 });
		const result = await run(apiKey, [{ niche: 'dentist', city: 'Austin', count: 10 }]);
		expect(result.status).toBe('error');
		const error = errorOf(result)!;
		expect(error.message).toContain('needs 10');
		expect(error.description).toContain('needs 10 credits');
		expect(error.httpCode).toBe('402');
		expect((await server.admin('GET', `/accounts/${accountId}`)).body.credits).toBe(3);
	});

	it('fails on 400 naming the field, and suggests the nearest city for an unknown one', async () => {
		const { apiKey } = await server.newAccount();
		const city = errorOf(await run(apiKey, [{ niche: 'dentist', city: 'Atlantis', count: 1 }]))!;
		// The service's own hint, said once (not repeated in the description).
		expect(city.message).toBe(
			"City 'Atlantis' could not be resolved to a location. Did you mean 'Atlanta, GA'? (HTTP 400 from the lead search service)",
		);
		expect(city.description).toBe('city: could not be resolved to a location.');
		const count = errorOf(await run(apiKey, [{ niche: 'dentist', city: 'Austin', count: 5000 }]))!;
		expect(count.message).toMatch(/Count must be a whole number from 1 to 1000/);
	});

	it('outputs nothing on 404 by default, and fails when asked to', async () => {
		const { apiKey } = await server.newAccount();
		const quiet = await run(apiKey, [{ niche: 'unicorn trainer', city: 'Austin', count: 5 }]);
		expect(quiet.status).toBe('success');
		expect(outputOf(quiet, 'Fetch Leads')).toEqual([]);
		const loud = await run(apiKey, [{ niche: 'unicorn trainer', city: 'Austin', count: 5 }], {
			options: { failOnNotFound: true },
		});
		expect(errorOf(loud)).toMatchObject({
			message: expect.stringMatching(/No businesses found/),
			httpCode: '404',
		});
	});

	it('fails, charging nothing, when the Lead Search Base URL reaches the server on a wrong path', async () => {
		const { apiKey, accountId } = await server.newAccount({ credits: 50 });
		const result = await runWorkflow(workflow, {
			credentials: {
				apiKey,
				leadsBaseUrl: `${server.url}/leads`,
				inboxBaseUrl: `${server.url}/api/v1`,
			},
			pinData: { [TRIGGER]: [{ niche: 'dentist', city: 'Austin', count: 5 }] as never },
		});
		expect(result.status).toBe('error');
		expect(errorOf(result)?.message).toBe(
			"The lead search endpoint was not found at the credential's Lead Search Base URL",
		);
		expect((await server.admin('GET', `/accounts/${accountId}`)).body.credits).toBe(50);
	});

	it('says the connection broke, and that the search may have been charged, when it drops (an injected fault)', async () => {
		const { apiKey, accountId } = await server.newAccount({ credits: 10 });
		await server.admin('POST', '/faults', { route: 'POST /api/v1/niche-finder-leads', drop: true });
		const result = await run(apiKey, [{ niche: 'dentist', city: 'Austin', count: 2 }]);
		expect(errorOf(result)).toMatchObject({
			message: `The connection to the lead search service at ${server.url} broke before it answered`,
			description: expect.stringMatching(/may have charged credits.*check the account/),
		});
		// This server refunds a search whose client is gone; the node cannot know that.
		expect((await server.admin('GET', `/accounts/${accountId}`)).body.credits).toBe(10);
	});

	it('fails on 401 without leaking the key', async () => {
		const result = await run('lik_this-key-is-wrong', [
			{ niche: 'dentist', city: 'Austin', count: 1 },
		]);
		const error = errorOf(result)!;
		expect(error.httpCode).toBe('401');
		expect(error.message).toMatch(/Invalid API key/);
		expect(JSON.stringify(result.data.resultData.error)).not.toContain('lik_this-key-is-wrong');
	});

	it('continues on fail per item, pairing the error item to its input', async () => {
		const { apiKey } = await server.newAccount({ credits: 10 });
		const items = [
			{ niche: 'dentist', city: 'Atlantis', count: 1 },
			{ niche: 'dentist', city: 'Austin', count: 2 },
		];
		const regular = await run(apiKey, items, {}, 'continueRegularOutput');
		expect(regular.status).toBe('success');
		const out = outputOf(regular, 'Fetch Leads');
		expect(out[0]).toMatchObject({
			json: { error: expect.stringMatching(/Atlantis/) },
			pairedItem: { item: 0 },
		});
		expect(out.slice(1).map((i) => i.pairedItem)).toEqual([{ item: 1 }, { item: 1 }]);
	});
});
