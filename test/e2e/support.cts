import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import {
	type Execution as RunnerExecution,
	executionsOf as readExecutions,
	flattedOf as flattedIn,
	runInEditor as runManually,
} from '../../n8n-testkit/src/n8n/executions.cjs';
import type { Rest } from '../helpers/n8n-rest.cjs';
import { freePort } from '../helpers/ports.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';
import { CACHE, N8nApp, n8nBinOf, type N8nVersion } from './n8n-app.cjs';
import { processFolder } from './process-folders.cjs';

export const ROOT = join(__dirname, '..', '..');
export const EXAMPLES = join(ROOT, 'examples');
export const CREDENTIAL = { id: 'leadInboxLocal01', name: 'Lead Inbox account' };

/** What a command said, and its exit status: a failing status is an outcome to check, not a throw. */
export interface Outcome {
	code: number;
	stdout: string;
	stderr: string;
}

/** Runs a program (a project's bin, as a user runs it) and answers its outcome. */
export async function outcomeOf(
	program: string,
	args: string[],
	options: { cwd: string; env?: Record<string, string> },
): Promise<Outcome> {
	try {
		const { stdout, stderr } = await promisify(execFile)(program, args, {
			cwd: options.cwd,
			env: { ...process.env, ...options.env },
			maxBuffer: 16 * 1024 * 1024,
		});
		return { code: 0, stdout, stderr };
	} catch (error) {
		const e = error as { code?: number; stdout: string; stderr: string };
		return { code: typeof e.code === 'number' ? e.code : -1, stdout: e.stdout, stderr: e.stderr };
	}
}

/** A runner's options for an n8n line: its installed n8n and the Node.js it runs on. */
export const n8nArgs = (line: N8nVersion): string[] => [
	'--n8n',
	n8nBinOf(line),
	'--n8n-node',
	line.nodeBin,
];

/** `npm pack` of a package folder into the cache; the tarball's path. */
export function pack(folder: string, into: string): string {
	// Per test process: another file or Jest run may be packing the same package at the same moment.
	const destination = processFolder(CACHE, into);
	// One pack of a folder at a time on this machine: packing the server rebuilds mock-server/dist
	// (its prepack), and two suites (.ci/run's lanes) may pack it at once.
	const name = execFileSync(
		'flock',
		[
			join(CACHE, 'pack.lock'),
			'npm',
			'pack',
			'--silent',
			'--pack-destination',
			destination,
			// The nodes package's prepack builds it again: its suites have built it already.
			...(folder === ROOT ? ['--ignore-scripts'] : []),
		],
		{
			cwd: folder,
			encoding: 'utf8',
		},
	)
		.trim()
		.split('\n')
		.pop()!;
	return join(destination, name);
}

let tarball: string | undefined;
/** The built node package, packed once per run (the same file a user installs). */
export function packedPackage(): string {
	return (tarball ??= pack(ROOT, 'pack'));
}

let runnerTarball: string | undefined;
/**
 * The workflow test runner's package (n8n-testkit), packed once per process: the reference
 * server's package depends on it, so a project installing the packed server installs it beside.
 */
export function packedRunner(): string {
	return (runnerTarball ??= pack(join(ROOT, 'n8n-testkit'), 'pack-runner'));
}

export function loadExample(file: string): any {
	return JSON.parse(readFileSync(join(EXAMPLES, file), 'utf8'));
}

/** The example workflows (examples/ also holds a seed file and a CSV). */
export function exampleFiles(): string[] {
	return readdirSync(EXAMPLES).filter(
		(f) => f.endsWith('.json') && Array.isArray(loadExample(f).nodes),
	);
}

/**
 * The example as a user sets it up (its sticky note says what to set): file paths point into the
 * instance's files folder, where the sample CSV is copied.
 */
export function prepareExample(app: N8nApp, workflow: any): any {
	for (const node of workflow.nodes) {
		if (node.type === 'n8n-nodes-base.readWriteFile') {
			const file = node.parameters.fileSelector.split('/').pop();
			copyFileSync(join(EXAMPLES, file), join(app.filesDir, file));
			node.parameters.fileSelector = join(app.filesDir, file);
		}
	}
	return workflow;
}

export interface Stack {
	app: N8nApp;
	server: TestServer;
	account: { accountId: string; apiKey: string };
}

/**
 * The reference server, and one n8n app with the packed package installed as the README says and
 * a Lead Inbox API credential pointing at the server.
 */
export async function startStack(
	target: N8nVersion,
	/** `env`: more environment for n8n (queue mode's database and Redis, say). */
	options: { credits?: number; credential?: boolean; env?: Record<string, string> } = {},
): Promise<Stack> {
	const server = await startServer({ log: false });
	const app = new N8nApp(target, { port: await freePort(), brokerPort: await freePort() });
	Object.assign(app.env, options.env);
	await app.installPackage(packedPackage());
	const account = await server.newAccount({ credits: options.credits ?? 1000 });
	if (options.credential === false) return { app, server, account };
	await app.importCredentials([
		{
			...CREDENTIAL,
			type: 'leadInboxApi',
			data: {
				apiKey: account.apiKey,
				leadsBaseUrl: server.url,
				inboxBaseUrl: `${server.url}/api/v1`,
			},
		},
	]);
	return { app, server, account };
}

