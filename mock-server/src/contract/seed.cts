/**
 * A known starting state (seed file, --seed / MOCK_SEED, or POST /__admin/seed): accounts with
 * fixed API keys, their pools, inboxes and contacts. Entries are checked with the same schemas as
 * the API's own requests.
 */
import { z } from 'zod';
import { PERMISSIONS } from './admin.cjs';
import { INBOX_STATUSES, inboxEntry } from './inboxes.cjs';
import { contact } from './leads.cjs';

const seedInbox = inboxEntry.omit({ poolId: true, imapPassword: true }).extend({
	imapPassword: z.string().min(1).max(1024).default('seeded-password'),
	status: z.enum(INBOX_STATUSES).default('active'),
});

export const seedContact = contact.partial().required({ businessName: true });

export const seedSchema = z
	.strictObject({
		accounts: z.array(
			z.strictObject({
				apiKey: z.string().regex(/^[A-Za-z0-9_-]{16,200}$/, {
					error: 'must be 16 to 200 letters, digits, "_" or "-"',
				}),
				credits: z.int().min(0).default(1000),
				active: z.boolean().default(true),
				permissions: z.array(z.enum(PERMISSIONS)).default([...PERMISSIONS]),
				pools: z
					.array(
						z.strictObject({
							name: z.string().trim().min(1).max(100),
							inboxes: z.array(seedInbox).default([]),
						}),
					)
					.default([]),
				contacts: z.array(seedContact).default([]),
			}),
		),
	})
	.meta({
		id: 'Seed',
		example: {
			accounts: [
				{
					apiKey: 'lik_ci_demo_key_0001',
					credits: 500,
					pools: [
						{
							name: 'Warm-up',
							inboxes: [{ emailAddress: 'sales@gmail.com', status: 'paused' }],
						},
					],
					contacts: [{ businessName: 'Bright Smile Dental', email: 'info@bright-smile.test' }],
				},
			],
		},
	});

export type Seed = z.output<typeof seedSchema>;
export type SeedContact = z.output<typeof seedContact>;
