import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Shared bits of the benchmarks: the reference server in its own process (the bundle its package
 * ships, as a user's CI runs it), a bare node:http server answering fixed bytes beside it, wrk as
 * the load generator (it does not saturate before the servers do, unlike a Node.js one), and the
 * server process's memory read from /proc.
 */
export const BUNDLE = join(__dirname, '..', 'mock-server', 'dist', 'lead-inbox-mock-server');

/** Builds the bundle once per benchmark run. */
let built = false;
export function buildBundle(): void {
	if (built) return;
	execFileSync(process.execPath, [join(__dirname, '..', 'mock-server', 'build.cjs')]);
	built = true;
}

export interface ServerProcess {
	url: string;
	devKey: string;
	adminToken: string;
	child: ChildProcess;
	/** Resident memory now and the peak since start (VmRSS / VmHWM), in MB. */
	memory(): { rssMB: number; peakMB: number };
	stop(): Promise<void>;
}

export function memoryOf(pid: number): { rssMB: number; peakMB: number } {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8');
	const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]);
	return { rssMB: Math.round(kb('VmRSS') / 1024), peakMB: Math.round(kb('VmHWM') / 1024) };
}

export async function startServerProcess(
	extraArgs: string[] = [],
	env: Record<string, string> = {},
	// BENCH_BUNDLE=<another checkout>/mock-server/dist/lead-inbox-mock-server: that build instead
	// of this one's (a before/after comparison in one run).
	bundle = process.env.BENCH_BUNDLE || BUNDLE,
): Promise<ServerProcess> {
	buildBundle();
	const db = join(tmpdir(), `lead-inbox-bench-${process.pid}-${Date.now()}.db`);
	const options = ['--db', db, '--port', '0', '--log', 'off', ...extraArgs];
	// BENCH_START=npm: started as the README starts it, `npm start` in this checkout (npm's own
	// process is then the root of the tree the memory benchmarks count).
	if (process.env.BENCH_START === 'npm')
		return await serverProcess(
			spawn('npm', ['start', '--silent', '--', ...options], {
				cwd: join(__dirname, '..'),
				stdio: ['ignore', 'pipe', 'inherit'],
				env: { ...process.env, ...env },
			}),
			db,
		);
	const child = spawn(
		process.execPath,
		[
			// BENCH_SERVER_PROF=<folder>: the server writes a CPU profile there when it stops.
			...(process.env.BENCH_SERVER_PROF
				? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_SERVER_PROF}`]
				: []),
			// BENCH_SERVER_FLAGS="--max-semi-space-size=2 ...": node flags for the server, to
			// measure what they change (the server's own environment variables pass through).
			...(process.env.BENCH_SERVER_FLAGS?.split(/\s+/).filter(Boolean) ?? []),
			bundle,
			...options,
		],
		{ stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } },
	);
	return await serverProcess(child, db);
}

/** A started server's process, once it printed its banner. */
async function serverProcess(child: ChildProcess, db: string): Promise<ServerProcess> {
	let out = '';
	await new Promise<void>((resolve, reject) => {
		child.stdout!.on('data', (chunk) => {
			out += chunk;
			if (out.includes('admin token:')) resolve();
		});
		child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
	});
	const pick = (label: string) => new RegExp(`${label}:?\\s+(\\S+)`).exec(out)![1];
	return {
		url: pick('listening on'),
		devKey: pick('dev account API key'),
		adminToken: pick('admin token'),
		child,
		memory: () => memoryOf(child.pid!),
		stop: async () => {
			child.kill('SIGTERM');
			await new Promise((resolve) => child.once('exit', resolve));
			for (const suffix of ['', '-wal', '-shm', '.secret'])
				rmSync(`${db}${suffix}`, { force: true });
		},
	};
}

const BARE = `
const http = require('node:http');
const [body, type] = [process.argv[1], process.argv[2]];
const server = http.createServer((req, res) => {
	req.resume();
	req.on('end', () => {
		res.writeHead(200, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
		res.end(body);
	});
});
server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));
`;

/** A bare node:http server answering every request with these bytes (the baseline). */
export async function startBareServer(
	body: string,
	contentType = 'application/json; charset=utf-8',
): Promise<{ url: string; stop(): void }> {
	const child = spawn(process.execPath, ['-e', BARE, body, contentType], {
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	const port = await new Promise<string>((resolve) =>
		child.stdout.on('data', (chunk) => resolve(/port (\d+)/.exec(String(chunk))![1])),
	);
	return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

export interface WrkResult {
	requestsPerSec: number;
	requests: number;
	p50Ms: number;
	p99Ms: number;
	maxMs: number;
	/** Non-2xx answers plus socket errors and time-outs: must be 0 for a result to count. */
	failures: number;
}

const msOf = (value: string) => {
	const [, n, unit] = /([\d.]+)(us|ms|s|m)/.exec(value)!;
	return Number(n) * ({ us: 0.001, ms: 1, s: 1000, m: 60000 } as Record<string, number>)[unit];
};

/**
 * Runs wrk against a URL. A request body and headers are sent through a small Lua script (wrk's
 * way of doing POSTs); --latency gives the percentiles.
 */
export function wrk(
	url: string,
	options: {
		connections: number;
		seconds: number;
		method?: string;
		headers?: Record<string, string>;
		body?: string;
		threads?: number;
	},
): Promise<WrkResult> {
	const script = join(tmpdir(), `lead-inbox-wrk-${process.pid}-${Math.random()}.lua`);
	const lua = [
		`wrk.method = ${JSON.stringify(options.method ?? 'GET')}`,
		...Object.entries(options.headers ?? {}).map(
			([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`,
		),
		options.body === undefined ? '' : `wrk.body = ${JSON.stringify(options.body)}`,
	].join('\n');
	writeFileSync(script, lua);
	const args = [
		`-t${options.threads ?? Math.min(2, options.connections)}`,
		`-c${options.connections}`,
		`-d${options.seconds}s`,
		'--timeout',
		'10s',
		'--latency',
		'-s',
		script,
		url,
	];
	return new Promise((resolve, reject) =>
		execFile('wrk', args, (error, stdout) => {
			rmSync(script, { force: true });
			if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT')
				return reject(new Error('wrk is missing: sudo apt-get install -y wrk (bash .ci/run does)'));
			if (error) return reject(new Error(`wrk failed: ${error.message}`));
			const percentile = (p: string) => msOf(new RegExp(`\\s${p}%\\s+(\\S+)`).exec(stdout)![1]);
			const count = (re: RegExp) => Number(re.exec(stdout)?.[1] ?? 0);
			const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
				stdout,
			);
			resolve({
				requestsPerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)![1]),
				requests: count(/(\d+) requests in/),
				p50Ms: percentile('50'),
				p99Ms: percentile('99'),
				maxMs: msOf(/Latency\s+\S+\s+\S+\s+(\S+)/.exec(stdout)![1]),
				failures:
					count(/Non-2xx or 3xx responses: (\d+)/) +
					(errors ? errors.slice(1).reduce((n, v) => n + Number(v), 0) : 0),
			});
		}),
	);
}

