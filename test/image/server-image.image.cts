import { execFile, spawn } from 'node:child_process';
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { GenericContainer, Wait } from 'testcontainers';
import { PODMAN_LIMITS, podman } from '../helpers/podman.cjs';
import { freePort } from '../helpers/ports.cjs';
import { withTempDir } from '../helpers/temp-dir.cjs';

/*
 * The reference server's container image, built from the Dockerfile (target mock-server, from the
 * sources: no build before it) and tried as a user
 * would: health, the README's search, a seed file mounted in, data kept on its volume across
 * containers, a clean stop on SIGTERM as PID 1, a non-root user, and no secret in the image.
 * Podman with runc stands in for Docker (none runs on the project's machines); the base is the
 * local one test/image/base.sh makes, of the same shape as the official node slim image.
 */

const run = promisify(execFile);
const IMAGE = 'localhost/lead-inbox-mock-server:test';
const BASE = process.env.IMAGE_TEST_BASE ?? '';
const ROOT = join(__dirname, '..', '..');

/** What a container printed, stdout and stderr. */
async function logs(name: string): Promise<string> {
	const { stdout, stderr } = await run('podman', ['logs', name]);
	return `${stdout}${stderr}`;
}

/** What a JavaScript expression evaluates to inside a running container (the image has no shell tools). */
function inContainer(name: string, expression: string): Promise<string> {
	return podman('exec', name, 'node', '-p', expression);
}

const figures: string[] = [];

interface Started {
	name: string;
	url: string;
	/** ms from `podman run` to the first passing HEALTHCHECK. */
	healthyAfterMs: number;
}

let containers = 0;
/**
 * Starts the image with `args` before it and `command` after it (the server's own flags), waits
 * until its own HEALTHCHECK passes, asked every second as the engine's interval does.
 */
