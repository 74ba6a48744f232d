import fc from 'fast-check';
import { startServer, type TestServer } from '../helpers/server.cjs';
import { DocumentOracle } from './document-oracle.cjs';

/**
 * Every operation of the OpenAPI document, called with requests generated from its own schemas:
 * mostly well-formed (so the rules behind validation run too), often off by a field, a type or a
 * bound (values at and past each declared bound, misspelt fields with every JSON value, null
 * included, a null body, strings in and out of their format), sometimes anything at all. Whatever
 * is sent, the server answers: never a 5xx, never a status the document does not list for the
 * operation, every error in the decided body, every answer in the schema the document declares
 * for it, and never a success for a request the document rules out. Everything comes from the
 * document: a new field or operation is fuzzed without a change here.
 * FUZZ_RUNS sets the number of requests per operation (a longer run for benchmarks).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

type Schema = Record<string, any>;
interface Operation {
	method: string;
	path: string;
	parameters: { in: string; name: string; schema?: Schema; content?: Schema }[];
	body?: Schema;
	statuses: number[];
	admin: boolean;
	/** The operation object of the document, for the oracle. */
	op: Schema;
}

/**
 * How the server words a request that breaks the shape of its schema (validation.cts): a request
 * it refuses so must be one the document rules out, else the document says less than the server.
 */
const MALFORMED =
	/must be at (most|least)|must be (an integer|a number|a string|true or false|an object|an array)|Unknown field|must be one of|must not be empty|must hold at (most|least)|must be a valid email|must not start or end with a space|must be a host name/;

/** Values of every JSON type, for fields the document does not know. */
const EVERY_JSON_TYPE = [null, true, false, 0, 1.5, '', 'text', [], [null], {}, { a: null }];

/** A known field's name as people misspell it. */
const misspelt = (name: string) =>
	fc.constantFrom(
		`${name}x`,
		name.toLowerCase() === name ? name.toUpperCase() : name.toLowerCase(),
		name.slice(1),
		`${name.slice(0, -1)}${name.slice(-1) === 's' ? '' : 's'}`,
	);

