import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../mock-server/src/api/start.cjs';
import { leadInboxService } from '../mock-server/src/workflow-tests/service.cjs';
import { loadTestFile } from '../n8n-testkit/src/file/load.cjs';
import { N8nApp } from '../n8n-testkit/src/n8n/app.cjs';
import { runCase } from '../n8n-testkit/src/run-case.cjs';
import { Services } from '../n8n-testkit/src/services/services.cjs';
import { freePort, openSession, startHost } from '../n8n-testkit/src/session.cjs';
import { ALL_LINES, installOf } from '../test/e2e/n8n-app.cjs';
import { memoryOf } from './support.cjs';

/**
 * The workflow test runner beside a bare `n8n execute` of the same workflow on the same machine,
 * per n8n line (the apps test/e2e/install-n8n.sh installs): the inbox inventory example (Manual
 * Trigger, List Pools, List Inboxes, Set, Summarize) against the reference server. Bare: one
 * `n8n execute` process per run (what a user's CI script does), timed from spawn to exit, its peak
 * RSS read from /proc. Runner: suites of test files of one run each, on one worker (its n8n start
 * shared by the suite's files), and the peak RSS of its n8n. Ratio: runner per run / bare.
 */
const ROOT = join(__dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Suites of this many test files (one run each): a worker's n8n start is shared by its files. */
const PER_SUITE = (process.env.BENCH_FILES ?? '1,3,5,10').split(',').map(Number);
const LINES = (process.env.BENCH_N8N_LINES ?? '2.40.7,2.8.4,1.123.81').split(',');
const SEED = {
	accounts: [
		{
			apiKey: 'lik_bench_workflow_tests_01',
			pools: [
				{
					name: 'Warm-up',
					inboxes: [
						{ emailAddress: 'sales@gmail.com' },
						{ emailAddress: 'team@yahoo.com', status: 'paused' as const },
					],
				},
			],
		},
	],
};

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Peak RSS (MB) of a process, read until it exits. */
function watchPeak(pid: number): { stop(): number } {
	let peak = 0;
	const read = () => {
		try {
			peak = Math.max(peak, memoryOf(pid).peakMB);
		} catch {
			// The process has exited.
		}
	};
	const timer = setInterval(read, 50);
	return {
		stop: () => {
			clearInterval(timer);
			return peak;
		},
	};
}

async function bare(
	line: (typeof ALL_LINES)[number],
): Promise<{ perRunMs: number; peakMB: number }> {
	const server = await startMockServer({ seed: SEED });
	const dir = mkdtempSync(join(tmpdir(), 'bench-bare-n8n-'));
	const app = new N8nApp(installOf(line), {
		dir,
		port: await freePort(),
		brokerPort: await freePort(),
	});
	try {
		app.installPackageFolder(ROOT);
		await app.importCredentials([
			{
				id: 'leadInboxLocal01',
				name: 'Lead Inbox',
				type: 'leadInboxApi',
				data: {
					apiKey: SEED.accounts[0].apiKey,
					leadsBaseUrl: server.url,
					inboxBaseUrl: `${server.url}/api/v1`,
				},
			},
		]);
		const workflow = (await import(join(ROOT, 'examples', 'inbox-inventory.json'))) as {
			default: object;
		};
		await app.importWorkflow(workflow.default);
		const times: number[] = [];
		let peakMB = 0;
		for (let i = 0; i < RUNS; i++) {
			const started = performance.now();
			const child = spawn(
				join(app.install.nodeBin, 'node'),
				[app.install.bin, 'execute', '--id=InboxInventory01'],
				{ env: app.env, stdio: 'ignore' },
			);
			const peak = watchPeak(child.pid!);
			const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
			peakMB = Math.max(peakMB, peak.stop());
			if (code !== 0) throw new Error(`n8n execute exited ${code}`);
			times.push(performance.now() - started);
		}
		return { perRunMs: median(times), peakMB };
	} finally {
		await server.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

/**
 * A suite of test files of one run each on one worker (as `--jobs 1` runs them): its n8n started
 * with the first file and kept for the next, each file with a server and a credential of its own.
 * The time per run after 1, 3, 5 and 10 files (the n8n start shared by the files so far).
 */
async function runner(
	line: (typeof ALL_LINES)[number],
): Promise<{ perRunMs: Map<number, number>; peakMB: number }> {
	const dir = mkdtempSync(join(tmpdir(), 'bench-runner-'));
	writeFileSync(
		join(dir, 'inventory.test.json'),
		JSON.stringify({
			workflow: join(ROOT, 'examples', 'inbox-inventory.json'),
			seed: SEED,
			cases: [{ name: 'inventory', expect: { status: 'success' } }],
		}),
	);
	const loaded = loadTestFile(
		join(dir, 'inventory.test.json'),
		dir,
		new Services([leadInboxService()]),
	);
	const started = performance.now();
	const host = await startHost({
		n8n: installOf(line),
		nodes: [{ folder: ROOT }],
		dir: join(dir, 'n8n'),
		progress: () => undefined,
	});
	const peak = watchPeak(host.app.pid!);
	const perRunMs = new Map<number, number>();
	try {
		for (let files = 1; files <= Math.max(...PER_SUITE); files++) {
			const session = await openSession(loaded, host);
			const result = await runCase(session, loaded, loaded.spec.cases[0]);
			await session.close();
			if (!result.passed) throw new Error(JSON.stringify(result.failures));
			if (PER_SUITE.includes(files)) perRunMs.set(files, (performance.now() - started) / files);
		}
		return { perRunMs, peakMB: peak.stop() };
	} finally {
		peak.stop();
		await host.close();
		rmSync(dir, { recursive: true, force: true });
	}
}

export async function benchWorkflowTests(): Promise<void> {
	console.log(
		`\nworkflow test runner vs bare n8n execute (examples/inbox-inventory.json; bare: median of ${RUNS} runs)`,
	);
	for (const version of LINES) {
		const line = ALL_LINES.find((l) => l.version === version)!;
		const b = await bare(line);
		console.log(
			`  n8n ${version}: bare execute ${seconds(b.perRunMs)}/run, peak RSS ${b.peakMB} MB`,
		);
		const r = await runner(line);
		for (const [files, ms] of r.perRunMs)
			console.log(
				`    runner, a suite of ${files} test file(s) of one run: ${seconds(ms)}/run (ratio ${(ms / b.perRunMs).toFixed(2)}x)`,
			);
		console.log(`    runner's n8n: peak RSS ${r.peakMB} MB`);
	}
}

if (require.main === module)
	void benchWorkflowTests().then(
		() => process.exit(0),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
