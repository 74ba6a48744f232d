import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { line, median } from './support.cjs';

/**
 * Start-up and idle memory of the standalone reference server (the bundle its package ships),
 * beside a bare node:http server started the same way: from process start to the first answer
 * of GET /healthz, and the resident memory two seconds later with nothing to do.
 */
const BARE = `require('node:http').createServer((q, s) => { s.setHeader('content-type', 'application/json'); s.end('{"status":"ok"}'); }).listen(Number(process.argv[1]), '127.0.0.1');`;

async function once(args: string[], port: number): Promise<{ ms: number; rssMiB: number }> {
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
		await new Promise((r) => setTimeout(r, 2000));
		const rss = Number(
			/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1],
		);
		return { ms, rssMiB: rss / 1024 };
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
		// The flag given: no relaunch, so the difference is what the relaunch costs.
		['the bundle, flag given', ['--max-semi-space-size=8', ...server]],
	];
	console.log(
		`\nstart-up to the first answer and idle RSS (median of ${runs} runs each, interleaved)`,
	);
	const results = new Map<string, { ms: number[]; rss: number[] }>(
		subjects.map(([n]) => [n, { ms: [], rss: [] }]),
	);
	for (let i = 0; i < runs; i++) {
		for (const [name, args] of subjects) {
			const { ms, rssMiB } = await once(args, port);
			results.get(name)!.ms.push(ms);
			results.get(name)!.rss.push(rssMiB);
		}
	}
	for (const [name, { ms, rss }] of results)
		line(name, `${median(ms).toFixed(0)} ms to answer, ${median(rss).toFixed(1)} MiB idle RSS`);
}

if (require.main === module) void benchStartup().then(() => process.exit(0));
