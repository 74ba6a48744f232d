/**
 * What test files run on. An n8n of its own per worker (`--jobs`): a fresh user folder with the
 * community node packages installed, started once and reused by the worker's files one after
 * another. The services a file uses opened for it alone (their seed, their clock: files never see
 * each other's time or faults), with their credentials in that n8n pointing at them.
 */
import { createHash } from 'node:crypto';
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	renameSync,
	rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { ModelScripts } from './ai/script.cjs';
import { startScriptedModel } from './ai/scripted-model.cjs';
import { checkClock } from './clock/clock-check.cjs';
import { ClockControl, PRELOAD } from './clock/clock-control.cjs';
import type { LoadedTestFile } from './file/load.cjs';
import { mocksIn } from './file/misfits.cjs';
import { createCredentials, credentialUses } from './http-mocks/credentials.cjs';
import { MockProxy } from './http-mocks/proxy.cjs';
import { N8nApp } from './n8n/app.cjs';
import { defaultCache, type N8nInstall } from './n8n/install.cjs';
import { RUNNER_ENV } from './n8n/lines.cjs';
import type { Rest } from './n8n/rest.cjs';
import { atVersion } from './n8n/versions.cjs';
import type { ServiceSession, WorkflowTestService } from './services/service.cjs';
import { staysInside } from './workflow/node-kinds.cjs';

/** A community node package to install: a packed tarball, or an installed package's folder. */
export type NodesSource = { tarball: string } | { folder: string };

/** A started n8n, reused by the test files of one worker. */
export interface N8nHost {
	app: N8nApp;
	rest: Rest;
	/** n8n's clock: the test's time in n8n's main process and its task runners. */
	clock: ClockControl;
	/**
	 * How many events n8n's triggers have handed to a workflow (by name) so far: each starts an
	 * execution. Read from n8n's debug log, which n8n writes before it answers the activation.
	 */
	triggerEvents(workflowName: string): number;
	/** A node type's outputs as n8n describes them (a list, or an expression n8n evaluates). */
	described(type: string, version?: number): Promise<NodeDescription | undefined>;
	/** The proxy n8n's requests to other hosts go through, answered by the running case's mocks. */
	http: MockProxy;
	close(): Promise<void>;
}

/** The part of n8n's node description the runner reads. */
export interface NodeDescription {
	name: string;
	version: number | number[];
	outputs?: unknown;
	outputNames?: string[];
}

/** A service opened for a test file, with the credential its nodes get in n8n. */
export interface OpenService {
	service: WorkflowTestService;
	session: ServiceSession;
	credential?: { type: string; id: string; name: string };
}

/** A test file's services and credentials, on its worker's n8n. */
export interface Session extends Omit<N8nHost, 'close'> {
	/** The services the file uses, opened for it. */
	services: OpenService[];
	/** Puts every service back as the file has it (before each case). */
	reset(): Promise<void>;
	/** Made-up credentials for the nodes that run for real against mocks, by type and export name. */
	madeUp: Map<string, { id: string; name: string }>;
	/** The secrets in the made-up credentials (given or made up): masked in every report. */
	secrets: string[];
	/** The scripted chat model, when the file stubs a model: its scripts and its credential. */
	model?: { scripts: ModelScripts; credential: { id: string; name: string } };
	close(): Promise<void>;
}

/**
 * n8n's bookkeeping that reads the clock, set so a case's clock (any instant, moved by days or
 * months) leaves it working: executions are never pruned (a case's first run would be "older
 * than 14 days" after a month's advance), and the runner's sign-in lasts a century (its session
 * would expire after an advance of a week). The timezone is UTC unless the workflow's settings
 * name one, as the Schedule item the runner makes.
 */
const CLOCK_ENV: Record<string, string> = {
	EXECUTIONS_DATA_PRUNE: 'false',
	N8N_USER_MANAGEMENT_JWT_DURATION_HOURS: String(100 * 365 * 24),
	GENERIC_TIMEZONE: 'UTC',
};

const OWNER = { email: 'owner@workflow-tests.test', password: 'Workflow-tests-1' };

export async function freePort(): Promise<number> {
	return await new Promise((resolve, reject) => {
		const probe = createServer();
		probe.once('error', reject);
		probe.listen(0, '127.0.0.1', () => {
			const { port } = probe.address() as { port: number };
			probe.close(() => resolve(port));
		});
	});
}

