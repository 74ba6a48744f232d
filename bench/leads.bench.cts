import { buildServer } from '../mock-server/src/app.cjs';
import { TEST_CONFIG } from '../test/helpers/server.cjs';
import { line, PeakMemory } from './support.cjs';

/** count: 1000 for a big city (scans included, latency profile none), and small-search throughput. */
export async function benchLeads(): Promise<void> {
	const server = await buildServer({ ...TEST_CONFIG, log: false }).listen();
	const account = () =>
		server.ctx.accounts.create({ credits: 1_000_000, active: true, permissions: [] }).apiKey;
	const search = async (key: string, body: object) => {
		const res = await fetch(`${server.url}/api/v1/niche-finder-leads`, {
			method: 'POST',
			headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		const json = (await res.json()) as { chargedCredits?: number };
		if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${JSON.stringify(json)}`);
		return json;
	};
	try {
		// The first request loads the gazetteer and the phone-number metadata: reported on its own.
		const cold = Date.now();
		await search(account(), { niche: 'florist', city: 'Boise', count: 5 });
		line('first request after start (loads data)', `${Date.now() - cold} ms`);

		console.log('\nlead search, count 1000 (every website scanned for the first time)');
		for (const city of ['New York', 'Los Angeles', 'Chicago']) {
			const memory = new PeakMemory();
			const started = Date.now();
			const result = await search(account(), { niche: 'dentist', city, count: 1000 });
			line(`${city}: time`, `${Date.now() - started} ms, ${result.chargedCredits} leads`);
			line(`${city}: peak RSS`, memory.stop());
		}

		console.log('\nlead search, count 10, 10 concurrent clients, 10 s');
		const cities = [
			'Austin',
			'Denver',
			'Seattle',
			'Boston',
			'Miami',
			'Dallas',
			'Phoenix',
			'Atlanta',
			'Portland',
			'Detroit',
			'Houston',
			'Toronto',
			'London',
			'Paris',
			'Berlin',
			'Madrid',
		];
		const niches = [
			'dentist',
			'plumber',
			'barber',
			'florist',
			'bakery',
			'cafe',
			'lawyer',
			'gym',
			'spa',
			'hotel',
			'electrician',
			'roofer',
		];
		let done = 0;
		const until = Date.now() + 10000;
		const memory = new PeakMemory();
		await Promise.all(
			Array.from({ length: 10 }, async (_, client) => {
				const key = account();
				for (let i = client; Date.now() < until; i += 10) {
					await search(key, {
						niche: niches[i % niches.length],
						city: cities[Math.floor(i / niches.length) % cities.length],
						count: 10,
					});
					done++;
				}
			}),
		);
		line('searches/s', (done / 10).toFixed(1));
		line('peak RSS', memory.stop());
	} finally {
		await server.close();
	}
}

if (require.main === module) void benchLeads().then(() => process.exit(0));
