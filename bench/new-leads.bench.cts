import { hintsOf, loadWorkflow, runWorkflow, stopEngineTimers } from '../test/helpers/n8n.cjs';
import { startServer, type TestServer } from '../test/helpers/server.cjs';
import { line } from './support.cjs';

/**
 * What Fetch Leads' numbers rest on, measured on the reference server: how long one search takes
 * by count (the time each request of a New Leads Wanted climb costs), how many requests and how long
 * five daily pulls of 25 new leads take with and without the remembered depth, and the share of
 * contacts without an email (charged, then left out by Only Contacts With an Email).
 */
async function timedSearch(server: TestServer, apiKey: string, body: object) {
	const started = process.hrtime.bigint();
	const answer = await server.call('POST', '/api/v1/niche-finder-leads', { key: apiKey, body });
	return { answer, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

export async function benchNewLeads(): Promise<void> {
	const server = await startServer();
	try {
		console.log('\nFetch Leads: search time, New Leads Wanted, contacts without an email');
		// A city not searched before for each count, so no website scan is served from a cache.
		const cities = ['Portland, OR', 'Nashville', 'Columbus, OH', 'Omaha', 'Tucson'];
		for (const [k, count] of [25, 100, 250, 500, 1000].entries()) {
			const { apiKey } = await server.newAccount({ credits: 1000 });
			const { answer, ms } = await timedSearch(server, apiKey, {
				niche: 'dentist',
				city: cities[k],
				count,
			});
			line(
				`one search, count ${count}`,
				`${(ms / 1000).toFixed(2)} s (${answer.body.contacts.length} contacts)`,
			);
		}

		const workflow = loadWorkflow('fetch-leads.json');
		for (const remembered of [true, false]) {
			const { apiKey } = await server.newAccount({ credits: 1000 });
			const staticData = {};
			const runs: string[] = [];
			let total = 0;
			for (let day = 1; day <= 5; day++) {
				const started = process.hrtime.bigint();
				const result = await runWorkflow(workflow, {
					credentials: { apiKey, leadsBaseUrl: server.url, inboxBaseUrl: `${server.url}/api/v1` },
					pinData: { "When clicking 'Execute workflow'": [{ niche: 'plumber', city: 'Atlanta' }] },
					parameters: { 'Fetch Leads': { countMode: 'newLeads', count: 25 } },
					staticData: remembered ? staticData : {},
				});
				total += Number(process.hrtime.bigint() - started) / 1e6;
				runs.push(/(\d+) requests?/.exec(hintsOf(result, 'Fetch Leads')[1] ?? '')?.[1] ?? '?');
			}
			line(
				`5 daily pulls of 25 new, ${remembered ? 'depth remembered' : 'no memory (manual runs)'}`,
				`requests per run ${runs.join(', ')}; ${(total / 1000).toFixed(1)} s in all`,
			);
		}

		let contacts = 0;
		let withoutEmail = 0;
		for (const niche of ['dentist', 'plumber', 'hair salon', 'roofer', 'lawyer', 'florist'])
			for (const city of ['Austin, TX', 'Denver', 'Seattle', 'Munich, Germany', 'Boise']) {
				const { apiKey } = await server.newAccount({ credits: 1000 });
				const { answer } = await timedSearch(server, apiKey, { niche, city, count: 200 });
				for (const contact of answer.body.contacts ?? []) {
					contacts++;
					if (!contact.email) withoutEmail++;
				}
			}
		line(
			'contacts without an email',
			`${withoutEmail} of ${contacts} (${((100 * withoutEmail) / contacts).toFixed(1)} %), 30 searches of 200`,
		);
	} finally {
		await server.close();
		stopEngineTimers();
	}
}

if (require.main === module) void benchNewLeads().then(() => process.exit(0));
