import { z } from 'zod';
import { queryInt } from './common.cjs';
import { INBOX_STATUSES } from './inboxes.cjs';

/** An optional id in a query or body (an account, a key) that narrows what a call touches. */
const scopeId = (description: string) => z.string().min(1).optional().meta({ description });

/** What an API key may do on the inbox service (the lead search needs none). */
export const PERMISSIONS = ['pools:read', 'inboxes:read', 'inboxes:write'] as const;
export type Permission = (typeof PERMISSIONS)[number];

const permissions = z
	.array(z.enum(PERMISSIONS))
	.meta({ description: `Any of ${PERMISSIONS.join(', ')}.` });

export const createAccountRequest = z
	.strictObject({
		credits: z.int().min(0).default(1000),
		active: z.boolean().default(true),
		permissions: permissions.default([...PERMISSIONS]),
	})
	// The body may be left out: every field has a default.
	.prefault({})
	.meta({ id: 'AdminCreateAccount' });

export const patchAccountRequest = z
	.strictObject({ credits: z.int().min(0).optional(), active: z.boolean().optional() })
	.meta({ id: 'AdminPatchAccount' });

export const createKeyRequest = z
	.strictObject({ permissions: permissions.optional() })
	.prefault({})
	.meta({ id: 'AdminCreateKey' });

export const FAULT_TARGETS = ['leads.save'] as const;
/** The API routes a fault can be armed on. */
export const FAULT_ROUTES = [
	'POST /api/v1/niche-finder-leads',
	'GET /api/v1/pools',
	'GET /api/v1/inboxes',
	'POST /api/v1/inboxes',
] as const;

/** A field given with a value of its type (not left out, not null). */
const given = (name: string, schema: Record<string, unknown>) => ({
	required: [name],
	properties: { [name]: schema },
});

/**
 * The cross-field rules of a fault, as JSON Schema: a target or a route (anyOf), and none of the
 * combinations the refinement refuses (not). Written without oneOf and allOf, which Redocly's
 * example check mixes up with the object's own additionalProperties.
 */
function faultRules(): Record<string, unknown> {
	const dropped = given('drop', { const: true });
	const status = given('status', { type: 'integer' });
	const body = given('body', { type: 'object' });
	const delay = given('delayMs', { type: 'integer' });
	const target = given('target', { type: 'string' });
	const route = given('route', { type: 'string' });
	return {
		anyOf: [target, route],
		not: {
			anyOf: [
				// Both kinds at once.
				{
					required: ['target', 'route'],
					properties: { ...target.properties, ...route.properties },
				},
				// A storage fault takes times, accountId and keyId only.
				{
					...target,
					anyOf: [
						given('match', { type: 'object' }),
						given('probability', { type: 'number' }),
						status,
						body,
						delay,
						given('retryAfter', { type: 'integer' }),
						dropped,
					],
				},
				// A route fault needs a status, a delay or a dropped connection.
				{ ...route, not: { anyOf: [status, delay, dropped] } },
				// A 2xx answers as if all went well: it needs its body.
				{ ...given('status', { type: 'integer', maximum: 399 }), not: body },
				// No redirects.
				given('status', { type: 'integer', minimum: 300, maximum: 399 }),
				// A dropped connection has no status and no body.
				{ ...dropped, anyOf: [status, body] },
			],
		},
	};
}

