import {
	inboxEntry,
	MAX_BATCH,
	type EntryErrorCode,
	type InboxEntry,
} from '../contract/inboxes.cjs';
import { ApiError, type ErrorDetail } from '../http/errors.cjs';
import { dropNulls, zodDetails } from '../http/validation.cjs';
import type { Principal } from '../store/accounts.cjs';
import type { Store } from '../store/store.cjs';
import type { ConnectionTester } from './connection-test.cjs';
import {
	DetectionError,
	type MxResolver,
	type ResolvedSettings,
	resolveSettings,
} from './detect.cjs';
import type { InboxRateLimiter } from './rate-limit.cjs';

const TEST_CONCURRENCY = 10;

export const STATUS_OF_CODE: Record<EntryErrorCode, number> = {
	invalid_entry: 400,
	pool_not_found: 404,
	email_exists: 409,
	connection_failed: 422,
};

/**
 * What a failed entry says, by code: written once, used by the rules and by the OpenAPI
 * document's examples (inboxes/routes.cts), so the two cannot drift apart.
 */
export const ENTRY_MESSAGES = {
	poolNotFound: (poolId: string) =>
		`Pool '${poolId}' not found in this account; list pools with GET /pools or omit poolId to create one.`,
	emailExists: (address: string) => `An inbox for ${address} already exists in this account.`,
	repeatedInBatch: (address: string) =>
		`${address} appears earlier in this batch; send each address once.`,
};

export interface EntryResult {
	emailAddress: string;
	success: boolean;
	inboxId?: string;
	poolId?: string;
	autoFilledFields?: string[];
	error?: string;
	code?: EntryErrorCode;
	details?: ErrorDetail[];
}

export interface CreationOutcome {
	single: boolean;
	response: {
		success: boolean;
		summary: { total: number; created: number; failed: number };
		pool?: { id: string; name: string };
		results: EntryResult[];
	};
	rateHeaders: Record<string, string>;
}

interface Candidate {
	index: number;
	entry: InboxEntry;
	settings: ResolvedSettings;
}

