import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../helpers/ports.cjs';
import { CACHE } from './n8n-app.cjs';
import { pack, ROOT } from './support.cjs';

const run = promisify(execFile);
const SEED = join(ROOT, 'examples', 'seed.json');
const KEY = 'lik_ci_demo_key_0001';
const ADMIN = 'adm_package-test-token';

/**
 * The reference server as other people's CI gets it: `npm pack` of mock-server/, installed from
 * the tarball into an empty folder (no tsx, no TypeScript), started through its bin from a seed.
 */
describe('the lead-inbox-mock-server package', () => {
	const folder = join(CACHE, 'mock-server-install');
	const bin = join(folder, 'node_modules', '.bin', 'lead-inbox-mock-server');
	let server: ChildProcess;
	let url: string;
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
		const tarball = pack(join(ROOT, 'mock-server'), 'pack-server');
		rmSync(folder, { recursive: true, force: true });
		mkdirSync(folder, { recursive: true });
		await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', tarball], {
			cwd: folder,
		});
		const port = await freePort();
		url = `http://127.0.0.1:${port}`;
		server = spawn(
			bin,
			['--port', String(port), '--db', ':memory:', '--seed', SEED, '--admin-token', ADMIN],
			{
				stdio: 'ignore',
			},
		);
		for (let i = 0; i < 100; i++) {
			if (
				await fetch(`${url}/healthz`).then(
					(r) => r.ok,
					() => false,
				)
			)
				return;
			await new Promise((r) => setTimeout(r, 100));
		}
		throw new Error('the installed server did not answer /healthz');
	});
	afterAll(() => {
		server?.kill('SIGTERM');
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
				[join(folder, 'node_modules', 'lead-inbox-mock-server'), '-name', '*.cts'],
				{ encoding: 'utf8' },
			),
		).toBe('');
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

	it('runs the shell recipe of the README, which fails when the workflow called nothing', async () => {
		const recipe = join(ROOT, 'examples', 'ci', 'mock-server-in-ci.sh');
		const env = { ...process.env, MOCK_SERVER_BIN: bin };
		const ok = await run('bash', [recipe], {
			env: { ...env, MOCK_PORT: String(await freePort()) },
		});
		expect(ok.stdout).toContain('ok: 1 lead search(es) answered 200');
		await expect(
			run('bash', [recipe], {
				env: { ...env, MOCK_PORT: String(await freePort()), WORKFLOW_CMD: 'true' },
			}),
		).rejects.toMatchObject({
			stdout: expect.stringContaining('expected at least one successful lead search'),
		});
	});
});
