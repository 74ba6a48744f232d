/** What every admin operation shares: its options and its schema's common parts. */
import { z } from 'zod';
import { CONTACTS_PAGE_MAX } from '../contract/admin.cjs';
import type { Seed } from '../contract/seed.cjs';
import type { Clock } from '../core/clock.cjs';
import { ADMIN_TOKEN_FAILURE, type Answer, BODY_FAILURES, failure } from '../http/contract.cjs';
import type { DivergenceReport } from '../proxy/index.cjs';
import type { ScanResult } from '../scan/index.cjs';
import type { Store } from '../store/store.cjs';
import type { Faults } from './faults.cjs';
import type { RequestJournal } from './journal.cjs';

export interface AdminRoutesOptions {
	adminToken: string;
	store: Store;
	clock: Clock;
	faults: Faults;
	journal: RequestJournal;
	reset: () => Promise<void>;
	/** One account back as created, with its journal entries and scoped faults (POST .../reset). */
	resetAccount: (accountId: string) => void;
	seed: (seed: Seed) => Promise<unknown>;
	/** What the proxied service did differently from the contract (proxy mode). */
	divergences: DivergenceReport;
	/** One website scanned with everything found (the scanning's explain). */
	explainScan: (url: string) => Promise<ScanResult>;
	/** An API key's rolling hour of inbox creations (the inbox service's limiter). */
	hourlyWindow: (keyId: string) => {
		limit: number;
		used: number;
		remaining: number;
		resetsAt: string;
	};
}

export const accountParams = z.object({ id: z.string() });

/** The page an admin list's query asks for: limit (default CONTACTS_PAGE_MAX) and skip (default 0). */
export const pageOf = ({
	limit = CONTACTS_PAGE_MAX,
	skip = 0,
}: {
	limit?: number;
	skip?: number;
}) => ({
	limit,
	skip,
});

/** An admin list's pagination, as GET /inboxes gives it. */
export const paginationOf = (
	page: { limit: number; skip: number },
	returned: number,
	total: number,
) => ({ total, ...page, hasMore: page.skip + returned < total });

/**
 * An admin operation's schema: its name, summary, description and input as given, the Admin tag
 * and token, the 401 of a wrong token, and the 400 of an invalid body unless the route says more.
 */
export const admin = <
	T extends {
		operationId: string;
		summary: string;
		description: string;
		body?: unknown;
		response: Record<number, Answer>;
	},
>(
	schema: T,
) => ({
	...schema,
	tags: ['Admin'],
	security: [{ adminToken: [] }],
	response: {
		...(schema.body ? { 400: failure('The body is invalid.'), ...BODY_FAILURES } : {}),
		...schema.response,
		...ADMIN_TOKEN_FAILURE,
	},
});
