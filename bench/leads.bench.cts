import http from 'node:http';
import { siteTruth } from '../mock-server/src/web/profiles.cjs';
import {
	line,
	type ServerProcess,
	startBareServer,
	startServerProcess,
	wrk,
	wrkLine,
} from './support.cjs';

/**
 * The lead search under load, as a user's CI runs the server (the bundle, its own process, a
 * database file, latency profile none):
 * - count 1000, every website scanned for the first time;
 * - a repeated scheduled pull (count 100, all already contacts of the account) with wrk at 10 and
 *   50 connections, beside a bare node:http server answering the same bytes;
 * - GET /api/v1/pools latency while ten count-1000 searches run;
 * - the server's peak RSS over the whole benchmark.
 */
const SEARCH = '/api/v1/niche-finder-leads';

async function newAccountKey(server: ServerProcess, credits = 10_000_000): Promise<string> {
	const res = await fetch(`${server.url}/__admin/accounts`, {
		method: 'POST',
		headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
		body: JSON.stringify({ credits }),
	});
	return ((await res.json()) as { apiKey: string }).apiKey;
}

async function search(server: ServerProcess, key: string, body: object) {
	const res = await fetch(`${server.url}${SEARCH}`, {
		method: 'POST',
		headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const text = await res.text();
	if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${text}`);
	return { text, json: JSON.parse(text) as { chargedCredits: number; contacts: any[] } };
}

/** A GET over node:http with keep-alive (fetch's own pool would add its own waits). */
function get(url: string, key: string, agent: http.Agent): Promise<void> {
	return new Promise((resolve, reject) =>
		http
			.get(url, { agent, headers: { authorization: `Bearer ${key}` } }, (res) => {
				res.resume();
				res.on('end', () =>
					res.statusCode === 200 ? resolve() : reject(new Error(`HTTP ${res.statusCode}`)),
				);
			})
			.on('error', reject),
	);
}

/**
 * Contacts whose tracker flags differ from what the synthetic web put in their website: a scan
 * the server's own load delayed past its time-out. Must be 0.
 */
function wrongFlags(contacts: any[]): number {
	return contacts.filter((c) => {
		if (!c.website) return false;
		const truth = siteTruth(new URL(c.website).hostname);
		return (
			c.fbPixel !== truth.fbPixel ||
			c.tikTokPixel !== truth.tikTokPixel ||
			c.gAnalytics !== truth.gAnalytics
		);
	}).length;
}

const rss = (server: ServerProcess) => {
	const { rssMB, peakMB } = server.memory();
	return `RSS ${rssMB} MB (peak so far ${peakMB} MB)`;
};

const since = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e6;

export async function benchLeads(): Promise<void> {
	const server = await startServerProcess();
	try {
		const key = await newAccountKey(server);
		// The first request loads the gazetteer and the phone-number metadata: reported on its own.
		let started = process.hrtime.bigint();
		await search(server, key, { niche: 'florist', city: 'Boise', count: 5 });
		line('first request after start (loads data)', `${since(started).toFixed(0)} ms`);

		console.log('\nlead search, count 1000 (every website scanned for the first time)');
		for (const city of ['New York', 'Los Angeles', 'Chicago']) {
			started = process.hrtime.bigint();
			const { json } = await search(server, key, { niche: 'dentist', city, count: 1000 });
			line(
				`${city}`,
				`${since(started).toFixed(0)} ms, ${json.chargedCredits} leads, ${rss(server)}`,
			);
		}

		const repeated = { niche: 'plumber', city: 'Austin', count: 100 };
		const first = await search(server, key, repeated);
		const again = await search(server, key, repeated);
		console.log(
			`\nrepeated pull, count 100 (${first.json.chargedCredits} contacts the first time, ` +
				`${again.json.chargedCredits} after), 10 s per run`,
		);
		const bare = await startBareServer(again.text);
		try {
			for (const connections of [10, 50]) {
				const options = {
					connections,
					seconds: 10,
					method: 'POST',
					headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
					body: JSON.stringify(repeated),
				};
				const ours = await wrk(`${server.url}${SEARCH}`, options);
				const baseline = await wrk(bare.url, options);
				line(`${connections} connections: reference server`, `${wrkLine(ours)}, ${rss(server)}`);
				line(`${connections} connections: bare node:http`, wrkLine(baseline));
				line(
					`${connections} connections: ratio`,
					`${((ours.requestsPerSec / baseline.requestsPerSec) * 100).toFixed(1)} %`,
				);
			}
		} finally {
			bare.stop();
		}

		console.log('\nGET /api/v1/pools while ten count-1000 searches run (cold websites)');
		const niches = ['lawyer', 'plumber', 'electrician', 'barber', 'bakery', 'cafe', 'gym'];
		const cities = ['Houston', 'New York'];
		const searches = Array.from({ length: 10 }, (_, i) =>
			newAccountKey(server).then((k) =>
				search(server, k, {
					niche: niches[i % niches.length],
					city: cities[i % cities.length],
					count: 1000,
				}),
			),
		);
		started = process.hrtime.bigint();
		let searching = true;
		const all = Promise.all(searches).finally(() => (searching = false));
		// One client asking again as soon as it has its answer, for as long as the searches run:
		// each answer's latency is what a user's short request waits meanwhile.
		const latencies: number[] = [];
		const agent = new http.Agent({ keepAlive: true });
		while (searching) {
			const asked = process.hrtime.bigint();
			await get(`${server.url}/api/v1/pools`, key, agent);
			latencies.push(since(asked));
		}
		const results = await all;
		agent.destroy();
		line('ten searches: wall time', `${since(started).toFixed(0)} ms, ${rss(server)}`);
		line('ten searches: leads', results.map((r) => r.json.chargedCredits).join(', '));
		line(
			'ten searches: contacts with wrong flags',
			results.reduce((n, r) => n + wrongFlags(r.json.contacts), 0),
		);
		latencies.sort((a, b) => a - b);
		const at = (q: number) =>
			latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
		line(
			'GET /pools meanwhile',
			`${latencies.length} requests, p50 ${at(0.5).toFixed(1)} ms, p99 ${at(0.99).toFixed(1)} ms, max ${latencies[latencies.length - 1].toFixed(0)} ms`,
		);
		const memory = server.memory();
		line('server RSS now / peak over the benchmark', `${memory.rssMB} MB / ${memory.peakMB} MB`);
	} finally {
		await server.stop();
	}
}

if (require.main === module) void benchLeads().then(() => process.exit(0));
