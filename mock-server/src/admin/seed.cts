/**
 * Applying a seed creates what is missing and leaves what exists as it is, so a restart on a file
 * database changes nothing (credits spent since are not handed back).
 */
import { readFileSync } from 'node:fs';
import { contactKey } from '../contract/contact-key.cjs';
import type { Contact } from '../contract/leads.cjs';
import { type Seed, type SeedContact, seedSchema } from '../contract/seed.cjs';
import { ApiError } from '../http/errors.cjs';
import { parseOrThrow } from '../http/validation.cjs';
import { DetectionError, resolveSettings } from '../inboxes/index.cjs';
import type { Store } from '../store/store.cjs';

/** A seeded contact with every field the API answers with (missing ones empty). */
function completeContact(c: SeedContact): Contact {
	return {
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
}

export function readSeedFile(file: string): Seed {
	let raw: unknown;
	try {
		// Editors on Windows may start a UTF-8 file with a byte order mark; JSON.parse refuses it.
		raw = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
	} catch (error) {
		throw new Error(`Cannot read the seed file ${file}: ${(error as Error).message}`);
	}
	return checkSeed(raw, file, 'seed file');
}

/** A seed given as a value (a file's content, or an object passed in-process), checked. */
export function checkSeed(raw: unknown, source: string, what = 'seed'): Seed {
	try {
		return parseOrThrow(seedSchema, raw, what);
	} catch (error) {
		if (error instanceof ApiError) throw new Error(`${source}: ${error.message}`);
		throw error;
	}
}

/** Applies a seed in one transaction; returns the accounts it names, by key. */
export async function applySeed(
	store: Store,
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
	const devAccountId = store.accounts.devAccountId();
	const accounts: { accountId: string; created: boolean }[] = [];
	store.transaction(() => {
		seed.accounts.forEach((account, a) => {
			const existing = store.accounts.accountOfKey(account.apiKey);
			// Merging into the dev account would hand the seed's pools and contacts to the dev key.
			if (existing && existing === devAccountId)
				throw new ApiError(
					400,
					`Invalid seed: accounts.${a}.apiKey is the dev account's key (--dev-key, MOCK_DEV_KEY); give the seeded account a key of its own.`,
					{ details: [{ path: `accounts.${a}.apiKey`, message: "is the dev account's key" }] },
				);
			const accountId =
				existing ??
				store.accounts.create({
					credits: account.credits,
					active: account.active,
					permissions: account.permissions,
					apiKey: account.apiKey,
				}).accountId;
			accounts.push({ accountId, created: !existing });
			account.pools.forEach((pool, p) => {
				const poolId =
					store.inboxes.poolNamed(accountId, pool.name) ??
					store.inboxes.createPool(accountId, pool.name).id;
				const taken = store.inboxes.existingEmails(
					accountId,
					pool.inboxes.map((i) => i.emailAddress.toLowerCase()),
				);
				pool.inboxes.forEach((inbox, i) => {
					if (taken.has(inbox.emailAddress.toLowerCase())) return;
					const id = store.inboxes.insertInbox(
						accountId,
						poolId,
						inbox.emailAddress,
						inbox.dailySendingLimit,
						settings[a][p][i],
					);
					if (id && inbox.status !== 'active') store.inboxes.setStatus(accountId, id, inbox.status);
				});
			});
			for (const seeded of account.contacts) {
				const full = completeContact(seeded);
				store.contacts.add(accountId, contactKey(full.email, `seed:${full.businessName}`), full);
			}
		});
	});
	store.accounts.invalidate();
	return { accounts };
}
