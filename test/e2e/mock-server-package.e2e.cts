import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runCompositeAction } from '../helpers/composite-action.cjs';
import { freePort } from '../helpers/ports.cjs';
import { isRunning } from '../helpers/processes.cjs';
import { waitUntil } from '../helpers/wait.cjs';
import { CACHE } from './n8n-app.cjs';
import { processFolder } from './process-folders.cjs';
import { pack, packedRunner, ROOT } from './support.cjs';

const run = promisify(execFile);

/** PATH with a Node line and an npm major first (test/helpers/install-node.sh installs them). */
const toolsPath = (node: number, npm: number) =>
	execFileSync(
		'bash',
		[join(ROOT, 'test', 'helpers', 'install-node.sh'), String(node), String(npm)],
		{
			encoding: 'utf8',
		},
	)
		.trim()
		.split('\n')
		.concat(process.env.PATH ?? '')
		.join(':');
const SEED = join(ROOT, 'examples', 'seed.json');
const KEY = 'lik_ci_demo_key_0001';
const ADMIN = 'adm_package-test-token';

/**
 * The reference server as other people's CI gets it: `npm pack` of mock-server/, installed from
 * the tarball into an empty folder with today's npm (12, which runs no unapproved install script)
 * on Node 24 (no tsx, no TypeScript), started through its bin from a seed.
 */