export interface CreationDeps {
	store: Store;
	limiter: InboxRateLimiter;
	tester: ConnectionTester;
	mx?: MxResolver;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
	typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body must be one entry object or an array of 1..100 objects; otherwise nothing is created. */
function entriesOf(body: unknown): { single: boolean; raw: Record<string, unknown>[] } {
	if (isPlainObject(body)) return { single: true, raw: [body] };
	if (!Array.isArray(body)) {
		throw new ApiError(
			400,
			'The body must be one inbox entry (a JSON object) or an array of 1 to 100 entries.',
		);
	}
	if (body.length === 0) throw new ApiError(400, 'The batch is empty: send 1 to 100 entries.');
	if (body.length > MAX_BATCH)
		throw new ApiError(
			400,
			`The batch has ${body.length} entries; send at most ${MAX_BATCH} per request (split it).`,
		);
	const bad = body.findIndex((e) => !isPlainObject(e));
	if (bad >= 0)
		throw new ApiError(
			400,
			`Entry ${bad} is not a JSON object; every element of the batch must be an inbox entry object.`,
			{ details: [{ path: String(bad), message: 'must be an object' }] },
		);
	return { single: false, raw: body as Record<string, unknown>[] };
}

async function mapBounded<T, R>(
	items: T[],
	limit: number,
	fn: (item: T) => Promise<R>,
): Promise<R[]> {
	const out = new Array<R>(items.length);
	let next = 0;
	const worker = async () => {
		while (next < items.length) {
			const i = next++;
			out[i] = await fn(items[i]);
		}
	};
	await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
	return out;
}

/**
 * POST /inboxes: every entry is validated, detected, tested and created on its own; the hourly
 * quota is reserved for the candidates before the (slow) connection tests, and the pool (when
 * none was given) is created only if an entry lands in it, in the same transaction.
 */
export async function createInboxes(
	deps: CreationDeps,
	principal: Principal,
	body: unknown,
	options: { poolName?: string } = {},
): Promise<CreationOutcome> {
	const { single, raw } = entriesOf(body);
	const results: EntryResult[] = raw.map((r) => ({
		emailAddress:
			typeof r.emailAddress === 'string'
				? r.emailAddress.trim()
				: // Echoed as given: an invalid entry's result still names what was sent.
					String((r.emailAddress as string | undefined) ?? ''),
		success: false,
	}));
	const fail = (i: number, code: EntryErrorCode, error: string, details?: ErrorDetail[]) => {
		results[i] = {
			emailAddress: results[i].emailAddress,
			success: false,
			error,
			code,
			...(details?.length ? { details } : {}),
		};
	};

	// 1. Validation, pool ownership, duplicates (in the account, then earlier in this batch).
	const valid: { index: number; entry: InboxEntry }[] = [];
	raw.forEach((r, index) => {
		const parsed = inboxEntry.safeParse(dropNulls(r, inboxEntry), { reportInput: true });
		if (!parsed.success) {
			// The message is about this entry (its place in results says which); details keep the index.
			const own = zodDetails(parsed.error, inboxEntry, []);
			const details = single ? own : zodDetails(parsed.error, inboxEntry, [index]);
			fail(index, 'invalid_entry', `Invalid entry: ${own[0].message}`, details);
			return;
		}
		valid.push({ index, entry: parsed.data });
	});
	const existing = deps.store.inboxes.existingEmails(
		principal.accountId,
		valid.map((v) => v.entry.emailAddress.toLowerCase()),
	);
	const seen = new Set<string>();
	const candidates: Candidate[] = [];
	for (const { index, entry } of valid) {
		const lower = entry.emailAddress.toLowerCase();
		if (entry.poolId && !deps.store.inboxes.poolExists(principal.accountId, entry.poolId)) {
			fail(index, 'pool_not_found', ENTRY_MESSAGES.poolNotFound(entry.poolId));
		} else if (existing.has(lower)) {
			fail(index, 'email_exists', ENTRY_MESSAGES.emailExists(entry.emailAddress));
		} else if (seen.has(lower)) {
			fail(index, 'email_exists', ENTRY_MESSAGES.repeatedInBatch(entry.emailAddress));
		} else {
			seen.add(lower);
			try {
				candidates.push({ index, entry, settings: await resolveSettings(entry, deps.mx) });
			} catch (error) {
				if (!(error instanceof DetectionError)) throw error;
				fail(index, 'invalid_entry', error.message);
			}
		}
	}

	// 2. Quota for the candidates (refused whole with 429), then connection tests.
	const reservation = deps.limiter.reserve(principal.keyId, candidates.length);
	try {
		const outcomes = await mapBounded(candidates, TEST_CONCURRENCY, async (c) => {
			if (c.entry.skipConnectionTest) return { ok: true as const };
			const s = c.settings;
			return deps.tester.test(
				{ host: s.imapHost, port: s.imapPort, username: s.imapUsername, password: s.imapPassword },
				{ host: s.smtpHost, port: s.smtpPort, username: s.smtpUsername, password: s.smtpPassword },
				principal.keyId,
			);
		});
		const passed = candidates.filter((c, i) => {
			const outcome = outcomes[i];
			if (!outcome.ok) fail(c.index, 'connection_failed', outcome.message);
			return outcome.ok;
		});

		// 3. One transaction: the pool (if needed and used), the inboxes, the quota ledger.
		let pool: { id: string; name: string } | undefined;
		deps.store.transaction(() => {
			let created = 0;
			for (const c of passed) {
				let poolId = c.entry.poolId;
				if (!poolId) {
					pool ??= deps.store.inboxes.createPool(principal.accountId, options.poolName);
					poolId = pool.id;
				}
				const inboxId = deps.store.inboxes.insertInbox(
					principal.accountId,
					poolId,
					c.entry.emailAddress,
					c.entry.dailySendingLimit,
					c.settings,
				);
				if (!inboxId) {
					fail(c.index, 'email_exists', ENTRY_MESSAGES.emailExists(c.entry.emailAddress));
					continue;
				}
				created++;
				results[c.index] = {
					emailAddress: c.entry.emailAddress,
					success: true,
					inboxId,
					poolId,
					...(c.settings.autoFilledFields.length
						? { autoFilledFields: c.settings.autoFilledFields }
						: {}),
				};
			}
			reservation.commit(created);
		});
		const created = results.filter((r) => r.success).length;
		return {
			single,
			response: {
				success: created === results.length,
				summary: { total: results.length, created, failed: results.length - created },
				...(pool ? { pool } : {}),
				results,
			},
			rateHeaders: reservation.headers(),
		};
	} finally {
		reservation.release();
	}
}