export const wrkLine = (result: WrkResult) =>
	`${result.requestsPerSec.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, max ${result.maxMs.toFixed(0)} ms${result.failures ? `, ${result.failures} FAILED` : ''}`;

export class PeakMemory {
	private peak = 0;
	private readonly timer = setInterval(() => this.sample(), 20);

	sample(): void {
		this.peak = Math.max(this.peak, process.memoryUsage().rss);
	}

	stop(): string {
		clearInterval(this.timer);
		this.sample();
		return `${Math.round(this.peak / 1024 / 1024)} MB`;
	}
}

/** The middle value (the upper one of the two middles for an even count). */
export const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export const line = (label: string, value: string | number) =>
	console.log(`${label.padEnd(44)} ${value}`);

/**
 * Two ways of running one thing, timed on one warm process, alternated so drift falls on both:
 * one of each first, not counted (n8n compiles and caches on a workflow's first runs), then
 * `runs` of each. The median of each, in milliseconds. A run fails by throwing.
 */
export async function alternatedMedians(
	runs: number,
	ways: [() => Promise<void>, () => Promise<void>],
): Promise<[number, number]> {
	const times: [number[], number[]] = [[], []];
	for (let i = -1; i < runs; i++)
		for (const w of [0, 1] as const) {
			const started = performance.now();
			await ways[w]();
			if (i >= 0) times[w].push(performance.now() - started);
		}
	return [median(times[0]), median(times[1])];
}
