import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockServer } from '../mock-server/src/api/start.cjs';
import { loadTestFile } from '../mock-server/src/runner/file/load.cjs';
import { N8nApp } from '../mock-server/src/runner/n8n/app.cjs';
import { runCase } from '../mock-server/src/runner/run-case.cjs';
import { freePort, openSession } from '../mock-server/src/runner/session.cjs';
import { ALL_LINES, installOf } from '../test/e2e/n8n-app.cjs';
import { memoryOf } from './support.cjs';

/**
 * The workflow test runner beside a bare `n8n execute` of the same workflow on the same machine,
 * per n8n line (the apps test/e2e/install-n8n.sh installs): the inbox inventory example (Manual
 * Trigger, List Pools, List Inboxes, Set, Summarize) against the reference server, RUNS times
 * each way. Bare: one `n8n execute` process per run (what a user's CI script does), timed from
 * spawn to exit, its peak RSS read from /proc. Runner: one test file whose one case has RUNS runs:
 * the time per run with n8n's start shared out (start, import, credential, every run, stop, over
 * RUNS), the time per run once started, and the peak RSS of its n8n. Ratio: runner per run / bare.
 */
const ROOT = join(__dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Runs per test file for the runner: its n8n start is shared by a file's runs. */
const PER_FILE = (process.env.BENCH_RUNS_PER_FILE ?? '1,3,5,10').split(',').map(Number);
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

async function runner(
	line: (typeof ALL_LINES)[number],
	runs: number,
): Promise<{ perRunMs: number; startedPerRunMs: number; peakMB: number }> {
	const dir = mkdtempSync(join(tmpdir(), 'bench-runner-'));
	writeFileSync(
		join(dir, 'inventory.test.json'),
		JSON.stringify({
			workflow: join(ROOT, 'examples', 'inbox-inventory.json'),
			seed: SEED,
			cases: [{ name: 'inventory', runs, expect: { everyRun: { status: 'success' } } }],
		}),
	);
	const loaded = loadTestFile(join(dir, 'inventory.test.json'), dir);
	const started = performance.now();
	const session = await openSession(loaded, {
		n8n: installOf(line),
		nodes: { folder: ROOT },
		dir: join(dir, 'n8n'),
		progress: () => undefined,
	});
	let peak: { stop(): number } | undefined;
	try {
		peak = watchPeak(session.app.pid!);
		const result = await runCase(session, loaded, loaded.spec.cases[0]);
		if (!result.passed) throw new Error(JSON.stringify(result.failures));
		const startedPerRunMs = result.durationMs / runs;
		await session.close();
		return { perRunMs: (performance.now() - started) / runs, startedPerRunMs, peakMB: peak.stop() };
	} finally {
		peak?.stop();
		await session.close().catch(() => undefined);
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
		for (const runs of PER_FILE) {
			const r = await runner(line, runs);
			console.log(
				`    runner, ${runs} run(s) per test file: ${seconds(r.perRunMs)}/run with its n8n start shared out (ratio ${(r.perRunMs / b.perRunMs).toFixed(2)}x), ${seconds(r.startedPerRunMs)}/run once started, peak RSS ${r.peakMB} MB`,
			);
		}
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