async function start(
	args: string[],
	options: { command?: string[]; containerPort?: number } = {},
): Promise<Started> {
	const name = `lims-test-${process.pid}-${++containers}`;
	const port = await freePort();
	const started = Date.now();
	await podman(
		'run',
		'-d',
		'--name',
		name,
		...PODMAN_LIMITS,
		'-p',
		`127.0.0.1:${port}:${options.containerPort ?? 4010}`,
		...args,
		IMAGE,
		...(options.command ?? []),
	);
	for (;;) {
		const healthy = await podman('healthcheck', 'run', name).then(
			() => true,
			() => false,
		);
		if (healthy) break;
		const state = await podman('inspect', name, '--format', '{{.State.Status}}');
		const problem =
			state !== 'running'
				? `the container stopped (${state})`
				: Date.now() - started > 60_000
					? 'not healthy within 60 s'
					: undefined;
		if (problem) {
			const printed = await logs(name);
			await remove(name);
			throw new Error(`${problem}:\n${printed}`);
		}
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	return { name, url: `http://127.0.0.1:${port}`, healthyAfterMs: Date.now() - started };
}

async function remove(name: string) {
	await podman('rm', '-f', '-t', '0', name).catch(() => undefined);
}

async function call(url: string, method: string, path: string, key?: string, body?: unknown) {
	const res = await fetch(`${url}${path}`, {
		method,
		headers: {
			...(key ? { authorization: `Bearer ${key}` } : {}),
			...(body === undefined ? {} : { 'content-type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	return { status: res.status, body: (await res.json()) as any };
}

describe('the reference server image', () => {
	const volume = `lims-test-data-${process.pid}`;
	const devKey = 'lik_image_test_dev_key_0001';
	const adminToken = 'adm_image-test-token-0123456789';

	beforeAll(async () => {
		if (!BASE) throw new Error('IMAGE_TEST_BASE is not set: run this through npm run test:image');
		const started = Date.now();
		await podman(
			'build',
			'--format',
			'docker', // keeps HEALTHCHECK (the OCI format drops it)
			'--network',
			'host',
			...PODMAN_LIMITS, // the build's npm install opens more files than this machine's default allows
			'--build-arg',
			`NODE_IMAGE=${BASE}`,
			'--target',
			'mock-server',
			'-t',
			IMAGE,
			ROOT,
		);
		const size = Number(await podman('image', 'inspect', IMAGE, '--format', '{{.Size}}'));
		const base = Number(await podman('image', 'inspect', BASE, '--format', '{{.Size}}'));
		figures.push(
			`image ${(size / 1e6).toFixed(0)} MB (built on the Node base of ${(base / 1e6).toFixed(0)} MB, copied out of it into an empty image), built in ${((Date.now() - started) / 1000).toFixed(0)} s`,
		);
		await podman('volume', 'create', volume);
	}, 15 * 60_000);

	afterAll(async () => {
		await podman('volume', 'rm', '-f', volume).catch(() => undefined);
		console.log(figures.join('\n'));
	});

	it(
		"is healthy, answers the README's search, runs as a non-root user, keeps its data on the volume",
		async () => {
			const args = [
				'-v',
				`${volume}:/data`,
				'-e',
				`MOCK_DEV_KEY=${devKey}`,
				'-e',
				`MOCK_ADMIN_TOKEN=${adminToken}`,
			];
			let credits = -1;
			const first = await start(args);
			try {
				figures.push(`start to healthy: ${first.healthyAfterMs} ms`);
				const printed = await logs(first.name);
				// The key and token it was given, printed for the user; the bind warning says what to do.
				expect(printed).toContain(`dev account API key:   ${devKey}`);
				expect(printed).toContain(`admin token:           ${adminToken}`);
				expect(printed).toContain('publish the port on the host');
				expect(await inContainer(first.name, 'process.getuid()')).toBe('1000');

				const search = await call(first.url, 'POST', '/api/v1/niche-finder-leads', devKey, {
					niche: 'dentist',
					city: 'Austin, TX',
					count: 5,
				});
				expect([search.status, search.body.contacts.length, search.body.chargedCredits]).toEqual([
					200, 5, 5,
				]);
				const created = await call(first.url, 'POST', '/api/v1/inboxes', devKey, {
					emailAddress: 'kept@gmail.com',
					imapPassword: 'app-password',
					skipConnectionTest: true,
				});
				expect(created.status).toBe(200);
				const accounts = await call(first.url, 'GET', '/__admin/accounts', adminToken);
				credits = accounts.body.accounts[0].credits;
			} finally {
				await podman('stop', '-t', '10', first.name);
				await remove(first.name);
			}

			// A new container on the same volume: the same account, inbox and contacts.
			const second = await start(['-v', `${volume}:/data`, '-e', `MOCK_ADMIN_TOKEN=${adminToken}`]);
			try {
				const inboxes = await call(second.url, 'GET', '/api/v1/inboxes', devKey);
				expect(inboxes.body.inboxes.map((i: { emailAddress: string }) => i.emailAddress)).toEqual([
					'kept@gmail.com',
				]);
				const accounts = await call(second.url, 'GET', '/__admin/accounts', adminToken);
				expect(accounts.body.accounts[0].credits).toBe(credits);
			} finally {
				await remove(second.name);
			}
		},
		5 * 60_000,
	);

	it(
		'follows the port and host the server listens on, however they were set: flags after the image, MOCK_* variables',
		async () => {
			const byFlag = await start([], { command: ['--port', '5000'], containerPort: 5000 });
			const byEnv = await start(['-e', 'MOCK_PORT=5001', '-e', 'MOCK_HOST=::'], {
				containerPort: 5001,
			});
			try {
				figures.push(`--port 5000: start to healthy ${byFlag.healthyAfterMs} ms`);
				for (const { name, url } of [byFlag, byEnv]) {
					expect((await call(url, 'GET', '/healthz')).body).toEqual({ status: 'ok' });
					// What the check reads: the URL the server wrote once it listened.
					expect(
						await inContainer(
							name,
							"require('fs').readFileSync(process.env.MOCK_READY_FILE, 'utf8')",
						),
					).toMatch(/^http:\/\/(127\.0\.0\.1:5000|\[::1\]:5001)$/);
				}
				// And it fails once the server is gone (a stopped server leaves no stale file behind).
				await inContainer(byFlag.name, "require('fs').rmSync(process.env.MOCK_READY_FILE)");
				await expect(podman('healthcheck', 'run', byFlag.name)).rejects.toThrow();
			} finally {
				await remove(byFlag.name);
				await remove(byEnv.name);
			}
		},
		3 * 60_000,
	);

	it(
		"starts from testcontainers-node through podman's Docker-compatible socket, as the README's recipe says",
		async () => {
			// The Docker API as podman serves it, on a socket of this test's own.
			const socket = join(tmpdir(), `podman-${process.pid}.sock`);
			const service = spawn(
				'podman',
				['--runtime', 'runc', 'system', 'service', '--time=0', `unix://${socket}`],
				{ stdio: 'ignore' },
			);
			try {
				for (let i = 0; !existsSync(socket); i++) {
					if (i > 100) throw new Error('podman system service did not open its socket');
					await new Promise((resolve) => setTimeout(resolve, 100));
				}
				Object.assign(process.env, {
					DOCKER_HOST: `unix://${socket}`,
					// Ryuk (the reaper) needs a container engine feature rootful podman lacks here.
					TESTCONTAINERS_RYUK_DISABLED: 'true',
					// The published port is reached on loopback.
					TESTCONTAINERS_HOST_OVERRIDE: '127.0.0.1',
				});
				// testcontainers reads these when it first talks to the engine (at start()).
				const started = Date.now();
				const container = await new GenericContainer(IMAGE)
					.withExposedPorts(4010)
					.withEnvironment({ MOCK_DB: ':memory:', MOCK_ADMIN_TOKEN: adminToken })
					.withUlimits({ nofile: { hard: 20000, soft: 20000 }, nproc: { hard: 4096, soft: 4096 } })
					// On Docker: Wait.forHealthCheck() (podman runs health checks only when asked).
					.withWaitStrategy(Wait.forHttp('/healthz', 4010))
					.start();
				try {
					figures.push(`testcontainers: started and answering in ${Date.now() - started} ms`);
					const url = `http://${container.getHost()}:${container.getMappedPort(4010)}`;
					const accounts = await call(url, 'GET', '/__admin/accounts', adminToken);
					expect(accounts.status).toBe(200);
				} finally {
					await container.stop();
				}
			} finally {
				service.kill();
			}
		},
		3 * 60_000,
	);

	it(
		'stops cleanly on SIGTERM as PID 1, well before the stop time-out would kill it',
		async () => {
			const started = await start([]);
			try {
				const before = Date.now();
				await podman('stop', '-t', '30', started.name);
				const stopMs = Date.now() - before;
				figures.push(`SIGTERM to stopped: ${stopMs} ms`);
				// 0, not 137: it ended itself instead of being killed after the time-out.
				expect(await podman('inspect', started.name, '--format', '{{.State.ExitCode}}')).toBe('0');
				expect(await logs(started.name)).toContain(
					'SIGTERM received: finishing in-flight requests and closing the database',
				);
			} finally {
				await remove(started.name);
			}
		},
		2 * 60_000,
	);

	it(
		'applies a seed file mounted into the container',
		async () => {
			await withTempDir('lims-seed-', async (dir) => {
				const seed = {
					accounts: [
						{
							apiKey: 'lik_seeded_in_image_0001',
							credits: 42,
							pools: [{ name: 'Seeded', inboxes: [{ emailAddress: 'seeded@gmail.com' }] }],
						},
					],
				};
				writeFileSync(join(dir, 'seed.json'), JSON.stringify(seed), { mode: 0o644 });
				chmodSync(dir, 0o755); // the server runs as `node`, not as the owner of the folder
				const started = await start([
					'-v',
					`${dir}:/seed:ro`,
					'-e',
					'MOCK_SEED=/seed/seed.json',
					'-e',
					'MOCK_DB=:memory:',
				]);
				try {
					const pools = await call(started.url, 'GET', '/api/v1/pools', 'lik_seeded_in_image_0001');
					expect(pools.body.pools).toEqual([
						expect.objectContaining({ name: 'Seeded', inboxCount: 1 }),
					]);
				} finally {
					await remove(started.name);
				}
			});
		},
		2 * 60_000,
	);

	it('keeps secrets and all but the server out of the image: no key or token in its history or configuration, no program but node and the health check', async () => {
		const history = await podman('history', '--no-trunc', '--format', '{{.CreatedBy}}', IMAGE);
		const config = await podman('image', 'inspect', IMAGE);
		for (const text of [history, config]) {
			expect(text).not.toMatch(/MOCK_(ADMIN_TOKEN|DEV_KEY|SECRET_KEY)=/);
			expect(text).not.toMatch(/\b(lik|adm)_[A-Za-z0-9_-]{8,}/);
		}
		// What the image does set: where the data goes and how it is reached.
		const [inspected] = JSON.parse(config);
		expect(inspected.Config).toMatchObject({
			User: '1000:1000', // numeric: Kubernetes' runAsNonRoot can check it
			Env: expect.arrayContaining(['MOCK_HOST=0.0.0.0', 'MOCK_DB=/data/mock-server.sqlite']),
			Volumes: { '/data': {} },
		});
		expect(inspected.Healthcheck).toMatchObject({
			Test: ['CMD', '/usr/local/bin/lead-inbox-healthcheck'],
			// Every second (nanoseconds), so a waiting client sees "healthy" within about a second.
			Interval: 1e9,
		});
		// The server alone: its programs are node and the health check (bash): no shell tools, no
		// package manager, no compiler for an intruder to use.
		const programs = await podman(
			'run',
			'--rm',
			...PODMAN_LIMITS,
			'--entrypoint',
			'node',
			IMAGE,
			'-p',
			`const { existsSync, readdirSync } = require('node:fs');
			['/bin', '/sbin', '/usr/bin', '/usr/sbin', '/usr/local/bin', '/usr/local/sbin']
				.filter(existsSync).flatMap((dir) => readdirSync(dir).map((name) => dir + '/' + name)).join(' ')`,
		);
		expect(programs.split(' ').sort()).toEqual([
			'/bin/bash',
			'/usr/local/bin/lead-inbox-healthcheck',
			'/usr/local/bin/node',
		]);
	});
});
