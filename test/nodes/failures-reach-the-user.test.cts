import type { IDataObject } from 'n8n-workflow';
import { errorOf, loadWorkflow, outputOf, runWorkflow, stopEngineTimers } from '../helpers/n8n.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';

/*
 * Every failure reaches the user, whatever the node's On Error setting: Stop Workflow fails the run
 * naming the cause, Continue (regular output) gives an error item, Continue (using error output)
 * puts one on the error output. Never a success that hides it (docs/nodes.md, "A request of the
 * climb that fails"). Each row arms route faults for its own account only, so rows share one server.
 */

const SEARCH = 'POST /api/v1/niche-finder-leads';
type OnError = 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
const SETTINGS: OnError[] = ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'];

/** A failure as a route fault, and how its error names the cause. */
const FAILURES: Record<string, { fault: IDataObject; cause: RegExp }> = {
	'a refused request (400)': {
		fault: { status: 400, body: { error: 'Field niche is not allowed here' } },
		cause: /Field niche is not allowed here \(HTTP 400/,
	},
	'a server error (503)': { fault: { status: 503 }, cause: /HTTP 503/ },
	'not enough credits (402)': {
		fault: { status: 402, body: { error: 'Insufficient credits: 3 available, 10 needed' } },
		cause: /Insufficient credits.*\(HTTP 402/,
	},
	'a dropped connection': { fault: { drop: true }, cause: /broke before it answered/ },
};

/** A contact as the service answers it, for a first answer armed as a fault. */
const contact = (n: number) => ({
	businessName: `Armed Dental ${n}`,
	address: `${n} Main St, Austin, TX`,
	website: null,
	email: `office${n}@armed-dental.test`,
	emails: [`office${n}@armed-dental.test`],
	phone: null,
	phone_numbers: [],
	instagram: null,
	facebook: null,
	linkedin: null,
	tiktok: null,
	fbPixel: null,
	tikTokPixel: null,
	gAnalytics: null,
	googleBusinessCategories: [],
});

/**
 * How a search fails: its only request; the climb's first request; the climb's second after the
 * first brought nothing new (every top result held: nothing gained); the climb's second after the
 * first brought two leads (charged: they must not be lost).
 */
const SEARCHES: Record<string, { parameters: IDataObject; before: IDataObject[]; gained: number }> =
	{
		'Fetch Leads (Leads Requested)': { parameters: { count: 3 }, before: [], gained: 0 },
		'Fetch Leads (New Leads Wanted), first request': {
			parameters: { countMode: 'newLeads', count: 10 },
			before: [],
			gained: 0,
		},
		'Fetch Leads (New Leads Wanted), mid-climb with nothing gained': {
			parameters: { countMode: 'newLeads', count: 10 },
			before: [{ status: 200, body: { contacts: [], chargedCredits: 0 } }],
			gained: 0,
		},
		'Fetch Leads (New Leads Wanted), mid-climb after leads were charged': {
			parameters: { countMode: 'newLeads', count: 10 },
			before: [{ status: 200, body: { contacts: [contact(1), contact(2)], chargedCredits: 2 } }],
			gained: 2,
		},
	};

describe('a failure reaches the user under every On Error setting', () => {
	let server: TestServer;
	beforeAll(async () => {
		server = await startServer({ scanTimeout: 3000 });
	});
	afterAll(async () => {
		await server.close();
		stopEngineTimers();
	});

	const rows = Object.entries(SEARCHES).flatMap(([search, how]) =>
		Object.entries(FAILURES).flatMap(([failure, what]) =>
			SETTINGS.map((onError) => [search, failure, onError, how, what] as const),
		),
	);

	/** One run of Fetch Leads whose requests meet the faults armed: `before` first, then `fault`. */
	const runFailing = async (
		how: (typeof SEARCHES)[string],
		fault: IDataObject,
		settings: { onError?: OnError; asTool?: boolean },
	) => {
		const { apiKey, accountId } = await server.newAccount({ credits: 1000 });
		for (const before of how.before)
			await server.admin('POST', '/faults', { route: SEARCH, times: 1, accountId, ...before });
		await server.admin('POST', '/faults', { route: SEARCH, times: 10, accountId, ...fault });
		return await runWorkflow(loadWorkflow('fetch-leads.json'), {
			credentials: {
				apiKey,
				leadsBaseUrl: `${server.url}/`,
				inboxBaseUrl: `${server.url}/api/v1`,
			},
			pinData: { "When clicking 'Execute workflow'": [{ niche: 'dentist', city: 'Austin, TX' }] },
			parameters: { 'Fetch Leads': how.parameters },
			...(settings.onError ? { onError: { 'Fetch Leads': settings.onError } } : {}),
			...(settings.asTool
				? { nodes: { 'Fetch Leads': { type: 'n8n-nodes-lead-inbox.fetchLeadsTool' } } }
				: {}),
		});
	};

	it.each(rows)('%s, %s, On Error = %s', async (_search, _failure, onError, how, what) => {
		const result = await runFailing(how, what.fault, { onError });
		const leads = outputOf(result, 'Fetch Leads', 0);
		if (onError === 'stopWorkflow') {
			expect(result.data.resultData.error).toBeDefined();
			expect(errorOf(result)).toMatchObject({
				message: expect.stringMatching(what.cause),
				node: 'Fetch Leads',
			});
			// Leads charged before the failure are named by the error, not lost.
			if (how.gained)
				expect(errorOf(result)!.description).toMatch(
					/Before it failed, the climb added 2 new leads .*Armed Dental 1 office1@armed-dental\.test; Armed Dental 2/,
				);
			return;
		}
		expect(result.data.resultData.error).toBeUndefined();
		const errorItems =
			onError === 'continueErrorOutput'
				? outputOf(result, 'Fetch Leads', 1)
				: leads.filter((item) => item.json.error);
		expect(errorItems).toEqual([
			expect.objectContaining({
				json: expect.objectContaining({ error: expect.stringMatching(what.cause) }),
			}),
		]);
		const good = leads.filter((item) => !item.json.error);
		expect(good.map((item) => item.json.email)).toEqual(
			Array.from({ length: how.gained }, (_, n) => `office${n + 1}@armed-dental.test`),
		);
		expect([...good, ...errorItems].every((item) => item.pairedItem)).toBe(true);
	});

	// An agent's model sees only the tool's answer: with leads gained, the answer says both; with
	// nothing gained, the answer is the failure (a tool that throws reaches an Agent before
	// version 3 as an empty string).
	it.each(Object.entries(SEARCHES))('as an AI tool: %s, a server error', async (_search, how) => {
		const result = await runFailing(how, FAILURES['a server error (503)'].fault, { asTool: true });
		expect(result.data.resultData.error).toBeUndefined();
		const [answer, ...more] = outputOf(result, 'Fetch Leads');
		expect(more).toEqual([]);
		if (!how.gained) {
			expect(answer.json).toEqual({
				summary: expect.stringMatching(/^The call failed: .*HTTP 503/),
				error: expect.stringMatching(/HTTP 503/),
				details: expect.any(String),
				httpCode: '503',
			});
			return;
		}
		expect(answer.json).toMatchObject({
			leadCount: 2,
			error: expect.stringMatching(/HTTP 503/),
			summary: expect.stringMatching(
				/^2 new leads for .*Charged 2 credits.*Then the search failed before it found all the leads wanted: .*HTTP 503.*The leads above are kept/,
			),
		});
	});
});