/**
 * The database of a fresh n8n user folder with n8n's migrations run, one per n8n install, made the
 * first time (an import of no credentials migrates it) into a folder renamed into place when done,
 * so test runs side by side never read half of one.
 */
async function migratedDatabase(
	n8n: N8nInstall,
	progress: (line: string) => void,
): Promise<string> {
	const key = createHash('sha256')
		.update(`${n8n.version}|${n8n.packageDir}|${n8n.nodeBin}`)
		.digest('hex')
		.slice(0, 16);
	const folder = join(defaultCache(), 'databases', `n8n-${n8n.version}-${key}`);
	const database = join(folder, '.n8n', 'database.sqlite');
	if (existsSync(database)) return database;
	progress(`preparing a database for n8n ${n8n.version} (once)`);
	mkdirSync(dirname(folder), { recursive: true });
	const making = mkdtempSync(`${folder}.making-`);
	try {
		const app = new N8nApp(n8n, { dir: making, port: 0, brokerPort: 0 });
		await app.importCredentials([]);
		renameSync(making, folder);
	} catch (error) {
		rmSync(making, { recursive: true, force: true });
		// Another run made it meanwhile.
		if (!existsSync(database)) throw error;
	}
	return database;
}

/** Starts an n8n for a worker's test files. */
export async function startHost(options: {
	n8n: N8nInstall;
	nodes: NodesSource[];
	dir: string;
	progress: (line: string) => void;
}): Promise<N8nHost> {
	mkdirSync(options.dir, { recursive: true });
	const ports = async () => ({ port: await freePort(), brokerPort: await freePort() });
	const first = await ports();
	// Nothing between the clock's start and the try below can fail but n8n's folder being made.
	const clock = await ClockControl.start(options.dir);
	const http = await MockProxy.start(options.dir).catch(async (error: unknown) => {
		await clock.close();
		throw error;
	});
	// A mock that never answers: n8n's clock times out the client waiting for it, at once.
	http.timeOut = (exchange) => clock.timeOut(exchange);
	const app = new N8nApp(options.n8n, {
		dir: options.dir,
		...first,
		freePorts: ports,
		nodeArgs: ['--require', PRELOAD],
		env: {
			...RUNNER_ENV,
			...CLOCK_ENV,
			...clock.n8nEnv,
			// n8n's HTTP clients send anything but loopback to the runner's proxy, where the running
			// case's mocks answer (nothing else does): an outside call never reaches a real service.
			...http.n8nEnv,
		},
	});
	const close = async () => {
		await app.stop();
		await http.close();
		await clock.close();
		rmSync(options.dir, { recursive: true, force: true });
	};
	try {
		// A database n8n has already migrated (made once per n8n install, kept in the cache): a
		// fresh user folder would spend seconds on n8n's migrations.
		const template = await migratedDatabase(options.n8n, options.progress);
		for (const file of readdirSync(dirname(template)).filter(
			(f) => f.startsWith('database.sqlite') && !f.endsWith('-shm'),
		))
			copyFileSync(join(dirname(template), file), join(options.dir, '.n8n', file));
		if (options.nodes.length)
			options.progress(
				`installing ${options.nodes.length === 1 ? 'the community node package' : `${options.nodes.length} community node packages`} into a fresh n8n ${options.n8n.version} folder`,
			);
		// Tarballs through npm first, then folders copied in (npm would prune a copy it did not make).
		for (const source of options.nodes)
			if ('tarball' in source) await app.installPackage(source.tarball);
		for (const source of options.nodes)
			if ('folder' in source) app.installPackageFolder(source.folder);
		options.progress(`starting n8n ${options.n8n.version}`);
		// At debug level n8n logs each event a trigger hands on (every line supported says it so).
		const main = await app.start({ N8N_LOG_LEVEL: 'debug' });
		const events = new Map<string, number>();
		const EVENT = /Received event to trigger execution for workflow "(.*)"/g;
		let partial = '';
		const count = (chunk: Buffer) => {
			const text = partial + chunk.toString();
			const end = text.lastIndexOf('\n');
			partial = text.slice(end + 1);
			for (const match of text.slice(0, end + 1).matchAll(EVENT))
				events.set(match[1], (events.get(match[1]) ?? 0) + 1);
		};
		main.child.stdout?.on('data', count);
		main.child.stderr?.on('data', count);
		const rest = await app.signInOwner(OWNER);
		// The test clock proven to reach every reader of "now" in this n8n, before any test.
		await checkClock({
			version: options.n8n.version,
			url: app.url,
			rest,
			flatted: app.runDataReader,
			clock,
		});
		// n8n's node descriptions (megabytes): read once, when a case names an output or coverage
		// is asked for.
		let types: NodeDescription[] | undefined;
		const described = async (type: string, version?: number) => {
			types ??= (await rest('GET', '/types/nodes.json')).body as NodeDescription[];
			return atVersion(Array.isArray(types) ? types.filter((t) => t.name === type) : [], version);
		};
		return {
			app,
			rest,
			clock,
			triggerEvents: (name) => events.get(name) ?? 0,
			described,
			http,
			close,
		};
	} catch (error) {
		await close().catch(() => undefined);
		throw error;
	}
}

