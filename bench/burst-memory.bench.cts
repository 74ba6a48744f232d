import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { line, startServerProcess } from './support.cjs';

/**
 * Memory that comes back after a burst (issues 33 and 54): ten count-1000 lead searches at once,
 * in ten cities (every website scanned for the first time), then 75 s of idle with the default
 * --scan-idle (60 s), after which the helper processes end. Counted for the whole process tree
 * (the server and its helper processes: what a container's limit counts) as RSS and as PSS (pages
 * shared between the processes, the node binary's above all, counted once, as a container's memory
 * accounting does), beside the time of the burst and of one count-1000 search.
 *
 *   npx tsx bench/burst-memory.bench.cts                 one run
 *   BURST_RUNS=3 npx tsx bench/burst-memory.bench.cts    three, and their range
 *   BENCH_MEMORY_PARTS=1 ...                             also where each process's memory is
 *                                                        (V8 heap by space, external, the C
 *                                                        allocator, the mapped binary)
 *   BURST_IDLE_MS=5000 ...                               a shorter idle time, to try a change's peak
 *   BENCH_START=npm ...                                  started by `npm start`, as the README
 *                                                        says (npm's process counted too)
 * The Node.js the bench runs on runs the server (so `PATH=<node 22>:$PATH npx tsx ...` measures 22).
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
const IDLE_MS = Number(process.env.BURST_IDLE_MS ?? 75_000);
const PARTS = process.env.BENCH_MEMORY_PARTS === '1';

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

/** A process's /proc/<pid>/smaps_rollup fields, in MiB (0 for a process that ended meanwhile). */
function rollup(pid: number): Record<string, number> {
	try {
		const text = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
		return Object.fromEntries(
			[...text.matchAll(/^(\w+):\s+(\d+) kB/gm)].map(([, name, kb]) => [name, Number(kb) / 1024]),
		);
	} catch {
		return {};
	}
}

interface Tree {
	rss: number;
	pss: number;
	processes: number;
	/** Each process's PSS, by its role: what a peak was made of. */
	byRole: string;
}

/** A process's role: a helper's, from the variable the server starts it with, or the server. */
function roleOf(pid: number): string {
	try {
		const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
		return /(?:^|\0)LEAD_INBOX_MOCK_SERVER_HELPER=([\w-]+)/.exec(environ)?.[1] ?? 'server';
	} catch {
		return 'ended';
	}
}

function tree(pid: number): Tree {
	const pids = treeOf(pid);
	const members = pids.map(rollup);
	const sum = (field: string) => Math.round(members.reduce((s, m) => s + (m[field] ?? 0), 0));
	const byRole = pids
		.map((member, i) => `${roleOf(member)} ${Math.round(members[i].Pss ?? 0)}`)
		.join(', ');
	return { rss: sum('Rss'), pss: sum('Pss'), processes: members.length, byRole };
}

const show = ({ rss, pss, processes }: Tree) =>
	`PSS ${pss} MiB, RSS ${rss} MiB (${processes} process${processes > 1 ? 'es' : ''})`;

/** Asks every process of the tree where its memory is (bench/memory-probe.cjs), and prints it. */
async function parts(pid: number, dir: string, when: string): Promise<void> {
	const members = treeOf(pid);
	for (const member of members) {
		rmSync(join(dir, `${member}.json`), { force: true });
		try {
			process.kill(member, 'SIGUSR2');
		} catch {
			// ended meanwhile
		}
	}
	await sleep(500);
	console.log(`    where it is, ${when}:`);
	for (const member of members) {
		let probe: any;
		try {
			probe = JSON.parse(readFileSync(join(dir, `${member}.json`), 'utf8'));
		} catch {
			continue;
		}
		const proc = rollup(member);
		const mib = (n: number) => n.toFixed(1);
		const young = (probe.spaces.new_space ?? 0) + (probe.spaces.new_large_object_space ?? 0);
		const old = probe.heapCommitted - young;
		// Anonymous memory V8's heap does not account for: the C allocator (Node's and SQLite's
		// buffers, compiled code's zones, socket reads) and the array buffers' backing stores.
		const native = (proc.Anonymous ?? 0) - probe.heapCommitted;
		console.log(
			`      ${probe.role.padEnd(13)} RSS ${mib(proc.Rss)} PSS ${mib(proc.Pss)}: V8 heap ${mib(probe.heapCommitted)} (young ${mib(young)}, old and code ${mib(old)}; used ${mib(probe.heapUsed)}), native ${mib(native)} (of it array buffers ${mib(probe.arrayBuffers)}, external ${mib(probe.external)}), mapped files ${mib((proc.Rss ?? 0) - (proc.Anonymous ?? 0))} (the node binary, shared)`,
		);
	}
}