export const faultRequest = z
	.strictObject({
		target: z
			.enum(FAULT_TARGETS)
			.optional()
			.meta({ description: 'A storage fault: the next saves fail as a storage failure would.' }),
		route: z.enum(FAULT_ROUTES).optional().meta({
			description:
				'A route fault: the next matching requests get the fault instead of (or before) their answer.',
		}),
		times: z.int().min(1).max(100000).default(1),
		status: z.int().min(200).max(599).optional().meta({
			description:
				'Answer this status (429 carries Retry-After and X-RateLimit-* headers as the real limit does). A 2xx is a wrong answer that looks right, such as the empty list of a replica behind: it needs a body.',
		}),
		body: z
			.record(z.string(), z.unknown())
			.optional()
			.meta({ description: 'The answer body (default: the usual error body).' }),
		delayMs: z.int().min(0).max(300000).optional().meta({
			description: 'Wait this long first; without status or drop the real answer follows.',
		}),
		retryAfter: z
			.int()
			.min(1)
			.max(86400)
			.optional()
			.meta({ description: 'Retry-After seconds of an injected 429 (default 60).' }),
		drop: z.boolean().optional().meta({ description: 'Close the connection without an answer.' }),
		accountId: scopeId(
			"Only requests (or saves) of this account: a parallel test's fault never reaches another test's account.",
		),
		keyId: scopeId('Only requests made with this API key (its id, as accounts answer it).'),
		match: z
			.strictObject({
				query: z.record(z.string(), z.string()).optional().meta({
					description:
						'Query parameters the request must carry with these values, e.g. {"skip": "1000"} for the second page of a walk.',
				}),
				body: z.unknown().optional().meta({
					description:
						"A JSON subset of the request body: objects match when every given field matches, arrays when every given element matches one of the body's.",
				}),
				bodyContains: z
					.string()
					.min(1)
					.optional()
					.meta({ description: 'Text the request body, as JSON, must contain.' }),
			})
			.optional()
			.meta({ description: 'Route faults only: which requests of the route it applies to.' }),
		probability: z.number().gt(0).max(1).optional().meta({
			description:
				'Route faults only: the chance (above 0, up to 1, the default) that a matching request gets the fault; one that does not is served normally and uses none of `times`.',
		}),
	})
	.superRefine((f, ctx) => {
		if ((f.target === undefined) === (f.route === undefined))
			ctx.addIssue({
				code: 'custom',
				path: ['route'],
				message: 'send either target (a storage fault) or route (a route fault)',
			});
		if (f.target && (f.match || f.probability !== undefined))
			ctx.addIssue({
				code: 'custom',
				path: ['match'],
				message:
					'a storage fault takes times, accountId and keyId; match and probability are for route faults',
			});
		if (f.target && (f.status || f.body || f.delayMs !== undefined || f.retryAfter || f.drop))
			ctx.addIssue({
				code: 'custom',
				path: ['target'],
				message:
					'a storage fault takes times, accountId and keyId; status, body, delayMs, retryAfter and drop are for route faults',
			});
		if (f.route && f.status === undefined && f.delayMs === undefined && !f.drop)
			ctx.addIssue({
				code: 'custom',
				path: ['status'],
				message: 'a route fault needs status, delayMs or drop',
			});
		if (f.status !== undefined && f.status < 400 && !f.body)
			ctx.addIssue({
				code: 'custom',
				path: ['body'],
				message: `a ${f.status} fault answers as if all went well, so it needs the body to answer (e.g. {"inboxes": [], "pagination": {...}})`,
			});
		if (f.status !== undefined && f.status >= 300 && f.status < 400)
			ctx.addIssue({
				code: 'custom',
				path: ['status'],
				message: 'a route fault answers 2xx, 4xx or 5xx; redirects are not faults it can inject',
			});
		if (f.drop && (f.status !== undefined || f.body))
			ctx.addIssue({
				code: 'custom',
				path: ['drop'],
				message: 'a dropped connection has no status or body',
			});
	})
	.meta({
		id: 'AdminFault',
		// The rules of the refinement above, for the document (null is "left out", so a field counts
		// as given only with a value of its type).
		...faultRules(),
		example: {
			route: 'POST /api/v1/niche-finder-leads',
			accountId: 'acc_0123456789abcdef',
			times: 1,
			status: 503,
		},
	});

/**
 * A JSON value given in a query parameter, parsed, then checked by `schema` (a test's filter on
 * bodies and queries). The document declares it as JSON content with that schema.
 */
const jsonParam = (what: string, schema: z.ZodType) =>
	z
		.string()
		.transform((text, ctx) => {
			try {
				return JSON.parse(text) as unknown;
			} catch {
				ctx.addIssue({ code: 'custom', message: `must be JSON (${what})` });
				return z.NEVER;
			}
		})
		.pipe(schema)
		.meta({
			description: `JSON: ${what}.`,
			contentMediaType: 'application/json',
			contentSchema: z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any' }),
		});

