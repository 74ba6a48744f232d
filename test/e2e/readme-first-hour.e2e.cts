import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../helpers/ports.cjs';
import { waitUntil } from '../helpers/wait.cjs';
import { N8nApp, NEWEST_LINE } from './n8n-app.cjs';
import { CREDENTIAL, ROOT, runInEditor } from './support.cjs';

const run = promisify(execFile);
const target = NEWEST_LINE;
const OWNER = { email: 'owner@lead-inbox.test', password: 'Lead-Inbox-e2e-1' };
const CLONE_URL = 'https://github.com/n8n-nodes-lead-inbox/n8n-nodes-lead-inbox.git';

/** The README's fenced bash blocks between two headings, each as its command lines. */
function readmeBlocks(from: string, to: string): string[][] {
	const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
	const part = readme.slice(readme.indexOf(from), readme.indexOf(to));
	return [...part.matchAll(/^( *)```bash\n([\s\S]*?)^\1```$/gm)].map(([, indent, body]) =>
		body
			.split('\n')
			.map((line) => line.slice(indent.length))
			.filter((line) => line.trim() !== ''),
	);
}

/**
 * An n8n user's first hour, as the README tells it, on a machine that never ran n8n (a fresh home
 * folder: no ~/.n8n at all) with n8n 2.40.7: the manual install with a local build and the
 * reference-server path run as the README writes them, line by line, then the credential its table
 * describes and an example workflow run from the editor's Execute button (n8n's REST call).
 * Two things differ from a user's machine, both outside the commands: the clone is made from
 * this repository's HEAD instead of GitHub, and npm runs offline from its cache (tests reach
 * nothing beyond loopback).
 */
describe('the README, followed by a new n8n user', () => {
	let app: N8nApp;
	let home: string;
	let server: ChildProcess | undefined;

	beforeAll(async () => {
		app = new N8nApp(target, { port: await freePort(), brokerPort: await freePort() });
		// n8n's user folder is ~/.n8n, as on a user's machine; nothing in it yet.
		home = app.dir;
		rmSync(join(home, '.n8n'), { recursive: true, force: true });
		rmSync(join(home, 'n8n-nodes-lead-inbox'), { recursive: true, force: true });
	});
	afterAll(async () => {
		if (server?.pid && server.exitCode === null) {
			const exited = new Promise((resolve) => server!.once('exit', resolve));
			process.kill(-server.pid, 'SIGTERM');
			await exited;
		}
		await app?.stop();
		// The clone holds a whole install (hundreds of MB): not kept in the suite's cache.
		if (home)
			rmSync(join(home, 'n8n-nodes-lead-inbox'), { recursive: true, force: true, maxRetries: 3 });
	});

	/** Runs README lines in one bash, as a user pastes them into a terminal at ~. */
	const shell = (lines: string[], env: Record<string, string> = {}) =>
		run('bash', ['-euo', 'pipefail', '-c', lines.join('\n')], {
			cwd: home,
			env: {
				...process.env,
				HOME: home,
				npm_config_cache: process.env.npm_config_cache ?? join(homedir(), '.npm'),
				npm_config_offline: 'true',
				npm_config_fund: 'false',
				npm_config_audit: 'false',
				...env,
			},
			maxBuffer: 64 * 1024 * 1024,
		});

	it('installs the nodes into ~/.n8n/nodes with a local build, as written', async () => {
		const [install, localBuild] = readmeBlocks('## Installing the nodes', '## Credentials');
		expect(install.at(-1)).toMatch(/^npm install --omit=peer --omit=dev n8n-nodes-lead-inbox\b/);
		expect(localBuild[0]).toContain(`git clone ${CLONE_URL}`);
		// The local build replaces the install by name (not on npm yet): the README says so.
		const lines = [
			...install.slice(0, -1),
			'cd ~',
			...localBuild.map((line) => line.replace(CLONE_URL, `file://${ROOT}`)),
		];
		await shell(lines);
		const installed = JSON.parse(
			readFileSync(
				join(home, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-lead-inbox', 'package.json'),
				'utf8',
			),
		);
		expect(installed.name).toBe('n8n-nodes-lead-inbox');
	});

	it('starts the reference server as written, which prints the key and the two base URLs', async () => {
		const [start] = readmeBlocks('## Try it with the reference server', '## The nodes');
		expect(start).toEqual(['cd ~/n8n-nodes-lead-inbox && npm start']);
		const port = await freePort();
		let banner = '';
		server = spawn('bash', ['-c', start.join('\n')], {
			cwd: home,
			// The README's 4010 may be taken on a test machine: another port, by its option.
			env: { ...process.env, HOME: home, MOCK_PORT: String(port), MOCK_LOG: 'off' },
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		server.stdout!.on('data', (chunk: Buffer) => (banner += chunk.toString()));
		server.stderr!.on('data', (chunk: Buffer) => (banner += chunk.toString()));
		const started = server;
		await waitUntil(
			async () => {
				if (started.exitCode !== null) throw new Error(`npm start ended:\n${banner}`);
				return /dev account API key: +\S+/.test(banner);
			},
			120_000,
			'the reference server to print its banner',
		);
		const url = `http://127.0.0.1:${port}`;
		expect(banner).toContain(`lead search base URL:  ${url}\n`);
		expect(banner).toContain(`inbox base URL:        ${url}/api/v1\n`);
		const apiKey = /dev account API key: +(\S+)/.exec(banner)![1];

		// The credential as the README's table says, then an example, imported and run.
		await app.importCredentials([
			{
				...CREDENTIAL,
				type: 'leadInboxApi',
				data: { apiKey, leadsBaseUrl: url, inboxBaseUrl: `${url}/api/v1` },
			},
		]);
		const example = join(
			home,
			'n8n-nodes-lead-inbox',
			'examples',
			'scheduled-lead-pull-to-crm.json',
		);
		await app.cli(['import:workflow', `--input=${example}`]);
		await app.start();
		await app.setupOwner(OWNER);
		const rest = await app.signInOwner(OWNER);
		const workflowId = JSON.parse(readFileSync(example, 'utf8')).id;
		const execution = await runInEditor(rest, target.version, workflowId, 'Try it now');
		expect(execution.status).toBe('success');
		const leads = execution.items('Fetch Leads');
		expect(leads).toHaveLength(25);
		for (const lead of leads)
			expect(lead).toMatchObject({ email: expect.stringMatching(/@/), runsMetaAds: true });
		expect(execution.items('Save to Leads table')).toHaveLength(25);
	});
});