/** Strings of a format, right and wrong. */
const FORMAT_SAMPLES: Record<string, string[]> = {
	email: [
		'name@example.com',
		'a@b.co',
		"o'neil+tag@mail.example.co.uk",
		'a@b.c',
		'not-an-email',
		'a@',
		'@b.co',
		'x'.repeat(250) + '@b.co',
		// What RFC 5321 allows and the server refuses: the document's pattern must refuse them too.
		'a/b@gmail.com',
		'bp@com',
		'a!b@gmail.com',
		'x{y}@gmail.com',
		'a@b-.co',
		'.a@b.co',
		'a..b@b.co',
		// Spaces around an address (found by this test): refused by the document and the server alike.
		' a@a.co',
		'a@a.co ',
		'a@a.co\n',
	],
	hostname: ['imap.example.com', 'smtp.gmail.com.', '-bad-.com', 'http://imap.example.com', 'a b'],
	ipv4: ['127.0.0.1', '256.1.1.1'],
	ipv6: ['::1', ':::'],
	'date-time': ['2026-11-28T08:00:00.000Z', '2026-13-01T00:00:00Z', 'yesterday'],
};

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
	const type = Array.isArray(schema.type)
		? schema.type.find((t: string) => t !== 'null')
		: schema.type;
	const formats: string[] = [
		schema.format,
		...((schema.anyOf ?? []) as Schema[]).map((s) => s.format),
	].filter((f) => f && FORMAT_SAMPLES[f]);
	let valid: fc.Arbitrary<unknown>;
	if (schema.enum) valid = fc.constantFrom(...schema.enum);
	else if (schema.const !== undefined) valid = fc.constant(schema.const);
	else if (type === 'integer' || type === 'number') {
		const min = Math.max(schema.minimum ?? -1e6, -1e9);
		const max = Math.min(schema.maximum ?? 1e6, 1e9);
		// The declared bounds themselves, and just past them (2^53-1 and 2^53 included).
		const bounds = [schema.minimum, schema.maximum]
			.filter((b) => typeof b === 'number')
			.flatMap((b: number) => [b, b - 1, b + 1]);
		valid = fc.oneof(
			fc.integer({ min, max: Math.min(max, min + 60) }),
			fc.integer({ min, max }),
			fc.constantFrom(min - 1, max + 1, 0.5, -0, 1e308, 2 ** 53, 1e20, ...bounds),
		);
	} else if (type === 'boolean') valid = fc.boolean();
	else if (type === 'string') {
		const lengths = [schema.minLength, schema.maxLength]
			.filter((n) => typeof n === 'number')
			.flatMap((n: number) => [n - 1, n, n + 1])
			.filter((n) => n >= 0 && n < 5000);
		valid = fc.oneof(
			...(schema.example ? [fc.constant(schema.example)] : []),
			...(formats.length ? [fc.constantFrom(...formats.flatMap((f) => FORMAT_SAMPLES[f]))] : []),
			fc.string({ maxLength: 40 }),
			fc.constantFrom(
				'',
				' ',
				'x'.repeat((schema.maxLength ?? 200) + 1),
				...lengths.map((n) => 'x'.repeat(n)),
				'Austin, TX',
				'a@gmail.com',
				'\u0000',
				'😀',
			),
		);
	} else if (type === 'array')
		valid =
			depth > 3
				? fc.constant([])
				: fc.array(valueOf(schema.items ?? {}, schemas, depth + 1), {
						maxLength: Math.min(schema.maxItems ?? 5, 5),
					});
	else if (type === 'object' || schema.properties) {
		if (depth > 3) valid = fc.constant({});
		else {
			const properties: Record<string, fc.Arbitrary<unknown>> = {};
			const names = Object.keys(schema.properties ?? {});
			for (const [name, property] of Object.entries<Schema>(schema.properties ?? {}))
				properties[name] = valueOf(property, schemas, depth + 1);
			// Fields the document does not know: any name, or a known one misspelt, with a value
			// of every JSON type (null too: an unknown field is refused whatever its value).
			const unknownName = names.length
				? fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom(...names).chain(misspelt))
				: fc.string({ maxLength: 12 });
			const unknownValue = fc.oneof(fc.constantFrom(...EVERY_JSON_TYPE), anyJson);
			valid = fc
				.tuple(
					fc.record(properties, { requiredKeys: schema.required ?? [] }),
					fc.option(fc.dictionary(unknownName, unknownValue, { maxKeys: 2 }), { freq: 4 }),
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
				op,
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

	it('takes exactly the email addresses the document allows, in an inbox entry and in the seed', async () => {
		// Both ways, on addresses near the rule's edges: the server refuses what the document rules
		// out, and the document allows what the server takes (a generated client or an outside
		// tester reads only the document).
		const oracle = new DocumentOracle(doc);
		const create = operationsOf(doc).find((o) => o.op.operationId === 'createInboxes')!;
		const seed = operationsOf(doc).find((o) => o.method === 'POST' && o.path === '/__admin/seed')!;
		const part = (chars: string) =>
			fc.string({ unit: fc.constantFrom(...chars), minLength: 0, maxLength: 6 });
		const address = fc.oneof(
			fc.constantFrom(...FORMAT_SAMPLES.email),
			fc
				.tuple(
					part("ab1_'+-.!/#$%&*=?^{|}~ "),
					fc.constantFrom('@', '@', '@@', ''),
					part('ab1-.'),
					fc.constantFrom('', '.co', '.c', '.com', '-.co', '.1a'),
				)
				.map((parts) => parts.join('')),
		);
		let taken = 0;
		await fc.assert(
			fc.asyncProperty(address, async (emailAddress) => {
				// A provider given, so the address's domain is not asked to name one.
				const entry = {
					emailAddress,
					provider: 'google',
					imapPassword: 'pw',
					skipConnectionTest: true,
				};
				const res = await server.call('POST', '/api/v1/inboxes', { key: apiKey, body: entry });
				const documentRulesItOut = !!oracle.bodyRuledOut(create, entry);
				// Taken: created, or refused as an inbox the account already has (a repeated address).
				expect({ emailAddress, answer: res.body, documentRulesItOut }).toEqual({
					emailAddress,
					answer: documentRulesItOut
						? expect.objectContaining({
								details: [expect.objectContaining({ path: 'emailAddress' })],
							})
						: expect.not.objectContaining({ details: expect.anything() }),
					documentRulesItOut,
				});
				if (res.status === 200) taken++;
				// The seed checks its inboxes' addresses with the same rule.
				const seeded = {
					accounts: [
						{
							apiKey: 'lik_fuzz_seed_key_0001',
							pools: [{ name: 'p', inboxes: [{ emailAddress, provider: 'google' }] }],
						},
					],
				};
				const seedRuledOut = oracle.bodyRuledOut(seed, seeded);
				const answer = await server.admin('POST', '/seed', seeded);
				expect({ emailAddress, status: answer.status, body: answer.body }).toEqual({
					emailAddress,
					status: seedRuledOut ? 400 : expect.any(Number),
					body: seedRuledOut
						? expect.objectContaining({ error: expect.stringContaining('emailAddress must ') })
						: expect.not.objectContaining({ error: expect.anything() }),
				});
			}),
			{ numRuns: Math.max(RUNS * 5, 200) },
		);
		// The run tried both kinds.
		expect(taken).toBeGreaterThan(0);
	});

	const seen = new Map<string, number>();
	afterAll(() => {
		// What the run covered, for the closing note and the benchmark's longer run.
		process.stdout.write(
			`fuzz: ${[...seen.values()].reduce((a, b) => a + b, 0)} requests; statuses ${JSON.stringify(Object.fromEntries([...seen].sort()))}\n`,
		);
	});

	it('answers every generated request without a 5xx, with a documented status and body, and refuses what the document rules out', async () => {
		const oracle = new DocumentOracle(doc);
		for (const operation of operationsOf(doc)) {
			// The declared parameters, each from its own schema (bounds and formats as in bodies;
			// a JSON parameter as JSON text), or any text; and names the operation does not list.
			const declared = operation.parameters.filter((p) => p.in === 'query');
			const text = (value: unknown) =>
				typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
			const valueFor = (p: (typeof declared)[number]) => {
				const schema = p.content?.['application/json']?.schema ?? p.schema ?? {};
				return fc.oneof(
					{ weight: 3, arbitrary: valueOf(schema, doc.components.schemas).map(text) },
					{ weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
				);
			};
			const query = fc
				.tuple(
					fc.record(Object.fromEntries(declared.map((p) => [p.name, valueFor(p)])), {
						requiredKeys: [],
					}),
					fc.dictionary(
						fc.oneof(fc.constant('x'), fc.string({ maxLength: 8 })),
						fc.oneof(fc.string({ maxLength: 12 }), fc.integer({ min: -5, max: 2000 }).map(String)),
						{ maxKeys: 1 },
					),
				)
				.map(([known, other]) => ({ ...other, ...known }) as Record<string, string>);
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
					? fc.oneof(
							{ weight: 12, arbitrary: valueOf(operation.body, doc.components.schemas) },
							// A null body, and none at all.
							{ weight: 1, arbitrary: fc.constantFrom(null, undefined) },
						)
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
					expect({
						name,
						contradicts: oracle.answerContradicts(
							operation,
							res.status,
							res.headers.get('content-type'),
							res.body,
						),
					}).toEqual({ name, contradicts: undefined });
					// Refused as malformed (a bound, a type, a format, an unknown field): then the
					// document ruled it out too, or it says less than the server enforces.
					const said = (res.body?.details ?? []).map((d: { message: string }) => d.message);
					if (res.status === 400 && said.some((m: string) => MALFORMED.test(m)))
						expect({
							name,
							query: q,
							body,
							said,
							documentAllowsIt:
								oracle.queryRuledOut(operation, q ?? {}, 'ruledOut') === undefined &&
								oracle.bodyRuledOut(operation, body) === undefined,
						}).toEqual({ name, query: q, body, said, documentAllowsIt: false });
					// Accepted: then the document allowed it (a batch answers 200 whatever its
					// entries, each refused on its own).
					if (res.status < 300) {
						const batch = operation.op.operationId === 'createInboxes' && Array.isArray(body);
						const ruledOut =
							oracle.queryRuledOut(operation, q ?? {}, 'allowed') ??
							(batch ? undefined : oracle.bodyRuledOut(operation, body));
						expect({ name, query: q, body, acceptedThoughRuledOut: ruledOut }).toEqual({
							name,
							query: q,
							body,
							acceptedThoughRuledOut: undefined,
						});
						if (batch)
							(body as unknown[]).forEach((entry, i) => {
								if (oracle.entryRuledOut(entry, 'InboxCreationEntry'))
									expect({ name, entry, success: res.body.results[i]?.success }).toEqual({
										name,
										entry,
										success: false,
									});
							});
					}
					await server.admin('DELETE', '/faults');
				}),
				{ numRuns: RUNS },
			);
		}
	});
});
