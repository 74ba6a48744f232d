import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import net from 'node:net';
import { dirname, join } from 'node:path';
import { freePort } from '../helpers/ports.cjs';
import { withTempDir } from '../helpers/temp-dir.cjs';
import { WAIT_MS, waitUntil } from '../helpers/wait.cjs';

/** The `npm start` program itself: bad options, a port in use, graceful shutdown. */
const CLI = join(__dirname, '../../mock-server/src/cli.cts');
/** Builds the bin the package ships (once per file), for what only it does: relaunch, helpers. */
let bundle: string | undefined;
const buildBundle = () => {
	if (!bundle) {
		execFileSync(process.execPath, [join(__dirname, '../../mock-server/build.cjs')]);
		bundle = join(__dirname, '../../mock-server/dist/lead-inbox-mock-server');
	}
	return bundle;
};

type OnStdout = (text: string, kill: (signal: NodeJS.Signals) => void) => void;

/** Runs the CLI on an in-memory database. */
function run(args: string[], onStdout?: OnStdout) {
	return runWith(['--db', ':memory:', ...args], onStdout);
}

function runWith(args: string[], onStdout?: OnStdout) {
	return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
		// One process, as the bin runs: tsx's CLI would stand between as a second process that
		// relays signals, and ends with 143 when the server takes over 30 ms to confirm one (a
		// loaded machine), killing it mid-close.
		const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--log', 'off', ...args], {
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		let stderr = '';
		// Each signal is sent once: the callback sees all output so far on every chunk.
		const sent = new Set<NodeJS.Signals>();
		const kill = (signal: NodeJS.Signals) => {
			if (sent.has(signal)) return;
			sent.add(signal);
			child.kill(signal);
		};
		child.stdout.on('data', (chunk) => {
			stdout += chunk;
			onStdout?.(stdout, kill);
		});
		child.stderr.on('data', (chunk) => (stderr += chunk));
		child.on('exit', (code) => resolve({ code, stdout, stderr }));
	});
}

/** Runs the CLI until it says it is ready, then stops it with SIGTERM. */
function runUntilReady(args: string[]) {
	return run(args, (text, kill) => {
		if (text.includes('admin token:')) kill('SIGTERM');
	});
}

describe('reference server CLI', () => {
	it('rejects a bad option with a clear message and exit code 2', async () => {
		const result = await run(['--latency', 'slow']);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('--latency must be one of none, realistic (got "slow")');
		expect(result.stderr).toContain('Usage: npm start -- [options]');
	});

	it('says so when the port is in use, and exits 1', async () => {
		const blocker = net.createServer();
		await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
		const port = (blocker.address() as net.AddressInfo).port;
		try {
			const result = await run(['--port', String(port)]);
			expect(result.code).toBe(1);
			expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
		} finally {
			blocker.close();
		}
	});

	it('prints the URLs, the dev key and the admin token, then stops cleanly on SIGTERM', async () => {
		const result = await runUntilReady(['--port', '0']);
		expect(result.stdout).toMatch(/inbox base URL:\s+http:\/\/127\.0\.0\.1:\d+\/api\/v1/);
		expect(result.stdout).toMatch(/dev account API key:\s+lik_/);
		expect(result.stdout).toContain('closing the database');
		expect(result.code).toBe(0);
	});

	it('warns when it listens beyond loopback, where the admin API can be reached from the network', async () => {
		const result = await runUntilReady(['--port', '0', '--host', '0.0.0.0']);
		expect(result.stderr).toMatch(
			/Warning: listening on 0\.0\.0\.0, not only on this machine's loopback.*--host 127\.0\.0\.1/,
		);
		expect(result.code).toBe(0);
		const local = await runUntilReady(['--port', '0']);
		expect(local.stderr).not.toContain('Warning');
	});

	it('on 0.0.0.0 prints URLs, and serves an OpenAPI servers entry, with 127.0.0.1, which answers', async () => {
		let looked:
			| Promise<{ printed: string; servers: { url: string }[]; health: number }>
			| undefined;
		const result = await run(['--port', '0', '--host', '0.0.0.0'], (text, kill) => {
			if (looked || !text.includes('admin token:')) return;
			looked = (async () => {
				const printed = /listening on (\S+)/.exec(text)![1];
				try {
					const doc = (await (await fetch(`${printed}/openapi.json`)).json()) as {
						servers: { url: string }[];
					};
					return {
						printed,
						servers: doc.servers,
						health: (await fetch(`${printed}/healthz`)).status,
					};
				} finally {
					kill('SIGTERM');
				}
			})();
		});
		const { printed, servers, health } = await looked!;
		expect(printed).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(result.stdout).toMatch(new RegExp(`inbox base URL: +${printed}/api/v1\\n`));
		expect(servers).toEqual([{ url: printed }]);
		expect(health).toBe(200);
		expect(result.code).toBe(0);
	});
});

