/**
 * A known starting state (seed file, --seed / MOCK_SEED, or POST /__admin/seed): accounts with
 * fixed API keys, their pools, inboxes and contacts. Entries are checked with the same schemas as
 * the API's own requests.
 */
import { z } from 'zod';
import { PERMISSIONS } from './admin.cjs';
import { trimmedText } from './common.cjs';
import { contactKey } from './contact-key.cjs';
import { INBOX_STATUSES, inboxEntry } from './inboxes.cjs';
import { contact } from './leads.cjs';

const seedInbox = inboxEntry.omit({ poolId: true, imapPassword: true, emailAddress: true }).extend({
	emailAddress: inboxEntry.shape.emailAddress.meta({
		description:
			'An email address (the pattern is the one inbox creation checks). Unique in its account, compared trimmed and case-insensitively: an address given twice in one account (in one pool or two) is refused with both places named.',
	}),
	imapPassword: z.string().min(1).max(1024).default('seeded-password'),
	status: z.enum(INBOX_STATUSES).default('active'),
});

export const seedContact = contact.partial().required({ businessName: true });

type SeedInput = {
	accounts: {
		apiKey: string;
		pools: { name: string; inboxes: { emailAddress: string }[] }[];
		contacts: { businessName: string; email?: string | null; emails?: string[] | null }[];
	}[];
};

/**
 * Entries a seed would otherwise merge without a word: two accounts with one key, two pools of an
 * account with one name (names are matched as written, as the store matches them), an inbox address
 * given twice in an account, two contacts of an account with one dedup key (contact-key.cts). Each
 * is refused with both places named.
 */
function refuseConflicts(seed: SeedInput, ctx: z.RefinementCtx): void {
	const firstAt = new Map<string, string>();
	const conflict = (key: string, path: (string | number)[], what: string, fix: string) => {
		const earlier = firstAt.get(key);
		if (earlier === undefined) firstAt.set(key, path.join('.'));
		else ctx.addIssue({ code: 'custom', path, message: `${what} as ${earlier}; ${fix}` });
	};
	seed.accounts.forEach((account, a) => {
		conflict(
			`key:${account.apiKey}`,
			['accounts', a, 'apiKey'],
			'is the same key',
			'give each account its own key, or merge the two entries',
		);
		account.pools.forEach((pool, p) => {
			conflict(
				`pool:${a}:${pool.name}`,
				['accounts', a, 'pools', p, 'name'],
				'is the same pool name',
				'give each pool its own name, or merge their inboxes into one entry',
			);
			pool.inboxes.forEach((inbox, i) =>
				conflict(
					`inbox:${a}:${inbox.emailAddress.trim().toLowerCase()}`,
					['accounts', a, 'pools', p, 'inboxes', i, 'emailAddress'],
					'is the same inbox address',
					'an account has one inbox per address: leave one out',
				),
			);
		});
		account.contacts.forEach((contact, c) => {
			const email = contact.email ?? contact.emails?.[0];
			if (email)
				conflict(
					`contact:${a}:${contactKey(email, '')}`,
					['accounts', a, 'contacts', c, 'email'],
					'is the same email',
					'contacts are deduplicated by email: give each its own or leave one out',
				);
		});
	});
}

export const seedSchema = z
	.strictObject({
		accounts: z.array(
			z.strictObject({
				apiKey: z
					.string()
					.regex(/^[A-Za-z0-9_-]{16,200}$/, {
						error: 'must be 16 to 200 letters, digits, "_" or "-"',
					})
					.meta({
						description:
							"The account's API key, as clients will send it. Unique in the seed: two accounts with the same key are refused, naming both.",
					}),
				credits: z.int().min(0).default(1000),
				active: z.boolean().default(true),
				permissions: z.array(z.enum(PERMISSIONS)).default([...PERMISSIONS]),
				pools: z
					.array(
						z.strictObject({
							name: trimmedText(100).meta({
								description:
									'Unique among the pools of its account, compared as written: two pools of one account with the same name are refused, naming both.',
							}),
							inboxes: z.array(seedInbox).default([]),
						}),
					)
					.default([]),
				contacts: z.array(seedContact).default([]).meta({
					description:
						"The account's contacts, deduplicated as lead searches deduplicate them: two contacts whose primary email (`email`, else `emails[0]`), trimmed and lower-cased, is the same are refused, naming both.",
				}),
			}),
		),
	})
	.superRefine(refuseConflicts)
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
