import { line, median, startServerProcess } from './support.cjs';

/**
 * How long a count-1000 lead search takes (every website scanned for the first time), for one or
 * more builds of the server, interleaved in one run so the machine's state is the same for each:
 * per round and build, a new server, one small search to start its helper processes, then three
 * count-1000 searches one after the other.
 *
 *   npx tsx bench/search-speed.bench.cts                     this checkout
 *   SPEED_SUBJECTS='before=/tmp/base/mock-server/dist/lead-inbox-mock-server,after=' \
 *     npx tsx bench/search-speed.bench.cts                   a before/after comparison
 *   SPEED_ROUNDS=5 ...                                       more rounds (default 3)
 * An empty path is this checkout's build. A subject may carry environment variables for its server
 * after a "?" (`after=?MOCK_SCAN_CONCURRENCY=256`).
 */

interface Subject {
	label: string;
	bundle: string;
	env: Record<string, string>;
}

function subjects(): Subject[] {
	return (process.env.SPEED_SUBJECTS || 'this checkout=').split(',').map((entry) => {
		const [label, rest = ''] = entry.split(/=(.*)/s);
		const [bundle, query = ''] = rest.split('?');
		return { label, bundle, env: Object.fromEntries(new URLSearchParams(query)) };
	});
}

const CITIES = ['New York', 'Los Angeles', 'Chicago'];

async function round(subject: Subject): Promise<number[]> {
	const server = await startServerProcess([], subject.env, subject.bundle || undefined);
	const search = async (city: string, count: number) => {
		const started = performance.now();
		const res = await fetch(`${server.url}/api/v1/niche-finder-leads`, {
			method: 'POST',
			headers: { authorization: `Bearer ${server.devKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({ niche: 'dentist', city, count }),
		});
		if (!res.ok) throw new Error(`search answered ${res.status}: ${await res.text()}`);
		await res.text();
		return (performance.now() - started) / 1000;
	};
	try {
		await search('Boise', 5);
		const times: number[] = [];
		for (const city of CITIES) times.push(await search(city, 1000));
		return times;
	} finally {
		await server.stop();
	}
}

export async function benchSearchSpeed(): Promise<void> {
	const list = subjects();
	const rounds = Number(process.env.SPEED_ROUNDS ?? 3);
	const all = new Map<string, number[][]>(list.map((s) => [s.label, []]));
	console.log(
		`\ncount-1000 searches, seconds (Node ${process.versions.node}; a new server per round and build, three searches each, interleaved)`,
	);
	for (let r = 1; r <= rounds; r++) {
		for (const subject of list) {
			const times = await round(subject);
			all.get(subject.label)!.push(times);
			line(`round ${r}: ${subject.label}`, times.map((t) => t.toFixed(2)).join(' '));
		}
	}
	for (const [label, runs] of all) {
		const first = runs.map((times) => times[0]);
		const later = runs.flatMap((times) => times.slice(1));
		line(
			`median: ${label}`,
			`first after start ${median(first).toFixed(2)} s, later ${median(later).toFixed(2)} s`,
		);
	}
}

if (require.main === module) void benchSearchSpeed();