describe('the database path', () => {
	it('creates missing folders, keeps the files to their owner, and refuses unusable paths with the path and the fix', async () => {
		await withTempDir('db-path-', async (dir) => {
			const file = join(dir, 'a', 'b', 'c', 'mock.sqlite');
			const started = await runWith(['--db', file, '--port', '0'], (text, kill) => {
				if (text.includes('admin token:')) kill('SIGTERM');
			});
			expect(started.code).toBe(0);
			for (const path of [file, `${file}.secret`])
				expect({ path, mode: statSync(path).mode & 0o777 }).toEqual({ path, mode: 0o600 });

			const asFolder = await runWith(['--db', dir, '--port', '0']);
			expect(asFolder.code).toBe(1);
			expect(asFolder.stderr).toContain(`The database path ${dir} is a folder, not a file.`);
			const underFile = await runWith(['--db', join(file, 'x.sqlite'), '--port', '0']);
			expect(underFile.code).toBe(1);
			expect(underFile.stderr).toContain(`is under ${file}, which is a file, not a folder`);
			const proc = await runWith(['--db', '/proc/nope/x.sqlite', '--port', '0']);
			expect(proc.code).toBe(1);
			expect(proc.stderr).toContain('Cannot create the folder /proc/nope for the database');
			expect(proc.stderr).toContain('--db (or MOCK_DB)');
		});
	});
});

