import fc from 'fast-check';
import { startServer, type TestServer } from '../helpers/server.cjs';

/**
 * Every operation of the OpenAPI document, called with requests generated from its own schemas:
 * mostly well-formed (so the rules behind validation run too), often off by a field, a type or a
 * bound, sometimes anything at all. Whatever is sent, the server answers: never a 5xx, never a
 * status the document does not list for the operation, and every error in the decided body.
 * FUZZ_RUNS sets the number of requests per operation (a longer run for benchmarks).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

type Schema = Record<string, any>;
interface Operation {
	method: string;
	path: string;
	parameters: { in: string; name: string; schema: Schema }[];
	body?: Schema;
	statuses: number[];
	admin: boolean;
}

/** Operations whose effect would end the run's own state (the fuzz account, the armed faults). */
const LEFT_OUT = new Set(['POST /__admin/reset']);

const anyJson = fc.jsonValue({ maxDepth: 3 });

/** Values of a JSON Schema: valid ones mostly, with wrong types, bounds and unknown fields mixed in. */
function valueOf(
	schema: Schema,
	schemas: Record<string, Schema>,
	depth = 0,
): fc.Arbitrary<unknown> {
	if (schema.$ref) return valueOf(schemas[schema.$ref.split('/').pop()], schemas, depth);
	const alternatives = schema.anyOf ?? schema.oneOf;
	if (alternatives) return fc.oneof(...alternatives.map((s: Schema) => valueOf(s, schemas, depth)));
	let valid: fc.Arbitrary<unknown>;
	if (schema.enum) valid = fc.constantFrom(...schema.enum);
	else if (schema.const !== undefined) valid = fc.constant(schema.const);
	else if (schema.type === 'integer' || schema.type === 'number') {
		const min = Math.max(schema.minimum ?? -1e6, -1e9);
		const max = Math.min(schema.maximum ?? 1e6, 1e9);
		valid = fc.oneof(
			fc.integer({ min, max: Math.min(max, min + 60) }),
			fc.integer({ min, max }),
			fc.constantFrom(min - 1, max + 1, 0.5, -0, 1e308),
		);
	} else if (schema.type === 'boolean') valid = fc.boolean();
	else if (schema.type === 'string')
		valid = fc.oneof(
			...(schema.example ? [fc.constant(schema.example)] : []),
			fc.string({ maxLength: 40 }),
			fc.constantFrom(
				'',
				' ',
				'x'.repeat((schema.maxLength ?? 200) + 1),
				'Austin, TX',
				'a@gmail.com',
				'\u0000',
				'😀',
			),
		);
	else if (schema.type === 'array')
		valid =
			depth > 3
				? fc.constant([])
				: fc.array(valueOf(schema.items ?? {}, schemas, depth + 1), {
						maxLength: Math.min(schema.maxItems ?? 5, 5),
					});
	else if (schema.type === 'object' || schema.properties) {
		if (depth > 3) valid = fc.constant({});
		else {
			const properties: Record<string, fc.Arbitrary<unknown>> = {};
			for (const [name, property] of Object.entries<Schema>(schema.properties ?? {}))
				properties[name] = valueOf(property, schemas, depth + 1);
			valid = fc
				.tuple(
					fc.record(properties, { requiredKeys: schema.required ?? [] }),
					fc.option(fc.dictionary(fc.string({ maxLength: 12 }), anyJson, { maxKeys: 2 }), {
						freq: 4,
					}),
				)
				.map(([known, extra]) => ({ ...(extra ?? {}), ...known }));
		}
	} else valid = anyJson;
	return fc.oneof({ weight: 8, arbitrary: valid }, { weight: 1, arbitrary: anyJson });
}

function operationsOf(doc: any): Operation[] {
	const operations: Operation[] = [];
	for (const [path, methods] of Object.entries<any>(doc.paths))
		for (const [method, op] of Object.entries<any>(methods)) {
			const name = `${method.toUpperCase()} ${path}`;
			if (LEFT_OUT.has(name) || path.startsWith('/docs') || path === '/openapi.json') continue;
			// A stream never ends, so it has no answer to check (test/docs/dashboard checks its token).
			if (op.responses?.['200']?.content?.['text/event-stream']) continue;
			operations.push({
				method: method.toUpperCase(),
				path,
				parameters: op.parameters ?? [],
				body: op.requestBody?.content?.['application/json']?.schema,
				statuses: Object.keys(op.responses).map(Number),
				admin: path.startsWith('/__admin'),
			});
		}
	return operations;
}

