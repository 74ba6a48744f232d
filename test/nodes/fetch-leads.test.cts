import type { IDataObject } from 'n8n-workflow';
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
		server = await startServer({ scanTimeout: 3000 });
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

	describe('Count Mode: New Leads Wanted', () => {
		const newLeads = (wanted: number, extra: object = {}) => ({
			countMode: 'newLeads',
			count: wanted,
			...extra,
		});
		const identity = (json: Record<string, unknown>) =>
			JSON.stringify([json.businessName, json.address]);
		const creditsOf = async (accountId: string) =>
			(await server.admin('GET', `/accounts/${accountId}`)).body.credits as number;

		it('a scheduled pull returns new leads every run, charges exactly them, and, remembering its depth, skips the climb through held results', async () => {
			const { apiKey, accountId } = await server.newAccount({ credits: 1000 });
			// One saved workflow: n8n keeps its static data between runs of a published workflow.
			const staticData = {};
			const seen = new Set<string>();
			let credits = 1000;
			let depth = 0;
			for (const day of [1, 2, 3]) {
				const result = await runWorkflow(workflow, {
					credentials: {
						apiKey,
						leadsBaseUrl: `${server.url}/`,
						inboxBaseUrl: `${server.url}/api/v1`,
					},
					pinData: { [TRIGGER]: [{ niche: 'dentist', city: 'Austin, TX' }] },
					parameters: { 'Fetch Leads': newLeads(10) as never },
					staticData,
				});
				const items = outputOf(result, 'Fetch Leads');
				expect(items).toHaveLength(10);
				for (const item of items) {
					expect(seen.has(identity(item.json))).toBe(false);
					seen.add(identity(item.json));
				}
				const now = await creditsOf(accountId);
				expect(credits - now).toBe(10);
				credits = now;
				const [charged, climb] = hintsOf(result, 'Fetch Leads');
				expect(charged).toBe('Charged 10 credits for 10 new leads.');
				const walk =
					/^New leads: 10 of 10 wanted; (\d+) requests? searched "dentist" in "Austin, TX" (.*) down to result (\d+), charging 10 credits\.$/.exec(
						climb,
					);
				expect(walk).not.toBeNull();
				const [, requests, from, reached] = walk!;
				if (day === 1) expect(from).toBe('from the top');
				else {
					expect(from).toBe(`below the top ${depth} taken by earlier runs`);
					// Results that share an email count once, so a request can add one less than asked;
					// a remembered depth still spares the climb through the held results.
					expect(Number(requests)).toBeLessThanOrEqual(2);
				}
				depth = Number(reached);
			}
			const contacts = (await server.admin('GET', `/accounts/${accountId}/contacts`)).body.contacts;
			expect(contacts).toHaveLength(30);
		});

		it('Start From the Top forgets the remembered depth: the run searches from the top results again', async () => {
			const { apiKey } = await server.newAccount({ credits: 1000 });
			const staticData = {};
			const pull = async (options: object) =>
				await runWorkflow(workflow, {
					credentials: {
						apiKey,
						leadsBaseUrl: `${server.url}/`,
						inboxBaseUrl: `${server.url}/api/v1`,
					},
					pinData: { [TRIGGER]: [{ niche: 'bakery', city: 'Austin, TX' }] },
					parameters: { 'Fetch Leads': newLeads(5, { options }) as never },
					staticData,
				});
			const searched = () =>
				server.logs.filter((line) => line.includes('"path":"/api/v1/niche-finder-leads"')).length;
			await pull({});
			const before = searched();
			const again = await pull({ fromTheTop: true });
			expect(outputOf(again, 'Fetch Leads')).toHaveLength(5);
			// From the top: the first request asks for the top 5 again (all held), then climbs.
			expect(hintsOf(again, 'Fetch Leads')[1]).toMatch(
				/^New leads: 5 of 5 wanted; \d+ requests searched "bakery" in "Austin, TX" from the top down to result \d+/,
			);
			expect(searched() - before).toBeGreaterThan(1);
		});

		it('without a remembered depth it climbs by what is still missing and never buys more than wanted', async () => {
			const { apiKey, accountId } = await server.newAccount({ credits: 1000 });
			// The account already holds results 1-8 and, from another search, none below.
			await run(apiKey, [{ niche: 'plumber', city: 'Denver', count: 8 }]);
			const before = await creditsOf(accountId);
			const result = await run(apiKey, [{ niche: 'plumber', city: 'Denver' }], newLeads(5));
			expect(outputOf(result, 'Fetch Leads')).toHaveLength(5);
			expect(before - (await creditsOf(accountId))).toBe(5);
			// 5 -> nothing new (all held), 10 -> 2 new, 13 -> 3 new.
			expect(hintsOf(result, 'Fetch Leads')[1]).toBe(
				'New leads: 5 of 5 wanted; 3 requests searched "plumber" in "Denver" from the top down to result 13, charging 5 credits.',
			);
		});

		it('keeps the leads already charged when a later request is refused for credits, and reports the refusal beside them', async () => {
			// 15 credits left: asking for the top 10 adds 5 (10 left), the top 15 needs 15 reserved.
			const refusedMidClimb = async (onError?: 'continueErrorOutput') => {
				const { apiKey, accountId } = await server.newAccount({ credits: 20 });
				await run(apiKey, [{ niche: 'dentist', city: 'Denver', count: 5 }]);
				const result = await run(
					apiKey,
					[{ niche: 'dentist', city: 'Denver' }],
					newLeads(10),
					onError,
				);
				expect(await creditsOf(accountId)).toBe(10);
				return result;
			};
			const both = await refusedMidClimb('continueErrorOutput');
			expect(both.status).toBe('success');
			expect(outputOf(both, 'Fetch Leads')).toHaveLength(5);
			expect(outputOf(both, 'Fetch Leads', 1)).toEqual([
				expect.objectContaining({
					json: expect.objectContaining({ error: expect.stringMatching(/\(HTTP 402/) }),
				}),
			]);
			const [, climb] = hintsOf(both, 'Fetch Leads');
			expect(climb).toMatch(
				/^New leads: 5 of 10 wanted; 1 request searched .* down to result 10, charging 5 credits\. The next request failed: .*\(HTTP 402/,
			);
			expect(climb).toMatch(/the next run goes on from result 10/);
			// Stop Workflow: the run fails, and its error names the 5 leads it could not output.
			const stopped = errorOf(await refusedMidClimb())!;
			expect(stopped.httpCode).toBe('402');
			expect(stopped.description).toMatch(/Before it failed, the climb added 5 new leads/);
		});

		it('stops at Max Requests per Run, saying every result seen was held or none is left', async () => {
			const { apiKey } = await server.newAccount({ credits: 1000 });
			await run(apiKey, [{ niche: 'florist', city: 'Boise', count: 30 }]);
			const result = await run(
				apiKey,
				[{ niche: 'florist', city: 'Boise' }],
				newLeads(5, { options: { maxRequests: 3 } }),
			);
			expect(outputOf(result, 'Fetch Leads')).toHaveLength(0);
			const [charged, climb] = hintsOf(result, 'Fetch Leads');
			expect(charged).toBe('Charged 0 credits for 0 new leads.');
			expect(climb).toContain(
				'3 requests searched "florist" in "Boise" from the top down to result 15',
			);
			expect(climb).toContain('Every result it saw is a contact of the account already');
			expect(climb).toContain('Max Requests per Run');
		});

		describe('with Only Contacts With an Email', () => {
			// Seattle's roofers: results 6, 8, 9 and 13 have no email (and more further down).
			const ROOFERS = { niche: 'roofer', city: 'Seattle' };
			const pull = (apiKey: string, typeVersion: number, staticData: IDataObject, options = {}) =>
				runWorkflow(workflow, {
					credentials: {
						apiKey,
						leadsBaseUrl: `${server.url}/`,
						inboxBaseUrl: `${server.url}/api/v1`,
					},
					pinData: { [TRIGGER]: [ROOFERS] },
					parameters: {
						'Fetch Leads': newLeads(10, {
							options: { onlyWithEmail: true, ...options },
							spendOutput: true,
						}) as never,
					},
					nodes: { 'Fetch Leads': { typeVersion } },
					staticData,
				});

			it('version 1.2 keeps looking until it has that many leads with an email: three scheduled runs bring 10 each, none twice, charging what the service charged', async () => {
				const { apiKey, accountId } = await server.newAccount({ credits: 1000 });
				const staticData = {};
				const seen = new Set<string>();
				let credits = 1000;
				for (const day of [1, 2, 3]) {
					const result = await pull(apiKey, 1.2, staticData);
					const items = outputOf(result, 'Fetch Leads');
					expect([day, items.length]).toEqual([day, 10]);
					for (const { json } of items) {
						expect(json.email).toMatch(/@/);
						expect(seen.has(identity(json))).toBe(false);
						seen.add(identity(json));
					}
					const [spend] = outputOf(result, 'Fetch Leads', 1);
					const now = await creditsOf(accountId);
					// What the account lost is what the Spend output says was charged: 10 and the
					// leads without an email among them.
					expect(spend.json).toMatchObject({
						requested: 10,
						leads: 10,
						chargedCredits: credits - now,
						stoppedShort: null,
					});
					expect(credits - now).toBeGreaterThanOrEqual(10);
					// Day 1: results 6, 8, 9 and 13 have no email, so 10 with one take the top 14.
					if (day === 1) expect(credits - now).toBe(14);
					credits = now;
					expect(hintsOf(result, 'Fetch Leads')[1]).toMatch(
						/^New leads with an email: 10 of 10 wanted; \d+ requests? searched "roofer" in "Seattle" /,
					);
				}
				const contacts = (await server.admin('GET', `/accounts/${accountId}/contacts`)).body
					.contacts as unknown[];
				expect(contacts).toHaveLength(1000 - credits);
			});

			it('versions 1 and 1.1 count every lead charged, as before: the first run outputs the 7 of 10 with an email', async () => {
				for (const typeVersion of [1, 1.1]) {
					const { apiKey, accountId } = await server.newAccount({ credits: 1000 });
					const result = await pull(apiKey, typeVersion, {});
					expect(outputOf(result, 'Fetch Leads')).toHaveLength(7);
					expect(await creditsOf(accountId)).toBe(990);
					expect(hintsOf(result, 'Fetch Leads')[0]).toBe(
						'Charged 10 credits for 7 new leads (3 charged contacts without an email left out).',
					);
				}
			});

			it('stops before a request that could pass Max Credits per Run, and the Spend output says why it is short', async () => {
				const { apiKey, accountId } = await server.newAccount({ credits: 1000 });
				const result = await pull(apiKey, 1.2, {}, { maxCreditsPerRun: 12 });
				expect(result.status).toBe('success');
				// Top 10: 7 with an email, 10 charged; 3 more could charge 3, past 12.
				expect(outputOf(result, 'Fetch Leads')).toHaveLength(7);
				expect(await creditsOf(accountId)).toBe(990);
				expect(outputOf(result, 'Fetch Leads', 1)[0].json).toMatchObject({
					leads: 7,
					chargedCredits: 10,
					stoppedShort: 'maxCreditsPerRun',
				});
				expect(hintsOf(result, 'Fetch Leads')[1]).toContain(
					'It stopped at Options > Max Credits per Run (12): the next request could have passed it.',
				);
			});
		});

		it('fails before charging when the first request is refused for credits, naming the depth it asked for', async () => {
			const { apiKey } = await server.newAccount({ credits: 12 });
			const staticData = {};
			const runs = async () =>
				runWorkflow(workflow, {
					credentials: {
						apiKey,
						leadsBaseUrl: `${server.url}/`,
						inboxBaseUrl: `${server.url}/api/v1`,
					},
					pinData: { [TRIGGER]: [{ niche: 'dentist', city: 'Miami' }] },
					parameters: { 'Fetch Leads': newLeads(10) as never },
					staticData,
				});
			expect(outputOf(await runs(), 'Fetch Leads')).toHaveLength(10);
			const error = errorOf(await runs())!;
			expect(error.httpCode).toBe('402');
			expect(error.description).toContain(
				'To find 10 new leads this search asked for the top 20 results, so it needs 20 credits reserved, although at most 10 will be charged.',
			);
		});
	});

	describe('Output', () => {
		it('Simplified gives the ten fields a CRM or an agent needs, named for people', async () => {
			const { apiKey } = await server.newAccount();
			const result = await run(apiKey, [{ niche: 'dentist', city: 'Seattle', count: 20 }], {
				output: 'simplified',
			});
			const items = outputOf(result, 'Fetch Leads').map((i) => i.json);
			expect(items.length).toBeGreaterThan(10);
			for (const lead of items) {
				expect(Object.keys(lead)).toEqual([
					'name',
					'email',
					'phone',
					'website',
					'address',
					'categories',
					'socialProfiles',
					'runsMetaAds',
					'runsTikTokAds',
					'usesGoogleAnalytics',
				]);
				expect(typeof lead.name).toBe('string');
				expect(lead.categories === null || typeof lead.categories === 'string').toBe(true);
				expect(Array.isArray(lead.socialProfiles)).toBe(true);
				for (const flag of ['runsMetaAds', 'runsTikTokAds', 'usesGoogleAnalytics'])
					expect([true, false, null]).toContain(lead[flag]);
			}
			expect(items.some((lead) => typeof lead.email === 'string')).toBe(true);
		});

		it('Selected Fields gives only the fields picked, each present', async () => {
			const { apiKey } = await server.newAccount();
			const result = await run(apiKey, [{ niche: 'dentist', city: 'Seattle', count: 3 }], {
				output: 'selected',
				fields: ['email', 'businessName', 'tiktok'],
			});
			const leads = outputOf(result, 'Fetch Leads');
			expect(leads).toHaveLength(3);
			for (const { json } of leads)
				expect(Object.keys(json)).toEqual(['email', 'businessName', 'tiktok']);
		});
	});
});