/** Filters of the journal that verify a test's own calls. */
const journalMatch = {
	accountId: scopeId('Only requests of this account.'),
	keyId: scopeId('Only requests made with this key.'),
	query: jsonParam(
		'query parameters the request carried with these values, e.g. {"skip":"0"}',
		z.record(z.string(), z.string()),
	).optional(),
	body: jsonParam(
		'a subset of the request body (objects: every given field matches; arrays: every given element matches one)',
		z.unknown(),
	).optional(),
	bodyContains: z
		.string()
		.min(1)
		.optional()
		.meta({ description: 'Text the recorded (redacted) body, as JSON, contains.' }),
};

export const journalQuery = z
	.strictObject({
		method: z.string().optional(),
		path: z.string().optional().meta({ description: 'Exact path, or a prefix ending with *.' }),
		status: queryInt(100, 599).optional(),
		since: z.iso.datetime().optional().meta({ description: 'ISO time: requests at or after it.' }),
		limit: queryInt(1, 100000).optional().meta({ description: 'The most recent n matching.' }),
		id: queryInt(1, Number.MAX_SAFE_INTEGER)
			.optional()
			.meta({ description: 'Only the request with this id.' }),
		summary: z.enum(['true', 'false']).optional().meta({
			description:
				'true: id, time, method, path, accountId, keyId, status and durationMs only (a long journal at a glance).',
		}),
		...journalMatch,
	})
	.meta({ id: 'AdminJournalQuery' });

/** What a DELETE of the journal may narrow itself to. */
export const journalClearQuery = z
	.strictObject({ accountId: journalMatch.accountId })
	.meta({ id: 'AdminJournalClearQuery' });

/** A page of an account's contacts: at most 1000 at a time, however many the account holds. */
export const CONTACTS_PAGE_MAX = 1000;

/** A page of an admin list: limit (1 to CONTACTS_PAGE_MAX, default that) and skip. */
const pageFields = {
	limit: queryInt(1, CONTACTS_PAGE_MAX)
		.optional()
		.meta({ description: `1 to ${CONTACTS_PAGE_MAX}, default ${CONTACTS_PAGE_MAX}.` }),
	skip: queryInt(0, Number.MAX_SAFE_INTEGER).optional().meta({ description: '>= 0, default 0.' }),
};

export const contactsQuery = z.strictObject(pageFields).meta({ id: 'AdminContactsQuery' });
export const ledgerQuery = z.strictObject(pageFields).meta({ id: 'AdminLedgerQuery' });
export const searchesQuery = z
	.strictObject({
		accountId: scopeId("Only this account's searches."),
		...pageFields,
	})
	.meta({ id: 'AdminSearchesQuery' });

export const clockRequest = z
	.strictObject({
		advanceSeconds: z
			.int()
			.min(0)
			.max(10 * 365 * 24 * 3600)
			.optional()
			.meta({ description: 'Seconds to move the clock forward.' }),
		now: z.iso.datetime({ offset: true }).optional().meta({
			description:
				"Sets the clock to this instant (ISO 8601 with Z or an offset; earlier than this machine's time too), before advanceSeconds: time runs on from it (stands, if frozen). The workflow test runner sets each case's clock so.",
		}),
		frozen: z.boolean().optional().meta({
			description:
				'true stops the clock where it is (advanceSeconds still moves it); false lets it run on from there. Left out: as it was.',
		}),
	})
	.refine(
		(body) =>
			body.advanceSeconds !== undefined || body.frozen !== undefined || body.now !== undefined,
		{ message: 'Give now, advanceSeconds, frozen, or several.' },
	)
	.meta({
		id: 'AdminClock',
		// The refinement above, for the document: at least one of them, not null.
		anyOf: [
			given('now', { type: 'string' }),
			given('advanceSeconds', { type: 'integer' }),
			given('frozen', { type: 'boolean' }),
		],
	});

/** An inbox's new status: what a mail provider or the service would do to it (a login that broke...). */
export const inboxStatusRequest = z
	.strictObject({
		status: z.enum(INBOX_STATUSES).meta({ description: `One of ${INBOX_STATUSES.join(', ')}.` }),
	})
	.meta({ id: 'AdminInboxStatus', example: { status: 'error' } });