describe('the lead-inbox-mock-server package', () => {
	let folder: string;
	let bin: string;
	let server: ChildProcess;
	let url: string;
	let tarball: string;
	let runner: string;
	let installOutput: string;
	const admin = (method: string, path: string, body?: unknown) =>
		fetch(`${url}/__admin${path}`, {
			method,
			headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		}).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
	const api = (method: string, path: string, body?: unknown) =>
		fetch(`${url}${path}`, {
			method,
			headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});

	beforeAll(async () => {
		tarball = pack(join(ROOT, 'mock-server'), 'pack-server');
		runner = packedRunner();
		folder = processFolder(CACHE, 'mock-server-install');
		bin = join(folder, 'node_modules', '.bin', 'lead-inbox-mock-server');
		const PATH = toolsPath(24, 12);
		// The server's dependency on the workflow test runner is met by its packed tarball (offline).
		const installed = await run('npm', ['install', '--no-audit', '--no-fund', tarball, runner], {
			cwd: folder,
			env: { ...process.env, PATH },
		});
		installOutput = installed.stdout + installed.stderr;
		const port = await freePort();
		url = `http://127.0.0.1:${port}`;
		server = spawn(
			bin,
			['--port', String(port), '--db', ':memory:', '--seed', SEED, '--admin-token', ADMIN],
			{ stdio: 'ignore', env: { ...process.env, PATH } },
		);
		await waitUntil(
			() =>
				fetch(`${url}/healthz`).then(
					(r) => r.ok,
					() => false,
				),
			120_000,
			'the installed server to answer /healthz',
			100,
		);
	});
	afterAll(() => {
		server?.kill('SIGTERM');
	});

	it('installs with npm 12 without a blocked install script (nothing native to build)', () => {
		expect(installOutput).toMatch(/added \d+ packages?/);
		expect(installOutput).not.toMatch(/install.scripts|blocked|allowScripts/i);
	});

	it('on Node 20 with npm 11, installs and then says in one line which Node.js it needs', async () => {
		const old = processFolder(CACHE, 'mock-server-install-node20');
		const env = { ...process.env, PATH: toolsPath(20, 11) };
		await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball, runner], {
			cwd: old,
			env,
		});
		const started = await run(join(old, 'node_modules', '.bin', 'lead-inbox-mock-server'), [], {
			env,
		}).then(
			() => ({ code: 0, stderr: '' }),
			(error: { code: number; stderr: string }) => error,
		);
		expect(started.code).toBe(1);
		expect(started.stderr).toMatch(
			/^Error: lead-inbox-mock-server needs Node\.js 22\.13 or newer .*this is Node\.js 20\.\d+\.\d+\..*\n$/,
		);
		expect(started.stderr.trim().split('\n')).toHaveLength(1);
	});

	it('holds only the bundle: no TypeScript sources, no tsx', () => {
		const installed = execFileSync('npm', ['ls', '--all', '--parseable'], {
			cwd: folder,
			encoding: 'utf8',
		});
		expect(installed).not.toMatch(/node_modules\/(tsx|typescript|ts-jest)(\n|$)/);
		expect(
			execFileSync(
				'find',
				// Sources, not the declarations (index.d.cts).
				[
					join(folder, 'node_modules', 'lead-inbox-mock-server'),
					'-name',
					'*.cts',
					'-not',
					'-name',
					'*.d.cts',
				],
				{ encoding: 'utf8' },
			),
		).toBe('');
	});

	it('serves the API docs page with its Swagger UI files from the package itself', async () => {
		for (const path of ['/docs', '/docs/swagger-ui-bundle.js', '/docs/swagger-ui.css']) {
			const res = await fetch(`${url}${path}`);
			expect([path, res.status]).toEqual([path, 200]);
			expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(200);
		}
		expect(
			execFileSync('npm', ['ls', '--all', '--parseable'], { cwd: folder, encoding: 'utf8' }),
		).not.toMatch(/swagger-ui-dist|@scarf/);
	});

	it('serves the dashboard built into the package (its script and styles bundled, no runtime dependency for them)', async () => {
		for (const [path, size] of [
			['/dashboard/', 200],
			['/dashboard/app.js', 50_000],
			['/dashboard/app.css', 1000],
		] as const) {
			const res = await fetch(`${url}${path}`);
			expect([path, res.status, res.headers.get('content-security-policy')]).toEqual([
				path,
				200,
				expect.stringContaining("script-src 'self'"),
			]);
			expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(size);
		}
		expect(
			execFileSync('npm', ['ls', '--all', '--parseable'], { cwd: folder, encoding: 'utf8' }),
		).not.toMatch(/preact|uplot|esbuild|tanstack/);
	});

	it('answers /healthz and the seeded key', async () => {
		expect(await fetch(`${url}/healthz`).then((r) => r.json())).toEqual({ status: 'ok' });
		const pools = (await (await api('GET', '/api/v1/pools')).json()) as any;
		expect(pools.pools.map((p: any) => p.name)).toEqual(['Warm-up', 'Retired']);
	});

	it('journals requests without secrets', async () => {
		await admin('DELETE', '/requests');
		await api('POST', '/api/v1/inboxes', {
			emailAddress: 'journal@gmail.com',
			imapPassword: 'Package-Secret-1',
		});
		const { body } = await admin('GET', '/requests');
		expect(body.requests).toEqual([
			expect.objectContaining({
				method: 'POST',
				path: '/api/v1/inboxes',
				status: 200,
				keyId: expect.any(String),
			}),
		]);
		const text = JSON.stringify(body);
		expect(text).not.toContain('Package-Secret-1');
		expect(text).not.toContain(KEY);
	});

	it('serves a route fault the given number of times, then clears it; a drop is a network error', async () => {
		await admin('POST', '/faults', { route: 'GET /api/v1/inboxes', times: 2, status: 502 });
		expect((await api('GET', '/api/v1/inboxes')).status).toBe(502);
		expect((await api('GET', '/api/v1/inboxes')).status).toBe(502);
		expect((await api('GET', '/api/v1/inboxes')).status).toBe(200);
		expect((await admin('GET', '/faults')).body.routes).toEqual([]);
		await admin('POST', '/faults', { route: 'POST /api/v1/niche-finder-leads', drop: true });
		await expect(
			api('POST', '/api/v1/niche-finder-leads', { niche: 'dentist', city: 'Austin' }),
		).rejects.toThrow(/fetch failed/);
	});

	describe('started in-process (startMockServer)', () => {
		const jest = join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
		const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

		it("runs the README's jest example as written, and the test run ends by itself", async () => {
			const readme = readFileSync(join(ROOT, 'mock-server', 'README.md'), 'utf8');
			const example = readme.match(/```js\n(\/\/ leads\.test\.js\n[\s\S]*?)```/)?.[1];
			expect(example).toBeDefined();
			writeFileSync(join(folder, 'leads.test.js'), example!);
			// No --forceExit: a server thread, socket or timer left open would keep jest from ending.
			const { stderr } = await run(
				process.execPath,
				[jest, '--rootDir', folder, '--ci', '--testTimeout=30000', 'leads.test.js'],
				{ cwd: folder, timeout: 90_000, env: { ...process.env, NODE_ENV: 'test' } },
			);
			expect(stderr).toMatch(/Tests:\s+3 passed, 3 total/);
		});

		it('leaves no port open and no handle behind after close, from an ES module', async () => {
			writeFileSync(
				join(folder, 'close.mjs'),
				`import { startMockServer } from 'lead-inbox-mock-server';
const server = await startMockServer({ scanThreads: 2 });
const search = await fetch(server.leadsBaseUrl + '/api/v1/niche-finder-leads', {
	method: 'POST',
	headers: { authorization: 'Bearer ' + server.apiKey, 'content-type': 'application/json' },
	body: JSON.stringify({ niche: 'plumber', city: 'Denver, CO', count: 3 }),
});
await server.admin.faults.arm({ route: 'GET /api/v1/pools', status: 500 });
const faulted = await fetch(server.inboxBaseUrl + '/pools', { headers: { authorization: 'Bearer ' + server.apiKey } });
await server.close();
const after = await fetch(server.url + '/healthz').then(() => 'answered', (e) => e.cause?.code ?? String(e));
console.log(JSON.stringify({ search: search.status, faulted: faulted.status, after, handles: process.getActiveResourcesInfo() }));
`,
			);
			const { stdout } = await run(process.execPath, ['close.mjs'], {
				cwd: folder,
				timeout: 30_000,
			});
			const result = JSON.parse(stdout);
			expect(result).toMatchObject({ search: 200, faulted: 500, after: 'ECONNREFUSED' });
			// What is left is the fetch that just failed and process.stdout: no server, thread or timer.
			expect(result.handles.filter((h: string) => /Worker|TCPServer|Timeout/.test(h))).toEqual([]);
		});

		it('ships type declarations that stand on their own', async () => {
			writeFileSync(
				join(folder, 'typed.mts'),
				`import { startMockServer, type MockServer, type Fault, AdminApiError } from 'lead-inbox-mock-server';
const server: MockServer = await startMockServer({ scanThreads: 'auto', connectionTest: 'simulated', seed: { accounts: [{ apiKey: 'lik_typed_key_000001' }] } });
const fault: Fault = { route: 'GET /api/v1/inboxes', status: 503, times: 2 };
await server.admin.faults.arm(fault);
const inbox = await server.admin.setInboxStatus(server.accountId, 'a@gmail.com', 'error');
const status: 'active' | 'paused' | 'deactivated' | 'error' = inbox.status;
console.log(status, AdminApiError.name);
// @ts-expect-error a status the service does not have
await server.admin.setInboxStatus(server.accountId, 'a@gmail.com', 'broken');
// @ts-expect-error an option that does not exist
await startMockServer({ scanThread: 1 });
`,
			);
			await run(
				process.execPath,
				[
					tsc,
					'--noEmit',
					'--strict',
					'--module',
					'nodenext',
					'--target',
					'es2022',
					'--skipLibCheck',
					'false',
					'--types',
					'node',
					'--typeRoots',
					join(ROOT, 'node_modules', '@types'),
					'typed.mts',
				],
				{ cwd: folder },
			).catch((error: { stdout?: string }) => {
				throw new Error(`tsc: ${error.stdout}`);
			});
		});
	});

	describe('the composite action (mock-server/action.yml), its steps run as a runner runs them', () => {
		const actionDir = join(ROOT, 'mock-server');
		// One runner temp folder for the job, as on a runner: the second install finds the first.
		let runnerTemp: string;
		beforeAll(() => {
			runnerTemp = processFolder(CACHE, 'action-runner-temp');
		});
		const action = (inputs: Record<string, string>) =>
			runCompositeAction(actionDir, inputs, { workspace: ROOT, runnerTemp });
		it('installs the packed server, starts it seeded on a free port, exposes it, and stops it', async () => {
			const started = await action({
				package: `${tarball} ${runner}`,
				seed: 'examples/seed.json',
				port: '0',
				args: '--journal-size 500',
			});
			const { outputs, env } = started;
			expect(outputs.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
			expect(outputs['inbox-base-url']).toBe(`${outputs.url}/api/v1`);
			expect(env).toMatchObject({
				LEAD_INBOX_URL: outputs.url,
				LEAD_INBOX_LEADS_BASE_URL: outputs['leads-base-url'],
				LEAD_INBOX_INBOX_BASE_URL: outputs['inbox-base-url'],
				LEAD_INBOX_API_KEY: outputs['api-key'],
				LEAD_INBOX_ADMIN_TOKEN: outputs['admin-token'],
			});
			// The key and token are masked, and printed nowhere else.
			expect(started.masked.sort()).toEqual([outputs['admin-token'], outputs['api-key']].sort());
			const unmasked = started.log.replace(/^::add-mask::.*$/gm, '');
			expect(unmasked).not.toContain(outputs['api-key']);
			expect(unmasked).not.toContain(outputs['admin-token']);

			// The dev key searches; the seed's key lists its pools; the admin token reads the journal.
			const search = await fetch(`${outputs['leads-base-url']}/api/v1/niche-finder-leads`, {
				method: 'POST',
				headers: {
					authorization: `Bearer ${outputs['api-key']}`,
					'content-type': 'application/json',
				},
				body: JSON.stringify({ niche: 'dentist', city: 'Austin, TX', count: 2 }),
			});
			expect(search.status).toBe(200);
			const pools = await fetch(`${outputs['inbox-base-url']}/pools`, {
				headers: { authorization: `Bearer ${KEY}` },
			}).then((r) => r.json() as Promise<any>);
			expect(pools.pools.map((p: any) => p.name)).toEqual(['Warm-up', 'Retired']);
			const journal = await fetch(`${outputs.url}/__admin/requests`, {
				headers: { authorization: `Bearer ${outputs['admin-token']}` },
			}).then((r) => r.json() as Promise<any>);
			expect(journal.requests).toHaveLength(2);

			const pid = Number(outputs.pid);
			expect(isRunning(pid)).toBe(true);
			const stopped = await action({ stop: 'true' });
			expect(stopped.log).toContain(`lead-inbox-mock-server (pid ${pid}) stopped.`);
			expect(isRunning(pid)).toBe(false);
			await expect(fetch(`${outputs.url}/healthz`)).rejects.toThrow(/fetch failed/);
			// A second stop finds nothing to do, and says so.
			expect((await action({ stop: 'true' })).log).toContain('nothing to stop');
		});

		it('fails fast, with the reason, for a missing seed file or a server that cannot start', async () => {
			await expect(
				action({ package: `${tarball} ${runner}`, seed: 'no/such/seed.json' }),
			).rejects.toMatchObject({
				log: expect.stringContaining('The seed file'),
			});
			await expect(
				action({ package: `${tarball} ${runner}`, port: '0', args: '--scan-threads 99' }),
			).rejects.toMatchObject({
				// It noticed the exit: not the 30 s wait for /healthz.
				log: expect.stringMatching(/exited before it was ready:[\s\S]*--scan-threads must be/),
			});
		});
	});

	it('runs the shell recipe of the README, which fails when the workflow called nothing', async () => {
		// Copied elsewhere, as a user copies it into a pipeline: the seed comes from where it runs.
		const copied = join(mkdtempSync(join(tmpdir(), 'recipe-')), 'mock-server-in-ci.sh');
		copyFileSync(join(ROOT, 'examples', 'ci', 'mock-server-in-ci.sh'), copied);
		const recipe = copied;
		const env = { ...process.env, MOCK_SERVER_BIN: bin };
		const ok = await run('bash', [recipe], {
			env: { ...env, MOCK_PORT: String(await freePort()) },
			cwd: ROOT,
		});
		expect(ok.stdout).toContain('ok: 1 lead search(es) answered 200');
		await expect(
			run('bash', [recipe, '', 'no/such/seed.json'], { env, cwd: ROOT }),
		).rejects.toMatchObject({
			stderr: expect.stringContaining('seed file not found: no/such/seed.json'),
		});
		// A server that exits on a wrong option fails the recipe at once, with its message.
		await expect(
			run('bash', [recipe], {
				env: { ...env, MOCK_PORT: '99999' },
				cwd: ROOT,
			}),
		).rejects.toMatchObject({
			stdout: expect.stringMatching(/exited before it was ready:[\s\S]*port/),
		});
		await expect(
			run('bash', [recipe], {
				env: { ...env, MOCK_PORT: String(await freePort()), WORKFLOW_CMD: 'true' },
				cwd: ROOT,
			}),
		).rejects.toMatchObject({
			stdout: expect.stringContaining('expected at least one successful lead search'),
		});
	});
});
