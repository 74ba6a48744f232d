/**
 * One real n8n app with a user folder of its own, driven through its CLI (import, execute) and,
 * once started, its REST API. Everything n8n writes stays in `dir`. The runner's test files and
 * the project's own end-to-end suite both drive n8n through this class.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
	type Flatted,
	flattedOf,
	readResultData,
	type RunData,
	type StoredResultData,
} from './executions.cjs';
import type { N8nInstall } from './install.cjs';
import { lineEnv, publishCommand } from './lines.cjs';
import { type Owner, type Rest, setupOwner, signInOwner } from './rest.cjs';

const run = promisify(execFile);

/** A running n8n process and everything it printed so far. */
export interface N8nProcess {
	child: ChildProcess;
	log: string;
}

/** An item as n8n hands it on. */
export interface N8nItem {
	json: Record<string, unknown>;
	pairedItem?: unknown;
	binary?: Record<string, unknown>;
}

export interface RunResult extends RunData {
	status: 'success' | 'error';
	/** Items per node and output index, from the last run of each node. */
	output(node: string, outputIndex?: number): N8nItem[];
	/** What `n8n execute --rawOutput` printed, parsed. */
	raw: unknown;
}

export interface N8nAppOptions {
	/** The user folder (N8N_USER_FOLDER): made if missing. */
	dir: string;
	port: number;
	/** The task broker's port (2.x runs Code nodes through it; two apps need two). */
	brokerPort: number;
	/** More environment (queue mode's database and Redis, say). */
	env?: Record<string, string>;
	/** Node.js arguments of the processes `start` and `startProcess` start (the test clock's --require). */
	nodeArgs?: string[];
	/**
	 * Chooses other free ports when n8n finds one of its ports taken as it starts: a port found
	 * free can be taken by any process before n8n binds it (the kernel hands the same range to
	 * outgoing connections), and n8n then exits. Without it, `start` fails.
	 */
	freePorts?: () => Promise<{ port: number; brokerPort: number }>;
}

/** What n8n logs before it exits when its port or its task broker's is taken (every line). */
const PORT_TAKEN = /port \d+ is already in use/;
/** Starts tried with other ports before `start` gives up. */
const PORT_ATTEMPTS = 5;

function portEnv(port: number, brokerPort: number): Record<string, string> {
	return {
		N8N_PORT: String(port),
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		WEBHOOK_URL: `http://127.0.0.1:${port}/`,
	};
}

export class N8nApp {
	readonly dir: string;
	private _port: number;
	readonly env: Record<string, string>;
	private readonly nodeArgs: string[];
	private readonly freePorts?: N8nAppOptions['freePorts'];
	private readonly processes: N8nProcess[] = [];

	constructor(
		readonly install: N8nInstall,
		options: N8nAppOptions,
	) {
		this.dir = options.dir;
		this._port = options.port;
		this.nodeArgs = options.nodeArgs ?? [];
		this.freePorts = options.freePorts;
		mkdirSync(join(this.dir, '.n8n', 'nodes'), { recursive: true });
		mkdirSync(this.filesDir, { recursive: true });
		// Not a test runner's environment: n8n keeps its database in memory under NODE_ENV=test.
		const inherited = Object.fromEntries(
			Object.entries(process.env).filter(
				([key]) => key !== 'NODE_ENV' && !key.startsWith('JEST_') && !key.startsWith('N8N_'),
			),
		) as Record<string, string>;
		this.env = {
			...inherited,
			NODE_ENV: 'production',
			PATH: `${install.nodeBin}:${process.env.PATH}`,
			N8N_USER_FOLDER: this.dir,
			N8N_ENCRYPTION_KEY: 'lead-inbox-runner-encryption-key-0001',
			...portEnv(options.port, options.brokerPort),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_RESTRICT_FILE_ACCESS_TO: this.filesDir,
			N8N_LOG_LEVEL: 'warn',
			DB_SQLITE_POOL_SIZE: '2',
			// n8n answers every request 503 "Database is not ready!" after one database ping past
			// its time-out (5 s), which a busy machine reaches with SQLite on its own disk: a
			// minute here (2.x reads it; 1.123's is fixed: rest.cts's n8nFetch covers both).
			N8N_DB_PING_TIMEOUT: '60000',
			...lineEnv(install.version),
			...options.env,
		};
	}

	get version(): string {
		return this.install.version;
	}

	/** The main process's port (another than the one given if `freePorts` chose again). */
	get port(): number {
		return this._port;
	}

	/** Whether the main process has ended (n8n crashed, or was stopped). */
	get exited(): boolean {
		const main = this.processes[0]?.child;
		return main !== undefined && (main.exitCode !== null || main.signalCode !== null);
	}

