import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IDLE_MEMORY_QUIET_MS } from '../mock-server/src/core/idle-memory.cjs';
import { line, median } from './support.cjs';

/**
 * Start-up and idle memory of the standalone reference server (the bundle its package ships),
 * beside a bare node:http server started the same way: from process start to the first answer
 * of GET /healthz, and the resident memory two seconds later with nothing to do, and again once
 * the server has been idle long enough to give memory back (core/idle-memory.cts).
 */
const BARE = `require('node:http').createServer((q, s) => { s.setHeader('content-type', 'application/json'); s.end('{"status":"ok"}'); }).listen(Number(process.argv[1]), '127.0.0.1');`;

const rssMiB = (pid: number) =>
	Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function once(
	args: string[],
	port: number,
): Promise<{ ms: number; rssSoon: number; rssIdle: number }> {
	const started = process.hrtime.bigint();
	const child = spawn(process.execPath, args, { stdio: 'ignore' });
	try {
		for (;;) {
			const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
				(r) => r.ok,
				() => false,
			);
			if (ok) break;
			await new Promise((r) => setTimeout(r, 2));
		}
		const ms = Number(process.hrtime.bigint() - started) / 1e6;
		await sleep(2000);
		const rssSoon = rssMiB(child.pid!);
		await sleep(IDLE_MEMORY_QUIET_MS);
		return { ms, rssSoon, rssIdle: rssMiB(child.pid!) };
	} finally {
		child.kill('SIGTERM');
		await new Promise((r) => child.once('exit', r));
	}
}

export async function benchStartup(runs = 7): Promise<void> {
	execFileSync(process.execPath, [join(__dirname, '..', 'mock-server', 'build.cjs')]);
	const port = 4590;
	const server = [
		join(__dirname, '..', 'mock-server', 'dist', 'lead-inbox-mock-server'),
		'--port',
		String(port),
		'--db',
		':memory:',
		'--log',
		'off',
	];
	const subjects: [string, string[]][] = [
		['bare node:http', ['-e', BARE, String(port)]],
		// As users start it: the bin relaunches itself with its heap flag (core/server-heap.cts).
		['lead-inbox-mock-server (bundle)', server],
		// The flags given: no relaunch, so the difference is what the relaunch costs.
		['the bundle, flags given', ['--max-semi-space-size=8', '--expose-gc', ...server]],
	];
	console.log(
		`\nstart-up to the first answer, RSS 2 s later and ${2 + IDLE_MEMORY_QUIET_MS / 1000} s later (median of ${runs} runs each, interleaved)`,
	);
	const results = new Map<string, { ms: number[]; soon: number[]; idle: number[] }>(
		subjects.map(([n]) => [n, { ms: [], soon: [], idle: [] }]),
	);
	for (let i = 0; i < runs; i++) {
		for (const [name, args] of subjects) {
			const { ms, rssSoon, rssIdle } = await once(args, port);
			results.get(name)!.ms.push(ms);
			results.get(name)!.soon.push(rssSoon);
			results.get(name)!.idle.push(rssIdle);
		}
	}
	for (const [name, { ms, soon, idle }] of results)
		line(
			name,
			`${median(ms).toFixed(0)} ms to answer, ${median(soon).toFixed(1)} MiB RSS 2 s later, ${median(idle).toFixed(1)} MiB once idle`,
		);
}

if (require.main === module) void benchStartup().then(() => process.exit(0));
