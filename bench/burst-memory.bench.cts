import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { line, memoryOf, startServerProcess } from './support.cjs';

/**
 * Memory that comes back after a burst (issue 33): ten count-1000 lead searches at once, in ten
 * cities (every website scanned for the first time), then 60 s of idle with the default
 * --scan-idle (60 s), after which the helper processes end. Reported for the server process and
 * for the whole tree (the server and its helper processes: what a container's limit counts),
 * beside the start-up RSS, the peak, and the time of one count-1000 search.
 */

const CITIES = [
	'Chicago',
	'Houston',
	'Phoenix',
	'Dallas',
	'Denver',
	'Seattle',
	'Boston',
	'Miami',
	'Atlanta',
	'Portland',
];

/** The process and its descendants, by /proc's children lists. */
function treeOf(pid: number): number[] {
	const pids = [pid];
	for (let i = 0; i < pids.length; i++) {
		try {
			const children = readFileSync(`/proc/${pids[i]}/task/${pids[i]}/children`, 'utf8');
			pids.push(...children.split(/\s+/).filter(Boolean).map(Number));
		} catch {
			// gone meanwhile
		}
	}
	return pids;
}

function treeRssMB(pid: number): number {
	let total = 0;
	for (const member of treeOf(pid)) {
		try {
			total += memoryOf(member).rssMB;
		} catch {
			// ended meanwhile
		}
	}
	return total;
}

export async function benchBurstMemory(): Promise<void> {
	const server = await startServerProcess();
	const pid = server.child.pid!;
	const search = async (city: string, niche = 'plumber') => {
		const res = await fetch(`${server.url}/api/v1/niche-finder-leads`, {
			method: 'POST',
			headers: { authorization: `Bearer ${server.devKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({ niche, city, count: 1000 }),
		});
		await res.text();
	};
	try {
		console.log('\nMemory after a burst: ten count-1000 searches at once, then 60 s idle');
		await sleep(2000);
		line('start', `server ${memoryOf(pid).rssMB} MiB, tree ${treeRssMB(pid)} MiB`);
		let peakTree = 0;
		const sampler = setInterval(() => (peakTree = Math.max(peakTree, treeRssMB(pid))), 100);
		const started = performance.now();
		await Promise.all(CITIES.map((city) => search(city)));
		clearInterval(sampler);
		line(
			'burst',
			`${((performance.now() - started) / 1000).toFixed(1)} s; peak: server ${memoryOf(pid).peakMB} MiB, tree ${peakTree} MiB`,
		);
		line('right after', `server ${memoryOf(pid).rssMB} MiB, tree ${treeRssMB(pid)} MiB`);
		await sleep(65_000);
		line('after 60 s idle', `server ${memoryOf(pid).rssMB} MiB, tree ${treeRssMB(pid)} MiB`);
		// One count-1000 search of websites never scanned, helpers started again on demand.
		const one = performance.now();
		await search('San Diego', 'electrician');
		line('one count-1000 search after idle', `${((performance.now() - one) / 1000).toFixed(2)} s`);
		const warm = performance.now();
		await search('Austin', 'electrician');
		line('one more, helpers running', `${((performance.now() - warm) / 1000).toFixed(2)} s`);
	} finally {
		await server.stop();
	}
}

if (require.main === module) void benchBurstMemory().then(() => process.exit(0));
