/**
 * The answers of the admin API, as zod schemas: the OpenAPI document is generated from them, so a
 * client generated from it (openapi-typescript, @hey-api/openapi-ts) types every admin answer.
 */
import { z } from 'zod';
import { INBOX_STATUSES, inboxesResponse } from './inboxes.cjs';
import { contact, leadSearchRequest } from './leads.cjs';

/** Admin lists page as GET /inboxes does: the same pagination object. */
const { pagination } = inboxesResponse.shape;

export const healthResponse = z
	.object({ status: z.literal('ok') })
	.meta({ id: 'Health', example: { status: 'ok' } });

export const clockResponse = z
	.object({
		now: z.string().meta({ description: "The server clock's time (ISO 8601, UTC)." }),
		offsetSeconds: z.number().meta({ description: "How far it is ahead of this machine's clock." }),
		frozen: z.boolean(),
	})
	.meta({
		id: 'AdminClockState',
		example: { now: '2026-11-21T15:03:11.412Z', offsetSeconds: 3600, frozen: false },
	});

export const seedResponse = z
	.object({
		accounts: z.array(
			z.object({
				accountId: z.string(),
				created: z.boolean().meta({ description: 'false: the key existed, nothing was changed.' }),
			}),
		),
	})
	.meta({ id: 'AdminSeedResult' });

export const resetResponse = z
	.object({ reset: z.literal(true) })
	.meta({ id: 'AdminReset', example: { reset: true } });

export const contactsPageResponse = z
	.object({ contacts: z.array(contact), pagination })
	.meta({ id: 'AdminContactsPage' });

export const ledgerPageResponse = z
	.object({
		entries: z.array(
			z.object({
				at: z.string(),
				kind: z.enum(['opening', 'grant', 'set', 'charge']),
				delta: z.int(),
				balance: z.int(),
				searchId: z.string().optional(),
			}),
		),
		pagination,
	})
	.meta({ id: 'AdminLedgerPage' });

export const poolsByStatusResponse = z
	.object({
		pools: z.array(
			z.object({
				id: z.string(),
				name: z.string(),
				createdAt: z.string(),
				inboxes: z.object(
					Object.fromEntries(INBOX_STATUSES.map((status) => [status, z.int()])) as Record<
						(typeof INBOX_STATUSES)[number],
						z.ZodInt
					>,
				),
			}),
		),
	})
	.meta({ id: 'AdminPoolsByStatus' });

export const keysResponse = z
	.object({
		keys: z.array(
			z.object({
				id: z.string(),
				permissions: z.array(z.string()),
				createdAt: z.string(),
				hourlyWindow: z.object({
					limit: z.int(),
					used: z.int(),
					remaining: z.int(),
					resetsAt: z.string(),
				}),
			}),
		),
	})
	.meta({ id: 'AdminKeys' });

export const searchesPageResponse = z
	.object({
		searches: z.array(
			z.object({
				id: z.string(),
				accountId: z.string(),
				at: z.string(),
				// As validated: what was asked, the filters not given left out.
				request: z.looseObject(leadSearchRequest.shape),
				found: z.int(),
				charged: z.int(),
				duplicates: z.int(),
				refunded: z.int(),
				durationMs: z.number(),
			}),
		),
		pagination,
	})
	.meta({ id: 'AdminSearchesPage' });

export const scanResponse = z
	.object({
		url: z.string().nullable(),
		finalUrl: z.string().optional(),
		scanned: z.boolean(),
		reason: z.string().optional().meta({ description: 'Why the website was not scanned.' }),
		incomplete: z.string().optional().meta({
			description:
				'Set when the page was read but not every tag-manager container it loads: which were not read, why, and the codes this left unknown (`left unknown: ...`). A code not found that an unread container could hold is then null, not false: a Tag Manager container may hold any code, a Google tag only Google Analytics.',
		}),
		fbPixel: z.boolean().nullable(),
		tikTokPixel: z.boolean().nullable(),
		gAnalytics: z.boolean().nullable(),
		ids: z.record(z.string(), z.array(z.string())),
		findings: z.array(
			z.object({
				kind: z.string(),
				id: z.string().optional(),
				where: z.string(),
				evidence: z.string(),
			}),
		),
		containers: z.array(
			z.object({
				id: z.string(),
				url: z.string(),
				loaded: z.boolean(),
				reason: z.string().optional(),
			}),
		),
	})
	.meta({ id: 'AdminScan' });

export const divergencesResponse = z
	.object({
		exchanges: z.int(),
		counts: z.record(z.string(), z.int()),
		divergences: z.array(
			z.object({
				class: z.enum(['breaks-spec', 'open-point', 'beyond-spec']),
				kind: z.string(),
				operation: z.string(),
				what: z.string(),
				seen: z.string(),
				spec: z.string(),
				decision: z.object({ words: z.string(), link: z.string() }).optional(),
				nodes: z.object({ effect: z.string(), says: z.string() }),
				first: z.literal(true).optional(),
				count: z.int(),
				example: z.object({
					request: z.string(),
					status: z.int(),
					at: z.string().optional(),
					value: z.unknown().optional(),
				}),
			}),
		),
	})
	.meta({ id: 'AdminDivergences' });
