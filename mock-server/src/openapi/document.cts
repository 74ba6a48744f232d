import { z } from 'zod';
// Loaded for their schemas: each registers its ids in zod's global registry.
import '../admin/seed.cjs';
import { journalQuery } from '../schemas/admin.cjs';
import '../schemas/common.cjs';
import '../schemas/leads.cjs';
import { createInboxesQuery, listInboxesQuery } from '../schemas/inboxes.cjs';

/**
 * The OpenAPI 3.1 document, generated from the same zod schemas that validate requests, so the
 * docs cannot drift from the behaviour. Contract choices the specs leave open are written here.
 */
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const RATE_HEADERS = {
	'X-RateLimit-Limit': {
		description: 'Inboxes that may be created per rolling hour per API key (1000).',
		schema: { type: 'integer' },
	},
	'X-RateLimit-Remaining': {
		description: 'Inboxes that may still be created in the current window.',
		schema: { type: 'integer' },
	},
	'X-RateLimit-Reset': {
		description: 'Unix time (seconds) at which the full quota is available again.',
		schema: { type: 'integer' },
	},
};

/**
 * Query parameters arrive as text, so their schemas are strings; the integer ones are documented
 * as integers with their bounds.
 */
function queryParameters(
	schema: z.ZodObject,
	integers: Record<string, { minimum: number; maximum?: number; default?: number }> = {},
) {
	const js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
		properties: Record<string, { description?: string }>;
	};
	return Object.entries(js.properties).map(([name, prop]) => {
		const { description, ...rest } = prop;
		return {
			name,
			in: 'query',
			required: false,
			description,
			schema: integers[name] ? { type: 'integer', ...integers[name] } : rest,
		};
	});
}

/**
 * Every schema that carries an `id` in its zod metadata becomes a component; nested ones (Contact,
 * Pool, InboxCreationEntry...) are referenced as `#/components/schemas/<id>`. zod keeps ids in its
 * global registry, which is why the document is generated from it rather than from a list here.
 */
function componentSchemas(): Record<string, Record<string, unknown>> {
	const generated = z.toJSONSchema(z.globalRegistry, {
		target: 'draft-2020-12',
		io: 'input',
		unrepresentable: 'any',
		uri: (id) => `#/components/schemas/${id}`,
	}) as { schemas: Record<string, Record<string, unknown>> };
	const components: Record<string, Record<string, unknown>> = {};
	for (const [id, schema] of Object.entries(generated.schemas)) {
		components[id] = clean(schema) as Record<string, unknown>;
	}
	return components;
}

/**
 * Drops what OpenAPI renderers trip on: `$id`/`$schema`, the metadata `id` (a property named `id`
 * stays), and zod's safe-integer bounds. Examples and defaults are data, kept as they are.
 */
function clean(node: unknown): unknown {
	if (Array.isArray(node)) return node.map(clean);
	if (!node || typeof node !== 'object') return node;
	const out: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(node)) {
		if (key === '$id' || key === '$schema' || key === 'id') continue;
		if (
			(key === 'minimum' || key === 'maximum') &&
			Math.abs(value as number) === Number.MAX_SAFE_INTEGER
		)
			continue;
		if (key === 'example' || key === 'default') out[key] = value;
		else if (key === 'properties')
			out[key] = Object.fromEntries(
				Object.entries(value as Record<string, unknown>).map(([name, v]) => [name, clean(v)]),
			);
		else out[key] = clean(value);
	}
	return out;
}

