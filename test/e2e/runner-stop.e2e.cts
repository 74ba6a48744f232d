import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { childrenOf } from '../../n8n-testkit/src/n8n/memory.cjs';
import { CACHE, n8nBinOf, NEWEST_LINE } from './n8n-app.cjs';
import { processFolder } from './process-folders.cjs';
import { ROOT } from './support.cjs';

/**
 * A workflow test runner told to stop mid-case (SIGTERM from `timeout` or a cancelled CI job,
 * SIGINT from Ctrl-C) ends everything it started, n8n and n8n's task runner, says so in one line
 * and exits as a process ended by that signal; one killed outright (SIGKILL) leaves its n8n to
 * notice and stop by itself. Before, n8n and its task runner ran on, holding ~2 GB, until killed.
 */
const MINUTE = 60_000;

/** A case that is mid-run for as long as the test needs: a Code node (in the task runner) that sleeps. */
const WORKFLOW = {
	name: 'A long Code node',
	nodes: [
		{
			id: 'c0ffee00-0000-4000-8000-000000000001',
			name: 'Start',
			type: 'n8n-nodes-base.manualTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: {},
		},
		{
			id: 'c0ffee00-0000-4000-8000-000000000002',
			name: 'Think for ten minutes',
			type: 'n8n-nodes-base.code',
			typeVersion: 2,
			position: [220, 0],
			parameters: {
				jsCode:
					'await new Promise((resolve) => setTimeout(resolve, 10 * 60 * 1000));\nreturn $input.all();',
			},
		},
	],
	connections: {
		Start: { main: [[{ node: 'Think for ten minutes', type: 'main', index: 0 }]] },
	},
	settings: { executionOrder: 'v1' },
};

/** The processes under `pid`, their own included (Linux /proc); none once it is gone. */
const tree = (pid: number): number[] =>
	existsSync(`/proc/${pid}`) ? [pid, ...childrenOf(pid).flatMap(tree)] : [];

/** Whether a process is alive (a zombie, ended but not yet reaped, is not). */
function alive(pid: number): boolean {
	try {
		return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
	} catch {
		return false;
	}
}

const commandOf = (pid: number) => {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
	} catch {
		return '';
	}
};

async function waitFor(what: string, condition: () => boolean, withinMs: number): Promise<void> {
	const deadline = Date.now() + withinMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
}

describe(`the workflow test runner stopped mid-case (n8n ${NEWEST_LINE.version})`, () => {
	let dir: string;
	const runners: ChildProcess[] = [];
	beforeAll(() => {
		dir = processFolder(CACHE, 'runner-stop');
		writeFileSync(join(dir, 'long.json'), JSON.stringify(WORKFLOW));
		writeFileSync(
			join(dir, 'long.test.yaml'),
			'workflow: long.json\ncases:\n  - name: a Code node that thinks for ten minutes\n',
		);
	});
	afterAll(() => {
		for (const runner of runners)
			for (const pid of tree(runner.pid!).reverse()) process.kill(pid, 'SIGKILL');
	});

	/** The runner, from the sources, once its case runs in n8n's task runner; its processes then. */
	async function midCase() {
		const runner = spawn(
			process.execPath,
			[
				'--require',
				'tsx/cjs',
				join(ROOT, 'mock-server', 'src', 'cli.cts'),
				'test',
				'long.test.yaml',
				'--n8n',
				n8nBinOf(NEWEST_LINE),
				'--nodes',
				ROOT,
			],
			{
				cwd: dir,
				stdio: ['ignore', 'pipe', 'pipe'],
				env: { ...process.env, NODE_PATH: join(ROOT, 'node_modules') },
			},
		);
		runners.push(runner);
		let err = '';
		runner.stderr.on('data', (chunk) => (err += chunk));
		runner.stdout.resume();
		const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
			runner.once('exit', (code, signal) => resolve({ code, signal })),
		);
		await waitFor(
			'the case to run in the task runner',
			() =>
				runner.exitCode === null &&
				err.includes('running "a Code node that thinks for ten minutes"') &&
				tree(runner.pid!).some((pid) => /[\\/]@n8n[\\/]task-runner[\\/]/.test(commandOf(pid))),
			5 * MINUTE,
		).catch((error) => {
			throw new Error(`${(error as Error).message}; the runner said:\n${err}`);
		});
		const processes = tree(runner.pid!);
		expect(processes.length).toBeGreaterThanOrEqual(3); // the runner, n8n, its task runner
		return { runner, processes, exited, said: () => err };
	}

	test.each([
		['SIGTERM', 143],
		['SIGINT', 130],
	] as const)(
		'%s: n8n and its task runner are stopped before the runner exits, which says so in one line',
		async (signal, code) => {
			const { runner, processes, exited, said } = await midCase();
			runner.kill(signal);
			expect(await exited).toEqual({ code, signal: null });
			expect(said()).toMatch(
				new RegExp(
					`^${signal}: stopped 1 n8n instance\\(s\\) and their task runners in [\\d.]+ s; nothing the run started is left running$`,
					'm',
				),
			);
			// Every process was sent its end before the runner exited; a SIGKILL lands a moment later.
			await waitFor('the killed processes to be gone', () => !processes.some(alive), 5_000).catch(
				() => undefined,
			);
			expect(processes.filter(alive)).toEqual([]);
		},
		10 * MINUTE,
	);

	test(
		'SIGKILL: n8n notices its runner gone and stops by itself, its task runner with it',
		async () => {
			const { runner, processes, exited } = await midCase();
			runner.kill('SIGKILL');
			expect(await exited).toEqual({ code: null, signal: 'SIGKILL' });
			// n8n's graceful shutdown, bounded at 15 s, then its group killed.
			await waitFor(
				'every process the runner started to end',
				() => !processes.some(alive),
				2 * MINUTE,
			);
		},
		10 * MINUTE,
	);
});
