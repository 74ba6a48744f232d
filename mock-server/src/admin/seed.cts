import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { type Accounts, PERMISSIONS } from '../accounts/accounts.cjs';
import type { Clock } from '../core/clock.cjs';
import { DetectionError, resolveSettings } from '../inboxes/detect.cjs';
import type { InboxStore } from '../inboxes/store.cjs';
import { INBOX_STATUSES, inboxEntry } from '../schemas/inboxes.cjs';
import { contact } from '../schemas/leads.cjs';
import { parseOrThrow } from '../schemas/validation.cjs';
import { type Db, sql } from '../store/database.cjs';
import { ApiError } from '../core/errors.cjs';
import { contactKey } from '../leads/contact-key.cjs';

/**
 * A known starting state (seed file, --seed / MOCK_SEED, or POST /__admin/seed): accounts with
 * fixed API keys, their pools, inboxes and contacts. Entries are checked with the same schemas as
 * the API's own requests. Applying a seed creates what is missing and leaves what exists as it is,
 * so a restart on a file database changes nothing (credits spent since are not handed back).
 */
const seedInbox = inboxEntry.omit({ poolId: true, imapPassword: true }).extend({
	imapPassword: z.string().min(1).max(1024).default('seeded-password'),
	status: z.enum(INBOX_STATUSES).default('active'),
});

const seedContact = contact.partial().required({ businessName: true });

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

export interface SeedDeps {
	db: Db;
	clock: Clock;
	accounts: Accounts;
	inboxes: InboxStore;
}

export function readSeedFile(file: string): Seed {
	let raw: unknown;
	try {
		raw = JSON.parse(readFileSync(file, 'utf8'));
	} catch (error) {
		throw new Error(`Cannot read the seed file ${file}: ${(error as Error).message}`);
	}
	try {
		return parseOrThrow(seedSchema, raw, 'seed file');
	} catch (error) {
		if (error instanceof ApiError) throw new Error(`${file}: ${error.message}`);
		throw error;
	}
}

/** Applies a seed in one transaction; returns the accounts it names, by key. */
export async function applySeed(
	deps: SeedDeps,
	seed: Seed,
): Promise<{ accounts: { accountId: string; created: boolean }[] }> {
	// Settings are detected first (outside the transaction): an undetectable inbox fails the seed.
	const settings = await Promise.all(
		seed.accounts.map((account, a) =>
			Promise.all(
				account.pools.map((pool, p) =>
					Promise.all(
						pool.inboxes.map(async (inbox, i) => {
							try {
								return await resolveSettings({ ...inbox, skipConnectionTest: true });
							} catch (error) {
								if (!(error instanceof DetectionError)) throw error;
								throw new ApiError(
									400,
									`Invalid seed: accounts.${a}.pools.${p}.inboxes.${i}: ${error.message}`,
								);
							}
						}),
					),
				),
			),
		),
	);
	const accounts: { accountId: string; created: boolean }[] = [];
	deps.db.transaction(() => {
		seed.accounts.forEach((account, a) => {
			const existing = deps.accounts.accountOfKey(account.apiKey);
			const accountId =
				existing ??
				deps.accounts.create({
					credits: account.credits,
					active: account.active,
					permissions: account.permissions,
					apiKey: account.apiKey,
				}).accountId;
			accounts.push({ accountId, created: !existing });
			account.pools.forEach((pool, p) => {
				const poolId =
					deps.inboxes.poolNamed(accountId, pool.name) ??
					deps.inboxes.createPool(accountId, pool.name).id;
				const taken = deps.inboxes.existingEmails(
					accountId,
					pool.inboxes.map((i) => i.emailAddress.toLowerCase()),
				);
				pool.inboxes.forEach((inbox, i) => {
					if (taken.has(inbox.emailAddress.toLowerCase())) return;
					const id = deps.inboxes.insertInbox(
						accountId,
						poolId,
						inbox.emailAddress,
						inbox.dailySendingLimit,
						settings[a][p][i],
					);
					if (id && inbox.status !== 'active') deps.inboxes.setStatus(accountId, id, inbox.status);
				});
			});
			const insert = sql(
				deps.db,
				'INSERT OR IGNORE INTO contacts (account_id, dedup_key, data, created_at) VALUES (?, ?, ?, ?)',
			);
			const now = deps.clock.nowIso();
			for (const c of account.contacts) {
				const full = {
					businessName: c.businessName,
					address: c.address ?? null,
					website: c.website ?? null,
					email: c.email ?? c.emails?.[0] ?? null,
					emails: c.emails ?? (c.email ? [c.email] : []),
					phone: c.phone ?? c.phone_numbers?.[0] ?? null,
					phone_numbers: c.phone_numbers ?? (c.phone ? [c.phone] : []),
					instagram: c.instagram ?? null,
					facebook: c.facebook ?? null,
					linkedin: c.linkedin ?? null,
					tiktok: c.tiktok ?? null,
					fbPixel: c.fbPixel ?? null,
					tikTokPixel: c.tikTokPixel ?? null,
					gAnalytics: c.gAnalytics ?? null,
					googleBusinessCategories: c.googleBusinessCategories ?? [],
				};
				insert.run(
					accountId,
					contactKey(full.email, `seed:${full.businessName}`),
					JSON.stringify(full),
					now,
				);
			}
		});
	})();
	deps.accounts.invalidate();
	return { accounts };
}