describe('a schema-driven fuzz of every operation', () => {
	let server: TestServer;
	let doc: any;
	let apiKey: string;
	let accountId: string;
	let inbox: string;
	beforeAll(async () => {
		server = await startServer({ log: false });
		doc = (await server.call('GET', '/openapi.json', { key: null })).body;
		({ apiKey, accountId } = await server.newAccount({ credits: 200 }));
		const created = await server.call('POST', '/api/v1/inboxes', {
			key: apiKey,
			body: { emailAddress: 'fuzz@gmail.com', imapPassword: 'pw', skipConnectionTest: true },
		});
		expect(created.status).toBe(200);
		inbox = created.body.id;
	});
	afterAll(() => server?.close());

	it('lists every operation it fuzzes', () => {
		expect(operationsOf(doc).map((o) => `${o.method} ${o.path}`)).toEqual(
			expect.arrayContaining([
				'POST /api/v1/niche-finder-leads',
				'GET /api/v1/pools',
				'GET /api/v1/inboxes',
				'POST /api/v1/inboxes',
				'POST /__admin/seed',
				'GET /__admin/accounts/{id}/contacts',
			]),
		);
	});

	const seen = new Map<string, number>();
	afterAll(() => {
		// What the run covered, for the closing note and the benchmark's longer run.
		process.stdout.write(
			`fuzz: ${[...seen.values()].reduce((a, b) => a + b, 0)} requests; statuses ${JSON.stringify(Object.fromEntries([...seen].sort()))}\n`,
		);
	});

	it('answers every generated request without a 5xx, with a documented status and the error body', async () => {
		for (const operation of operationsOf(doc)) {
			const query = fc.dictionary(
				fc.oneof(
					fc.constantFrom(
						...operation.parameters.filter((p) => p.in === 'query').map((p) => p.name),
						'x',
					),
					fc.string({ maxLength: 8 }),
				),
				fc.oneof(fc.string({ maxLength: 12 }), fc.integer({ min: -5, max: 2000 }).map(String)),
				{ maxKeys: 3 },
			);
			const request = fc.record({
				query: fc.option(query, { freq: 2 }),
				// Every path parameter: a value that exists half the time, else any text.
				params: fc.record(
					Object.fromEntries(
						operation.parameters
							.filter((p) => p.in === 'path')
							.map((p) => {
								const real = { id: accountId, inbox }[p.name];
								// Any text but a dot segment: "." and ".." (encoded or not) are removed
								// from a URL's path by every client (WHATWG URL), so no request can
								// carry them; what arrives is another route's path.
								const any = fc
									.string({ minLength: 1, maxLength: 20 })
									.filter((text) => text !== '.' && text !== '..');
								return [p.name, real ? fc.oneof(fc.constant(real), any) : any];
							}),
					),
				),
				auth: fc.constantFrom('right', 'right', 'right', 'none', 'wrong'),
				body: operation.body
					? valueOf(operation.body, doc.components.schemas)
					: fc.constant(undefined),
			});
			await fc.assert(
				fc.asyncProperty(request, async ({ query: q, params, auth, body }) => {
					const path = operation.path.replace(/\{(\w+)\}/g, (_, name: string) =>
						encodeURIComponent(params[name]),
					);
					expect(path).not.toContain('{');
					const search = new URLSearchParams(q ?? {}).toString();
					const key =
						auth === 'none'
							? null
							: auth === 'wrong'
								? 'lik_wrong_key_000000'
								: operation.admin
									? server.adminToken
									: apiKey;
					const res = await server.call(operation.method, search ? `${path}?${search}` : path, {
						key,
						body,
					});
					const name = `${operation.method} ${operation.path} ${res.status}`;
					seen.set(name, (seen.get(name) ?? 0) + 1);
					expect({ name, serverError: res.status >= 500 }).toEqual({ name, serverError: false });
					expect({ name, documented: operation.statuses.includes(res.status) }).toEqual({
						name,
						documented: true,
					});
					if (res.status >= 400)
						expect({ name, error: typeof res.body?.error }).toEqual({ name, error: 'string' });
					await server.admin('DELETE', '/faults');
				}),
				{ numRuns: RUNS },
			);
		}
	}, 300000);
});