interface Run {
	start: Tree;
	peak: Tree;
	after: Tree;
	idle: Tree;
	burstS: number;
	coldS: number;
	warmS: number;
}

async function runOnce(): Promise<Run> {
	const probeDir = mkdtempSync(join(tmpdir(), 'lead-inbox-memory-probe-'));
	const server = await startServerProcess(
		[],
		PARTS
			? {
					NODE_OPTIONS: `--require ${join(__dirname, 'memory-probe.cjs')}`,
					BENCH_MEMORY_PROBE_DIR: probeDir,
				}
			: {},
	);
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
		await sleep(2000);
		const start = tree(pid);
		line('start', show(start));
		if (PARTS) await parts(pid, probeDir, 'at start');
		let peak: Tree = start;
		const sampler = setInterval(() => {
			const now = tree(pid);
			if (now.pss > peak.pss) peak = now;
		}, 100);
		const started = performance.now();
		await Promise.all(CITIES.map((city) => search(city)));
		const burstS = (performance.now() - started) / 1000;
		clearInterval(sampler);
		line('ten searches at once', `${burstS.toFixed(1)} s; peak ${show(peak)}`);
		line('    the peak, PSS by process', peak.byRole);
		const after = tree(pid);
		line('right after', show(after));
		if (PARTS) await parts(pid, probeDir, 'right after the burst');
		await sleep(IDLE_MS);
		const idle = tree(pid);
		line(`after ${IDLE_MS / 1000} s idle`, show(idle));
		if (PARTS) await parts(pid, probeDir, 'after the idle time');
		// One count-1000 search of websites never scanned, helpers started again on demand.
		const cold = performance.now();
		await search('San Diego', 'electrician');
		const coldS = (performance.now() - cold) / 1000;
		line('one count-1000 search after idle', `${coldS.toFixed(2)} s`);
		const warm = performance.now();
		await search('Austin', 'electrician');
		const warmS = (performance.now() - warm) / 1000;
		line('one more, helpers running', `${warmS.toFixed(2)} s`);
		return { start, peak, after, idle, burstS, coldS, warmS };
	} finally {
		await server.stop();
		rmSync(probeDir, { recursive: true, force: true });
	}
}

export async function benchBurstMemory(): Promise<void> {
	const runs: Run[] = [];
	const count = Number(process.env.BURST_RUNS ?? 1);
	for (let n = 1; n <= count; n++) {
		console.log(
			`\nMemory after a burst (Node ${process.versions.node}), run ${n} of ${count}: ten count-1000 searches at once, then ${IDLE_MS / 1000} s idle`,
		);
		runs.push(await runOnce());
	}
	if (count < 2) return;
	const range = (pick: (run: Run) => number, digits = 0) => {
		const values = runs.map(pick);
		return `${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)}`;
	};
	console.log(`\nNode ${process.versions.node}, ${count} runs (min-max):`);
	line(
		'PSS start / peak / idle',
		`${range((r) => r.start.pss)} / ${range((r) => r.peak.pss)} / ${range((r) => r.idle.pss)} MiB`,
	);
	line(
		'RSS start / peak / idle',
		`${range((r) => r.start.rss)} / ${range((r) => r.peak.rss)} / ${range((r) => r.idle.rss)} MiB`,
	);
	line('ten searches at once', `${range((r) => r.burstS, 1)} s`);
	line(
		'one count-1000 search, helpers cold / running',
		`${range((r) => r.coldS, 2)} / ${range((r) => r.warmS, 2)} s`,
	);
}

if (require.main === module) void benchBurstMemory().then(() => process.exit(0));