export function buildOpenApiDocument(serverUrl?: string): Record<string, unknown> {
	const components = componentSchemas();
	// Request and response examples shown by the docs page (and "Try it out") are the schemas' own.
	const json = (id: string) => ({
		'application/json': {
			schema: ref(id),
			...(components[id]?.example !== undefined ? { example: components[id].example } : {}),
		},
	});
	// An error response shows an example of its own message (the Error schema's example is a 400's).
	const error = (description: string, example?: Record<string, unknown>) => ({
		description,
		content: {
			'application/json': { schema: ref('Error'), example: example ?? components.Error.example },
		},
	});
	const AUTH_ERRORS = {
		'401': error(
			'Missing, malformed or invalid API key, or an account without an active subscription. Carries WWW-Authenticate: Bearer.',
			{ error: "Missing API key: send the header 'Authorization: Bearer <API key>'." },
		),
		'413': error('Body larger than 1 MiB.', {
			error: 'Request body is larger than 1 MiB; send a smaller body (split large batches).',
		}),
		'415': error('Body not sent as application/json.', {
			error: 'Unsupported Content-Type; send the body as JSON with Content-Type: application/json.',
		}),
	};

	const adminAuth = [{ adminToken: [] }];
	return {
		openapi: '3.1.0',
		info: {
			title: 'Lead Inbox reference server',
			version: '1.0.0',
			description: [
				'Reference implementation of the lead search service and the inbox management service, for building and testing n8n workflows without the real services.',
				'',
				'Errors: every status >= 400 answers `{"error", "details"?}`; unknown body fields are a 400 naming the field and the closest known one; `null` for an optional field means omitted; integers must be JSON integers.',
				'Lead search: checks run in the order auth (401) -> body (400) -> city (400) -> credits (402) -> search (404) -> save (500). The full `count` is reserved up front and the unused part refunded; nothing is charged on failure.',
				"Inbox creation: an array body always answers 200 with one result per entry (`success` is true only when all entries were created). A single-object body answers 200 when created, otherwise the entry's own status (400 invalid_entry, 404 pool_not_found, 409 email_exists, 422 connection_failed) with `code`.",
				'Rate limit: 1000 created inboxes per rolling hour per API key; a request that would exceed the remaining quota is refused whole with 429 and Retry-After (seconds); failed entries use no quota.',
				'Simulated connection tests (the default): an entry fails with "authentication refused" when its IMAP or SMTP password starts with `invalid`, with "cannot connect" when a host ends in `.invalid`, and passes otherwise.',
			].join('\n'),
			license: { name: 'MIT', identifier: 'MIT' },
		},
		servers: [{ url: serverUrl ?? 'http://127.0.0.1:4010' }],
		tags: [
			{ name: 'Lead search' },
			{ name: 'Inbox management' },
			{ name: 'Admin', description: 'Test and demo control. Needs the admin token.' },
		],
		security: [{ apiKey: [] }],
		paths: {
			'/api/v1/niche-finder-leads': {
				post: {
					tags: ['Lead search'],
					operationId: 'fetchNicheFinderLeads',
					summary:
						'Find local businesses for a niche in a city, add them as contacts and charge one credit per added lead',
					requestBody: { required: true, content: json('LeadSearchRequest') },
					responses: {
						'200': {
							description:
								'Contacts added (possibly none after filters and dedup) and the credits charged.',
							content: json('LeadSearchResponse'),
						},
						'400': error(
							'Invalid body, or the city could not be resolved ("City \'X\' could not be resolved to a location").',
						),
						...AUTH_ERRORS,
						'402': error('Credit balance below count. Nothing charged.', {
							error:
								'Not enough credits: this search needs 100 (one per lead requested) but the balance is 40. Lower count or add credits.',
						}),
						'404': error(
							'No business at all for the niche and city (code no_businesses_found). Nothing charged. A path the server does not know is also a 404, with code route_not_found: clients tell the two apart by the code.',
							{
								error:
									"No businesses found for 'lighthouse keeper' in Austin, TX. Try a related niche or a larger city nearby.",
								code: 'no_businesses_found',
							},
						),
						'500': error('Contacts could not be saved. Nothing added, nothing charged.', {
							error:
								'The contacts could not be saved; nothing was added and no credits were charged. Retry the request.',
						}),
					},
				},
			},
			'/api/v1/pools': {
				get: {
					tags: ['Inbox management'],
					operationId: 'listPools',
					summary: 'List pools (ordered by createdAt, then id). Needs pools:read.',
					responses: {
						'200': { description: 'Pools with live inbox counts.', content: json('PoolsResponse') },
						...AUTH_ERRORS,
						'403': error('Key lacks pools:read.', {
							error: "This API key lacks the 'pools:read' permission; use a key that has it.",
						}),
					},
				},
			},
			'/api/v1/inboxes': {
				get: {
					tags: ['Inbox management'],
					operationId: 'listInboxes',
					summary:
						'List inboxes (ordered by createdAt, then id; hasMore = skip + returned < total). Needs inboxes:read.',
					parameters: queryParameters(listInboxesQuery, {
						limit: { minimum: 1, maximum: 1000, default: 100 },
						skip: { minimum: 0, default: 0 },
					}),
					responses: {
						'200': {
							description: 'A page of inboxes. Only the six listed fields are exposed.',
							content: json('InboxesResponse'),
						},
						'400': error('A query parameter is invalid (the message names it).'),
						...AUTH_ERRORS,
						'403': error('Key lacks inboxes:read.', {
							error: "This API key lacks the 'inboxes:read' permission; use a key that has it.",
						}),
						'404': error("Unknown poolId (or another account's pool).", {
							error: "Pool 'pool_unknown' not found; list pools with GET /pools.",
						}),
					},
				},
				post: {
					tags: ['Inbox management'],
					operationId: 'createInboxes',
					summary: 'Create one inbox or a batch of up to 100. Needs inboxes:write.',
					parameters: queryParameters(createInboxesQuery),
					requestBody: { required: true, content: json('CreateInboxesRequest') },
					responses: {
						'200': {
							description: 'Per-entry results.',
							headers: RATE_HEADERS,
							content: json('InboxCreationResponse'),
						},
						'400': error(
							'Invalid body shape (empty array, over 100 entries, non-object element), or a single entry that is invalid (code invalid_entry).',
							{
								error:
									'Invalid entry: emailAddress must be a valid email address such as name@example.com',
								code: 'invalid_entry',
								details: [
									{
										path: 'emailAddress',
										message: 'emailAddress must be a valid email address such as name@example.com',
									},
								],
							},
						),
						...AUTH_ERRORS,
						'403': error('Key lacks inboxes:write.', {
							error: "This API key lacks the 'inboxes:write' permission; use a key that has it.",
						}),
						'404': error('Single entry: pool not found (code pool_not_found).', {
							error: "Pool 'pool_unknown' not found; list pools with GET /pools.",
							code: 'pool_not_found',
						}),
						'409': error('Single entry: the email address already exists (code email_exists).', {
							error: 'An inbox with the address jane@gmail.com already exists in this account.',
							code: 'email_exists',
						}),
						'422': error('Single entry: the connection test failed (code connection_failed).', {
							error:
								'Connection test failed: IMAP authentication refused for jane@gmail.com; check the password (an app password for Google).',
							code: 'connection_failed',
						}),
						'429': {
							description: 'Hourly creation limit would be exceeded; nothing created.',
							headers: {
								'Retry-After': {
									description: 'Seconds until enough quota is free.',
									schema: { type: 'integer' },
								},
								...RATE_HEADERS,
							},
							content: json('Error'),
						},
					},
				},
			},
			'/__admin/accounts': {
				get: {
					tags: ['Admin'],
					security: adminAuth,
					summary: 'List every account (the dev account first, marked dev: true)',
					responses: {
						'200': { description: 'The accounts', content: json('AdminAccountList') },
						'401': error('Bad admin token.', {
							error:
								'Invalid admin token: use the token the server printed at start (or --admin-token).',
						}),
					},
				},
				post: {
					tags: ['Admin'],
					security: adminAuth,
					summary: 'Create an account and its first API key',
					requestBody: { content: json('AdminCreateAccount') },
					responses: {
						'201': { description: '{accountId, apiKey}' },
						'401': error('Bad admin token.', {
							error:
								'Invalid admin token: use the token the server printed at start (or --admin-token).',
						}),
					},
				},
			},
			'/__admin/accounts/{id}': {
				parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
				get: {
					tags: ['Admin'],
					security: adminAuth,
					summary: 'Read an account',
					responses: {
						'200': { description: 'The account', content: json('AdminAccount') },
						'404': error('Unknown account.'),
					},
				},
				patch: {
					tags: ['Admin'],
					security: adminAuth,
					summary: 'Set credits or active',
					requestBody: { content: json('AdminPatchAccount') },
					responses: { '200': { description: 'The account', content: json('AdminAccount') } },
				},
			},
			'/__admin/accounts/{id}/keys': {
				parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
				post: {
					tags: ['Admin'],
					security: adminAuth,
					summary: "Issue another key (permissions default to the account's)",
					requestBody: { required: false, content: json('AdminCreateKey') },
					responses: { '201': { description: '{apiKey}' } },
				},
			},
			'/__admin/accounts/{id}/contacts': {
				parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
				get: {
					tags: ['Admin'],
					security: adminAuth,
					summary: "The account's contacts, in the order they were added",
					responses: { '200': { description: '{contacts}' } },
				},
			},
			'/__admin/faults': {
				get: {
					tags: ['Admin'],
					security: adminAuth,
					summary: 'The faults still armed',
					responses: { '200': { description: '{storage: [{target, times}], routes: [...]}' } },
				},
				post: {
					tags: ['Admin'],
					security: adminAuth,
					summary:
						'Arm a fault: a storage fault ({target: "leads.save", times}: the next saves fail, the 500 path) or a route fault ({route, times, status?, body?, delayMs?, retryAfter?, drop?}: the next matching requests answer that status, wait, or lose their connection; an injected 429 carries Retry-After and X-RateLimit-* like the real limit)',
					requestBody: { content: json('AdminFault') },
					responses: { '200': { description: '{armed}' } },
				},
				delete: {
					tags: ['Admin'],
					security: adminAuth,
					summary: 'Clear all armed faults',
					responses: { '200': { description: 'Cleared' } },
				},
			},
			'/__admin/requests': {
				get: {
					tags: ['Admin'],
					security: adminAuth,
					summary:
						'The request journal: the last API requests (--journal-size, default 10000), oldest first: time, method, path, query, keyId (never the key), status (null when an injected fault dropped the connection), durationMs, body with passwords and keys redacted, and a short response summary',
					parameters: queryParameters(journalQuery, {
						status: { minimum: 100, maximum: 599 },
						limit: { minimum: 1, maximum: 100000 },
					}),
					responses: { '200': { description: '{requests: [...]}' } },
				},
				delete: {
					tags: ['Admin'],
					security: adminAuth,
					summary: 'Empty the journal',
					responses: { '200': { description: 'Cleared' } },
				},
			},
			'/healthz': {
				get: {
					tags: ['Admin'],
					security: [],
					summary: 'Liveness for CI steps that wait on the server (no auth): {"status": "ok"}',
					responses: { '200': { description: '{status: "ok"}' } },
				},
			},
			'/__admin/seed': {
				post: {
					tags: ['Admin'],
					security: adminAuth,
					summary:
						'Apply a seed (the body of a --seed file): accounts with fixed API keys, credits, active flag, permissions, pools, inboxes (with status) and contacts. Creates what is missing, leaves what exists; invalid entries are a 400 naming their path.',
					requestBody: { required: true, content: json('Seed') },
					responses: {
						'200': { description: '{accounts: [{accountId, created}]} in the order of the seed' },
						'400': error('The seed is invalid.', {
							error:
								'Invalid request body: accounts.0.apiKey must be 16 to 200 letters, digits, "_" or "-"',
						}),
					},
				},
			},
			'/__admin/clock': {
				post: {
					tags: ['Admin'],
					security: adminAuth,
					summary: "Move the server's clock forward",
					requestBody: { content: json('AdminClock') },
					responses: { '200': { description: '{now, offsetSeconds}' } },
				},
			},
			'/__admin/reset': {
				post: {
					tags: ['Admin'],
					security: adminAuth,
					summary: 'Empty state (the dev account is seeded again), clock and faults reset',
					responses: { '200': { description: 'Reset' } },
				},
			},
		},
		components: {
			securitySchemes: {
				apiKey: { type: 'http', scheme: 'bearer', description: 'API key of an account.' },
				adminToken: {
					type: 'http',
					scheme: 'bearer',
					description: 'The admin token printed at start.',
				},
			},
			schemas: components,
		},
	};
}