/** The three inboxes the trigger tests follow, in a pool named Outreach (no connection test). */
export async function createOutreachInboxes(stack: Stack): Promise<void> {
	const created = await stack.server.call('POST', '/api/v1/inboxes?poolName=Outreach', {
		key: stack.account.apiKey,
		body: ['sam@gmail.com', 'alex@gmail.com', 'kim@yahoo.com'].map((emailAddress) => ({
			emailAddress,
			imapPassword: 'app-password',
			skipConnectionTest: true,
		})),
	});
	if (created.body?.summary?.created !== 3)
		throw new Error(`the three inboxes were not created: ${JSON.stringify(created.body)}`);
}

/**
 * The package's nodes in a workflow use only parameters their node declares, and set the required
 * ones n8n would find empty: n8n silently drops an unknown parameter and refuses a workflow with a
 * missing one without saying which node, so the suite names both here. A required parameter left
 * out is missing only when its default is empty: n8n fills in defaults when it loads a workflow
 * (n8n-workflow's Workflow constructor) before it looks for empty required ones
 * (getParameterIssues), as saved workflows leave out values equal to their default.
 */
export function checkParameters(workflow: any): void {
	const problems: string[] = [];
	for (const node of workflow.nodes) {
		const [pkg, type] = String(node.type).split('.');
		if (pkg !== 'n8n-nodes-lead-inbox') continue;
		// A tool variant (fetchLeadsTool) takes the parameters of its node.
		const base = type.replace(/Tool$/, '');
		const cls = base[0].toUpperCase() + base.slice(1);
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const module = require(join(ROOT, 'dist', 'nodes', cls, `${cls}.node.js`));
		const properties = new module[cls]().description.properties as {
			name: string;
			required?: boolean;
			type: string;
			default?: unknown;
			displayOptions?: unknown;
		}[];
		const known = properties.filter((p) => p.type !== 'notice').map((p) => p.name);
		// n8n adds the schedule of a polling trigger itself.
		if (new module[cls]().description.polling) known.push('pollTimes');
		for (const name of Object.keys(node.parameters ?? {}))
			if (!known.includes(name))
				problems.push(
					`node "${node.name}": unknown parameter "${name}" (${base} has ${known.join(', ')})`,
				);
		for (const p of properties)
			if (
				p.required &&
				!p.displayOptions &&
				(p.default === undefined || p.default === null || p.default === '') &&
				!(p.name in (node.parameters ?? {}))
			)
				problems.push(`node "${node.name}": required parameter "${p.name}" is not set`);
	}
	if (problems.length) throw new Error(`Workflow "${workflow.name}": ${problems.join('; ')}`);
}

export async function waitFor<T>(
	what: string,
	probe: () => Promise<T | undefined>,
	ms: number,
): Promise<T> {
	const deadline = Date.now() + ms;
	for (;;) {
		const value = await probe();
		if (value !== undefined) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
}

/** n8n keeps run data in its "flatted" format; its own copy of the library reads it. */
const flattedOf = (version: string) =>
	flattedIn(join(CACHE, `n8n-${version}`, 'node_modules', 'n8n'));

/**
 * The run data of the newest execution as n8n stored it in its own database (the user folder's
 * SQLite file), per node: what anyone with access to n8n's executions can read.
 */
export function lastStoredRunData(app: N8nApp): Record<string, any[]> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { DatabaseSync } = require('node:sqlite') as typeof import('node:sqlite');
	const db = new DatabaseSync(join(app.dir, '.n8n', 'database.sqlite'), { readOnly: true });
	try {
		const row = db
			.prepare('SELECT data FROM execution_data ORDER BY executionId DESC LIMIT 1')
			.get() as { data: string } | undefined;
		if (!row) throw new Error('n8n stored no execution');
		return (app.runDataReader.parse(row.data) as any).resultData.runData;
	} finally {
		db.close();
	}
}

export { executionList, finished, startInEditor } from '../../n8n-testkit/src/n8n/executions.cjs';

/** An execution as the suite reads it: a node's items of any shape (asserting on them is the point). */
export type Execution = Omit<RunnerExecution, 'items'> & { items: (node: string) => any[] };
const forSuite = (e: RunnerExecution): Execution => e as Execution;

/** Finished executions of a workflow, newest first, with their data parsed (n8n's REST API). */
export async function executionsOf(
	rest: Rest,
	version: string,
	workflowId: string,
): Promise<Execution[]> {
	return (await readExecutions(rest, flattedOf(version), workflowId)).map(forSuite);
}

/** Runs a stored workflow by hand from `trigger` and waits for its execution. */
export async function runInEditor(
	rest: Rest,
	version: string,
	workflowId: string,
	trigger: string,
): Promise<Execution> {
	return forSuite(await runManually(rest, flattedOf(version), workflowId, trigger));
}