describe('one process per database, and npm start under a process manager', () => {
	it('refuses a second server on the same database file, and lets a :memory: one start', async () => {
		await withTempDir('lead-inbox-lock-', async (dir) => {
			const db = join(dir, 'shared.sqlite');
			let first!: (signal: NodeJS.Signals) => void;
			let ready!: () => void;
			const started = new Promise<void>((resolve) => (ready = resolve));
			const firstRun = runWith(['--port', '0', '--db', db], (text, kill) => {
				first = kill;
				if (text.includes('admin token:')) ready();
			});
			await started;
			try {
				const second = await runWith(['--port', '0', '--db', db]);
				expect(second.code).toBe(1);
				expect(second.stderr).toContain(
					`The database file ${db} is in use by another reference server`,
				);
				const memory = await run(['--port', '0'], (text, kill) => {
					if (text.includes('admin token:')) kill('SIGTERM');
				});
				expect(memory.code).toBe(0);
			} finally {
				first('SIGTERM');
				await firstRun;
			}
		});
	});

	it('prints the dev account id, and the admin API lists the accounts', async () => {
		let output = '';
		let stop!: (signal: NodeJS.Signals) => void;
		let ready!: () => void;
		const started = new Promise<void>((resolve) => (ready = resolve));
		const done = run(['--port', '0', '--admin-token', 'adm_cli-test-token'], (text, kill) => {
			output = text;
			stop = kill;
			if (text.includes('admin token:')) ready();
		});
		await started;
		try {
			const url = /listening on (\S+)/.exec(output)![1];
			const id = /dev account id:\s+(\S+)/.exec(output)![1];
			const list = await fetch(`${url}/__admin/accounts`, {
				headers: { authorization: 'Bearer adm_cli-test-token' },
			}).then((r) => r.json() as Promise<{ accounts: { id: string }[] }>);
			expect(list.accounts[0]).toMatchObject({ id, dev: true, credits: 10000 });
		} finally {
			stop('SIGTERM');
			await done;
		}
	});

	/**
	 * The server as a process manager starts it (its PID is what gets signalled), ready once it
	 * printed its admin token; `stop` sends SIGTERM and resolves with the exit code.
	 */
	/** The command line from its sources (through tsx), or as its package ships it (`bundle`). */
	async function startCli(args: string[], env: NodeJS.ProcessEnv, bundle = false) {
		const entry = bundle ? [buildBundle()] : ['--import', 'tsx', CLI];
		const child = spawn(process.execPath, [...entry, '--db', ':memory:', ...args], {
			stdio: ['ignore', 'pipe', 'inherit'],
			env: { ...process.env, ...env },
		});
		let stdout = '';
		await new Promise<void>((resolve) =>
			child.stdout.on('data', (chunk) => {
				stdout += chunk;
				if (stdout.includes('admin token:')) resolve();
			}),
		);
		return {
			pid: child.pid!,
			stop: () => {
				const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
				child.kill('SIGTERM');
				return exited;
			},
		};
	}

	it("gives its own process V8's young-generation size, gc and allocator (same PID), unless the user set them", async () => {
		const settingsOf = async (env: NodeJS.ProcessEnv) => {
			const server = await startCli(['--port', '0'], env);
			// The process the caller started (its PID is what a process manager signals) now runs
			// with these arguments and environment.
			const args = readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0');
			const environ = readFileSync(`/proc/${server.pid}/environ`, 'utf8').split('\0');
			expect(await server.stop()).toBe(0);
			return [
				...args.filter((arg) => /^--(max-semi-space-size|expose-gc)/.test(arg)),
				...environ.filter((entry) => entry.startsWith('MALLOC_ARENA_MAX=')),
			];
		};
		expect(await settingsOf({})).toEqual([
			'--max-semi-space-size=8',
			'--expose-gc',
			'MALLOC_ARENA_MAX=2',
		]);
		// The user's own size and allocator stay theirs; gc, which returns memory when idle, is
		// still added.
		expect(
			await settingsOf({ NODE_OPTIONS: '--max-semi-space-size=16', MALLOC_ARENA_MAX: '4' }),
		).toEqual(['--expose-gc', 'MALLOC_ARENA_MAX=4']);
		expect(await settingsOf({ NODE_OPTIONS: '--max-semi-space-size=16 --expose-gc' })).toEqual([]);
	});

	it('starts its helper processes from their own bundle, connected to it, the scanners at a lower priority, with mapped 64 KiB buffers unless the user set the allocator', async () => {
		const allocatorOf = async (env: NodeJS.ProcessEnv) => {
			const port = await freePort();
			// The bin as shipped: its helpers run the helpers' bundle beside it, which holds their
			// code only (from the sources they run thread.cts).
			const server = await startCli(
				['--port', String(port), '--log', 'off'],
				{ MOCK_DEV_KEY: 'dev_allocator_test_key', ...env },
				true,
			);
			try {
				// A search starts the scanner and synthetic-web processes.
				const res = await fetch(`http://127.0.0.1:${port}/api/v1/niche-finder-leads`, {
					method: 'POST',
					headers: {
						authorization: 'Bearer dev_allocator_test_key',
						'content-type': 'application/json',
					},
					body: JSON.stringify({ niche: 'dentist', city: 'Boise', count: 1 }),
				});
				expect(res.status).toBe(200);
				const helpers = readFileSync(`/proc/${server.pid}/task/${server.pid}/children`, 'utf8')
					.split(/\s+/)
					.filter(Boolean);
				expect(helpers.length).toBeGreaterThanOrEqual(2);
				// The nice value (/proc's stat, field 19, after the command's parenthesis): the
				// scanners run 5 below the server, so the synthetic web answers in time under load.
				const niceOf = (pid: number | string) =>
					Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[16]);
				const roleOf = (pid: string) =>
					/LEAD_INBOX_MOCK_SERVER_HELPER=([\w-]+)/.exec(
						readFileSync(`/proc/${pid}/environ`, 'utf8'),
					)![1];
				expect(
					Object.fromEntries(helpers.map((pid) => [roleOf(pid), niceOf(pid) - niceOf(server.pid)])),
				).toEqual({ scanner: 5, 'synthetic-web': 0 });
				for (const pid of helpers) {
					expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain(
						join(dirname(buildBundle()), 'lead-inbox-mock-server-helper'),
					);
					// Still the server's helper: its channel to the server is open (a process that
					// started itself again would have lost it and run as a server of its own).
					const channel = readFileSync(`/proc/${pid}/environ`, 'utf8')
						.split('\0')
						.find((entry) => entry.startsWith('NODE_CHANNEL_FD='))!
						.split('=')[1];
					expect(existsSync(`/proc/${pid}/fd/${channel}`)).toBe(true);
				}
				return helpers.map(
					(pid) =>
						readFileSync(`/proc/${pid}/environ`, 'utf8')
							.split('\0')
							.find((entry) => entry.startsWith('MALLOC_MMAP_THRESHOLD_=')) ?? 'none',
				);
			} finally {
				await server.stop();
			}
		};
		expect(new Set(await allocatorOf({}))).toEqual(new Set(['MALLOC_MMAP_THRESHOLD_=65536']));
		expect(new Set(await allocatorOf({ MALLOC_MMAP_THRESHOLD_: '131072' }))).toEqual(
			new Set(['MALLOC_MMAP_THRESHOLD_=131072']),
		);
	});

	it('SIGTERM to the PID that `npm start` reports ends the server and frees the port', async () => {
		const port = await freePort();
		const npm = spawn('npm', ['start', '--', '--port', String(port), '--db', ':memory:'], {
			cwd: join(__dirname, '../..'),
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let stdout = '';
		await new Promise<void>((resolve) =>
			npm.stdout.on('data', (chunk) => {
				stdout += chunk;
				if (stdout.includes('admin token:')) resolve();
			}),
		);
		const exited = new Promise((resolve) => npm.once('exit', resolve));
		npm.kill('SIGTERM');
		await exited;
		// The port is free again once the server itself has stopped.
		const free = () =>
			new Promise<boolean>((resolve) => {
				const probe = net.createServer();
				probe.once('error', () => resolve(false));
				probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
			});
		await waitUntil(free, WAIT_MS, `the server to let go of port ${port} after npm stopped`, 100);
	});
});