export const accountResponse = z
	.object({
		id: z.string(),
		credits: z.int(),
		active: z.boolean(),
		permissions: z.array(z.string()),
		contactCount: z.int(),
	})
	.meta({ id: 'AdminAccount' });

export const accountListResponse = z
	.object({
		accounts: z.array(
			accountResponse.extend({
				dev: z.boolean().meta({ description: 'The dev account that the server seeds and prints.' }),
			}),
		),
	})
	.meta({ id: 'AdminAccountList' });

export const scanQuery = z
	.strictObject({
		url: z
			.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
			.refine((value) => URL.canParse(value) && new URL(value).hostname.endsWith('.test'), {
				error:
					'must be a website of the synthetic data (a .test host); scan another website with npm run scan -- <url>',
			})
			.meta({ description: 'A business website of the synthetic data (a .test host).' }),
	})
	.meta({ id: 'AdminScanQuery' });

/** One recorded request, as GET /__admin/requests lists it. */
export const journalEntryResponse = z
	.object({
		id: z.int(),
		time: z.string(),
		method: z.string(),
		path: z.string(),
		query: z.record(z.string(), z.unknown()).optional(),
		accountId: z.string().nullable(),
		keyId: z.string().nullable(),
		status: z.int().nullable(),
		durationMs: z.number(),
		body: z.unknown().optional(),
		bodyNote: z
			.object({
				kept: z.enum(['shortened', 'not kept']),
				reason: z.string(),
				bytes: z.int(),
			})
			.optional(),
		response: z.record(z.string(), z.unknown()).optional(),
	})
	.meta({ id: 'AdminJournalEntry' });

export const journalListResponse = z
	.object({ requests: z.array(journalEntryResponse) })
	.meta({ id: 'AdminJournalList' });

export const journalCountResponse = z
	.object({ count: z.int() })
	.meta({ id: 'AdminJournalCount', example: { count: 2 } });

export const clearedResponse = z
	.object({ cleared: z.literal(true) })
	.meta({ id: 'AdminCleared', example: { cleared: true } });

const storageFaultResponse = z.object({
	target: z.enum(FAULT_TARGETS),
	times: z.int(),
	accountId: z.string().optional(),
	keyId: z.string().optional(),
});
const routeFaultResponse = z.object({
	route: z.enum(FAULT_ROUTES),
	times: z.int(),
	status: z.int().optional(),
	body: z.record(z.string(), z.unknown()).optional(),
	delayMs: z.int().optional(),
	retryAfter: z.int().optional(),
	drop: z.boolean().optional(),
	accountId: z.string().optional(),
	keyId: z.string().optional(),
	match: z.record(z.string(), z.unknown()).optional(),
	probability: z.number().optional(),
});

export const faultListResponse = z
	.object({ storage: z.array(storageFaultResponse), routes: z.array(routeFaultResponse) })
	.meta({ id: 'AdminFaultList' });

export const faultArmedResponse = z
	.object({ armed: z.union([storageFaultResponse, routeFaultResponse]) })
	.meta({ id: 'AdminFaultArmed' });

export const faultClearQuery = z
	.strictObject({
		accountId: scopeId("Only this account's faults (the others stay armed)."),
	})
	.meta({ id: 'AdminFaultClearQuery' });

export const createdAccountResponse = z
	.object({
		accountId: z.string(),
		apiKey: z.string().meta({ description: 'Shown once: only its hash is kept.' }),
		keyId: z
			.string()
			.meta({ description: 'The id of the key, as the journal and faults name it.' }),
	})
	.meta({
		id: 'AdminCreatedAccount',
		example: {
			accountId: 'acc_0123456789abcdef',
			apiKey: 'lik_0123456789abcdef0123456789abcdef',
			keyId: 'key_0123456789abcdef',
		},
	});

export const createdKeyResponse = z.object({ apiKey: z.string(), keyId: z.string() }).meta({
	id: 'AdminCreatedKey',
	example: { apiKey: 'lik_0123456789abcdef0123456789abcdef', keyId: 'key_0123456789abcdef' },
});
