import { isIP } from 'node:net';
import { z } from 'zod';
import { emailAddress, queryInt, trimmedText } from './common.cjs';

/** Inboxes one API key may create per rolling hour. */
export const HOURLY_LIMIT = 1000;

/** Entries per create request. */
export const MAX_BATCH = 100;

export const PROVIDERS = [
	'google',
	'microsoft',
	'yahoo',
	'zoho',
	'icloud',
	'godaddy',
	'namecheap',
] as const;
export type Provider = (typeof PROVIDERS)[number];
export const INBOX_STATUSES = ['active', 'paused', 'deactivated', 'error'] as const;
export type InboxStatus = (typeof INBOX_STATUSES)[number];

const HOST_NAME =
	/^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/i;
const host = z
	.string()
	.trim()
	.refine((v) => HOST_NAME.test(v) || isIP(v) !== 0, {
		error: 'must be a host name or IP address such as imap.example.com, not a URL',
	})
	.meta({
		description: 'A host name or an IP address, not a URL.',
		anyOf: [{ format: 'hostname' }, { format: 'ipv4' }, { format: 'ipv6' }],
	});
const port = z
	.int()
	.min(1)
	.max(65535)
	.meta({ description: '993 and 465 mean implicit TLS; any other port must offer STARTTLS.' });
const secret = z.string().min(1).max(1024);

export const inboxEntry = z
	.strictObject({
		emailAddress: emailAddress(),
		imapPassword: secret.meta({
			description: 'IMAP password (usually an app password). Stored encrypted, never returned.',
		}),
		poolId: trimmedText(100).optional().meta({
			description: 'Pool to add the inbox to. Omitted: one new pool is created for the request.',
		}),
		smtpPassword: secret.optional().meta({ description: 'Defaults to imapPassword.' }),
		provider: z.enum(PROVIDERS).optional(),
		imapHost: host.optional(),
		imapPort: port.optional(),
		smtpHost: host.optional(),
		smtpPort: port.optional(),
		imapUsername: z
			.string()
			.min(1)
			.max(320)
			.optional()
			.meta({ description: 'Defaults to the email address (iCloud IMAP: its local part).' }),
		smtpUsername: z
			.string()
			.min(1)
			.max(320)
			.optional()
			.meta({ description: 'Defaults to the email address.' }),
		dailySendingLimit: z.int().min(1).max(10000).default(2),
		skipConnectionTest: z.boolean().default(false),
		acceptDomainAsTyped: z.boolean().default(false).meta({
			description:
				'An address whose domain looks like a typo of a mail provider (gmial.com, hotmial.com, yaho.com...) is refused with a suggestion; true creates it as typed.',
		}),
	})
	.meta({
		id: 'InboxCreationEntry',
		example: {
			emailAddress: 'jane@gmail.com',
			imapPassword: 'abcd efgh ijkl mnop',
			dailySendingLimit: 30,
		},
	});

export type InboxEntry = z.output<typeof inboxEntry>;

export const createInboxesRequest = z
	.union([inboxEntry, z.array(inboxEntry).min(1).max(MAX_BATCH)])
	.meta({
		id: 'CreateInboxesRequest',
		description: 'One entry, or an array of 1 to 100 entries (batch).',
	});

export const createInboxesQuery = z
	.strictObject({
		poolName: trimmedText(100).optional().meta({
			description:
				'Name of the pool this request creates for entries without poolId (a reference-server extension). Default: "Pool YYYY-MM-DD HH:MM UTC"; a name already used in the account gets " (2)", " (3)"...',
		}),
	})
	.meta({ id: 'CreateInboxesQuery' });

export const listInboxesQuery = z
	.strictObject({
		poolId: z.string().min(1).max(100).optional(),
		status: z.enum(INBOX_STATUSES).optional(),
		limit: queryInt(1, 1000).optional().meta({ description: '1 to 1000, default 100.' }),
		skip: queryInt(0, Number.MAX_SAFE_INTEGER).optional().meta({ description: '>= 0, default 0.' }),
	})
	.meta({ id: 'ListInboxesQuery' });

/** GET /pools takes no parameter; one sent anyway is refused like GET /inboxes refuses unknown ones. */
export const listPoolsQuery = z.strictObject({}).meta({ id: 'ListPoolsQuery' });

export const pool = z
	.object({
		id: z.string(),
		name: z.string(),
		inboxCount: z.int(),
		createdAt: z.string().meta({ description: 'ISO 8601, UTC' }),
	})
	.meta({ id: 'Pool' });

export const poolsResponse = z.object({ pools: z.array(pool) }).meta({
	id: 'PoolsResponse',
	example: {
		pools: [
			{
				id: 'pool_q3Zx8aPm',
				name: 'Pool 2026-11-21 14:03 UTC',
				inboxCount: 3,
				createdAt: '2026-11-21T14:03:11.412Z',
			},
		],
	},
});

export const inbox = z
	.object({
		id: z.string(),
		emailAddress: z.string(),
		poolId: z.string(),
		status: z.enum(INBOX_STATUSES),
		dailySendingLimit: z.int(),
		createdAt: z.string(),
	})
	.meta({ id: 'Inbox' });

export const inboxesResponse = z
	.object({
		inboxes: z.array(inbox),
		pagination: z.object({ total: z.int(), limit: z.int(), skip: z.int(), hasMore: z.boolean() }),
	})
	.meta({ id: 'InboxesResponse' });

export const ENTRY_ERROR_CODES = [
	'invalid_entry',
	'pool_not_found',
	'email_exists',
	'connection_failed',
] as const;
export type EntryErrorCode = (typeof ENTRY_ERROR_CODES)[number];

export const creationResult = z
	.object({
		emailAddress: z.string(),
		success: z.boolean(),
		inboxId: z.string().optional(),
		poolId: z
			.string()
			.optional()
			.meta({ description: 'Pool the inbox was added to (created entries).' }),
		autoFilledFields: z.array(z.enum(['imapHost', 'imapPort', 'smtpHost', 'smtpPort'])).optional(),
		error: z.string().optional(),
		code: z.enum(ENTRY_ERROR_CODES).optional(),
		details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
	})
	.meta({ id: 'InboxCreationResult' });

export const creationResponse = z
	.object({
		success: z.boolean(),
		summary: z.object({ total: z.int(), created: z.int(), failed: z.int() }),
		pool: z
			.object({ id: z.string(), name: z.string() })
			.optional()
			.meta({ description: 'Present only when a pool was created automatically.' }),
		results: z.array(creationResult),
	})
	.meta({
		id: 'InboxCreationResponse',
		example: {
			success: false,
			summary: { total: 2, created: 1, failed: 1 },
			pool: { id: 'pool_q3Zx8aPm', name: 'Pool 2026-11-21 14:03 UTC' },
			results: [
				{
					emailAddress: 'jane@gmail.com',
					success: true,
					inboxId: 'inb_Xk2p9QwE',
					poolId: 'pool_q3Zx8aPm',
					autoFilledFields: ['imapHost', 'imapPort', 'smtpHost', 'smtpPort'],
				},
				{
					emailAddress: 'joe@gmail.com',
					success: false,
					error:
						'Connection test failed: IMAP authentication refused by imap.gmail.com:993: check the user name and (app) password.',
					code: 'connection_failed',
				},
			],
		},
	});