/**
 * A test file's services opened (each claimed node's credential made in the host's n8n, pointing at
 * its simulator: every node the service claims uses it, whichever credential the export names),
 * the scripted model when the file stubs one, and the made-up credentials of the nodes that run for
 * real against mocks.
 */
export async function openSession(loaded: LoadedTestFile, host: N8nHost): Promise<Session> {
	const { spec } = loaded;
	const opened: OpenService[] = [];
	const closeOpened = () => Promise.all(opened.map((o) => o.session.close()));
	try {
		const nodes = [loaded.workflow, ...loaded.subWorkflows.map((s) => s.workflow)].flatMap(
			(w) => w.nodes,
		);
		for (const service of loaded.services) {
			const session = await service.open({
				file: loaded.file,
				spec: spec as Record<string, unknown>,
				nodes,
			});
			const one: OpenService = { service, session };
			opened.push(one);
			if (session.credential) {
				const name = `${service.name} (workflow test: ${loaded.file})`.slice(0, 128);
				const created = await host.rest('POST', '/credentials', { name, ...session.credential });
				if (created.status !== 200)
					throw new Error(
						`n8n refused the ${service.name} credential: ${JSON.stringify(created.body).slice(0, 500)}`,
					);
				one.credential = {
					type: session.credential.type,
					id: String((created.body as { data: { id: string } }).data.id),
					name,
				};
			}
		}
		const model = stubsModels(spec) ? await scriptedModelFor(host, loaded.file) : undefined;
		// The credentials of the nodes that may run for real (a file with mocks), made up.
		const madeUp = spec.cases.some((c) => mocksIn(spec, c))
			? await createCredentials(
					host.rest,
					credentialUses(nodes.filter((n) => !staysInside(n.type, loaded.claims) && !n.disabled)),
					spec.credentials ?? {},
					`workflow test: ${loaded.file}`,
				)
			: { created: new Map<string, { id: string; name: string }>(), secrets: [] };
		return {
			...host,
			services: opened,
			reset: async () => {
				for (const { session } of opened) await session.reset();
			},
			madeUp: madeUp.created,
			secrets: madeUp.secrets,
			...(model ? { model: { scripts: model.scripts, credential: model.credential } } : {}),
			close: async () => {
				await model?.server.close();
				await closeOpened();
			},
		};
	} catch (error) {
		await closeOpened();
		throw error;
	}
}

/** Whether any stub of the file (its own or a case's) is a scripted model. */
const stubsModels = (spec: LoadedTestFile['spec']): boolean =>
	[spec.stubs, ...spec.cases.map((c) => c.stubs)].some((stubs) =>
		Object.values(stubs ?? {}).some((stub) => typeof stub === 'object' && 'model' in stub),
	);

/** The scripted chat model of a file, and an OpenAI credential in n8n pointing at it. */
async function scriptedModelFor(host: N8nHost, file: string) {
	const scripts = new ModelScripts();
	const server = await startScriptedModel(scripts.reply);
	const name = `Scripted model (workflow test: ${file})`.slice(0, 128);
	const created = await host.rest('POST', '/credentials', {
		name,
		type: 'openAiApi',
		data: { apiKey: 'sk-scripted-model', url: server.url },
	});
	if (created.status !== 200) {
		await server.close();
		throw new Error(
			`n8n refused the scripted model's credential: ${JSON.stringify(created.body).slice(0, 500)}`,
		);
	}
	const id = String((created.body as { data: { id: string } }).data.id);
	return { scripts, server, credential: { id, name } };
}