	/** The main process's ID (the first started), once started. */
	get pid(): number | undefined {
		return this.processes[0]?.child.pid;
	}

	/** The folder n8n's file nodes may read (N8N_RESTRICT_FILE_ACCESS_TO). */
	get filesDir(): string {
		return join(this.dir, 'files');
	}

	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	private get nodesDir(): string {
		return join(this.dir, '.n8n', 'nodes');
	}

	/** Installs a packed community package the way the README says: into <user folder>/.n8n/nodes. */
	async installPackage(tarball: string): Promise<void> {
		if (!existsSync(join(this.nodesDir, 'package.json')))
			writeFileSync(
				join(this.nodesDir, 'package.json'),
				'{"name":"installed-nodes","private":true}\n',
			);
		await run('npm', ['install', '--omit=peer', '--omit=dev', '--no-audit', '--no-fund', tarball], {
			cwd: this.nodesDir,
			env: this.env,
		});
	}

	/**
	 * Installs a package folder as installed (a project's node_modules/n8n-nodes-lead-inbox): a copy
	 * where n8n looks for community packages, as npm would leave it. The package has no runtime
	 * dependencies, so nothing is fetched.
	 */
	installPackageFolder(folder: string): void {
		const { name, version } = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
			name: string;
			version: string;
		};
		const target = join(this.nodesDir, 'node_modules', name);
		rmSync(target, { recursive: true, force: true });
		cpSync(folder, target, {
			recursive: true,
			dereference: true,
			filter: (source) => !source.slice(folder.length).includes('node_modules'),
		});
		// Beside the packages installed before it (tarballs are installed first: npm would prune a copy).
		const manifest = join(this.nodesDir, 'package.json');
		const before = existsSync(manifest)
			? (JSON.parse(readFileSync(manifest, 'utf8')) as { dependencies?: Record<string, string> })
			: {};
		writeFileSync(
			manifest,
			JSON.stringify({
				name: 'installed-nodes',
				private: true,
				dependencies: { ...before.dependencies, [name]: version },
			}),
		);
	}

	async cli(args: string[], env: Record<string, string> = {}): Promise<string> {
		try {
			const { stdout } = await run(
				join(this.install.nodeBin, 'node'),
				[this.install.bin, ...args],
				{
					env: { ...this.env, ...env },
					maxBuffer: 64 * 1024 * 1024,
				},
			);
			return stdout;
		} catch (error) {
			const e = error as { stdout?: string; stderr?: string; message: string };
			throw Object.assign(
				new Error(`n8n ${args[0]} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`),
				{ stdout: e.stdout },
			);
		}
	}

	async importCredentials(credentials: object[]): Promise<void> {
		const file = join(this.dir, 'credentials.json');
		writeFileSync(file, JSON.stringify(credentials));
		await this.cli(['import:credentials', `--input=${file}`]);
		rmSync(file);
	}

	async importWorkflow(workflow: object): Promise<void> {
		const file = join(this.dir, 'workflow.json');
		writeFileSync(file, JSON.stringify(workflow));
		await this.cli(['import:workflow', `--input=${file}`]);
	}

	/** Publishes (2.x) or activates (1.x, which has no publishing) an imported workflow. */
	async publish(workflowId: string): Promise<void> {
		await this.cli(publishCommand(this.version, workflowId));
	}

	/**
	 * Runs an imported workflow headless (`n8n execute --rawOutput`). A failed run is returned as
	 * such (n8n exits 1 and prints the run data to its log), never thrown.
	 */
	async execute(workflowId: string): Promise<RunResult> {
		let stdout: string;
		try {
			// n8n prints a failed run's data at log level info only.
			stdout = await this.cli(['execute', `--id=${workflowId}`, '--rawOutput'], {
				N8N_LOG_LEVEL: 'info',
			});
		} catch (error) {
			stdout = (error as { stdout?: string }).stdout ?? '';
			if (!/^\{/m.test(stdout)) throw error;
		}
		// The JSON starts at the first line that begins with "{"; n8n may log lines before it.
		const lines = stdout.split('\n');
		const first = lines.findIndex((line) => line.startsWith('{'));
		const last = lines.map((line) => line.startsWith('}')).lastIndexOf(true);
		let raw: {
			data: {
				resultData: StoredResultData & {
					runData: Record<string, { data?: { main?: N8nItem[][] } }[]>;
				};
			};
		};
		try {
			raw = JSON.parse(lines.slice(first, last + 1).join('\n')) as typeof raw;
		} catch {
			throw new Error(`n8n execute printed no run data:\n${stdout.slice(-4000)}`);
		}
		const resultData = raw.data.resultData;
		const data = readResultData(resultData);
		return {
			...data,
			status: data.error ? 'error' : 'success',
			raw,
			output: (node, outputIndex = 0) => {
				const runs = resultData.runData[node];
				return runs?.[runs.length - 1]?.data?.main?.[outputIndex] ?? [];
			},
		};
	}

	/**
	 * Starts the app (editor and REST API) and resolves once the editor is accessible; on other
	 * ports if one was taken meanwhile and `freePorts` can choose again.
	 */
	async start(env: Record<string, string> = {}): Promise<N8nProcess> {
		for (let attempt = 1; ; attempt++) {
			try {
				return await this.startProcess(['start'], 'Editor is now accessible', env);
			} catch (error) {
				const failed = this.processes.pop();
				if (!this.freePorts || attempt === PORT_ATTEMPTS || !PORT_TAKEN.test(failed?.log ?? ''))
					throw error;
				const { port, brokerPort } = await this.freePorts();
				this._port = port;
				Object.assign(this.env, portEnv(port, brokerPort));
			}
		}
	}

	/**
	 * Starts another n8n process on this app's user folder and database (a queue-mode worker, say)
	 * and resolves once it prints `readyText`. Stopped with the app.
	 */
	async startProcess(
		args: string[],
		readyText: string,
		env: Record<string, string> = {},
	): Promise<N8nProcess> {
		const child = spawn(
			join(this.install.nodeBin, 'node'),
			[...this.nodeArgs, this.install.bin, ...args],
			{
				env: { ...this.env, N8N_LOG_LEVEL: 'info', ...env },
				stdio: ['ignore', 'pipe', 'pipe'],
				// A process group of its own, with the task runner n8n spawns: stop() ends them
				// together, and a terminal's Ctrl-C reaches the runner, which stops n8n in order.
				detached: true,
			},
		);
		const handle: N8nProcess = { child, log: '' };
		this.processes.push(handle);
		running.add(this);
		const exited = new Promise<never>((_, reject) =>
			child.once('exit', (code) =>
				reject(
					new Error(
						`n8n ${this.version} ${args[0]} exited (${code}) before it was ready:\n${handle.log.slice(-3000)}`,
					),
				),
			),
		);
		const ready = new Promise<void>((resolve) => {
			const watch = (chunk: Buffer) => {
				// Kept bounded: a long run's log is read only for its end.
				handle.log = (handle.log + chunk.toString()).slice(-200_000);
				if (handle.log.includes(readyText)) resolve();
			};
			child.stdout.on('data', watch);
			child.stderr.on('data', watch);
		});
		await Promise.race([ready, exited]);
		return handle;
	}

	/** Sets up the owner account through the REST API (what the first visit's form does). */
	async setupOwner(owner: Owner): Promise<void> {
		await setupOwner(this.url, owner);
	}

	/** Sets up the owner and signs in through the REST API; returns a caller with the session. */
	async signInOwner(owner: Owner): Promise<Rest> {
		return await signInOwner(this.url, owner);
	}

	private flatted?: Flatted;
	/** n8n's own copy of flatted, which reads its stored run data. */
	get runDataReader(): Flatted {
		return (this.flatted ??= flattedOf(this.install.packageDir));
	}

	/**
	 * Stops every process of the app (workers first, then the main instance), each with its
	 * task runners: n8n's graceful shutdown, bounded, then whatever of its group is left killed.
	 */
	async stop(): Promise<void> {
		for (const { child } of [...this.processes].reverse()) {
			if (child.exitCode === null && child.signalCode === null) {
				const exited = new Promise((resolve) => child.once('exit', resolve));
				signalGroup(child, 'SIGTERM');
				const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), STOP_GRACE_MS);
				await exited;
				clearTimeout(timer);
			}
			// n8n stops its task runner as it shuts down; one it left behind goes with the group.
			signalGroup(child, 'SIGKILL');
		}
		running.delete(this);
	}

	/** Kills every process of the app at once, with no shutdown (this process is exiting). */
	kill(): void {
		for (const { child } of this.processes) signalGroup(child, 'SIGKILL');
	}
}

/** How long n8n's graceful shutdown may take before its processes are killed. */
const STOP_GRACE_MS = 10_000;

/** The apps with processes started and not yet stopped: what a runner told to stop ends. */
const running = new Set<N8nApp>();

/** Sends a signal to a process's group (its task runners too); one already gone is left. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
	try {
		process.kill(-child.pid!, signal);
	} catch {
		// The group has ended.
	}
}

/** Stops every app still running (a runner told to stop); how many there were. */
export async function stopEveryApp(): Promise<number> {
	const apps = [...running];
	await Promise.all(apps.map((app) => app.stop()));
	return apps.length;
}

// Whatever way this process ends, no n8n it started outlives it: a group still running at exit
// (an exit from anywhere, an uncaught error) is killed, synchronously, as exit handlers must be.
process.on('exit', () => {
	for (const app of running) app.kill();
});
