/** What every admin operation shares: its options and its schema's common parts. */
import { z } from 'zod';
import type { Seed } from '../contract/seed.cjs';
import type { Clock } from '../core/clock.cjs';
import { ADMIN_TOKEN_FAILURE, type Answer, BODY_FAILURES, failure } from '../http/contract.cjs';
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
	seed: (seed: Seed) => Promise<unknown>;
}

export const accountParams = z.object({ id: z.string() });

/**
 * An admin operation's schema: its name, summary and description, the Admin tag and token, the
 * 401 of a wrong token, and the 400 of an invalid body unless the route says more about it.
 */
export const admin = <T extends { body?: unknown; response: Record<number, Answer> }>(
	about: { operationId: string; summary: string; description: string },
	rest: T,
) => ({
	...rest,
	tags: ['Admin'],
	security: [{ adminToken: [] }],
	...about,
	response: {
		...(rest.body ? { 400: failure('The body is invalid.'), ...BODY_FAILURES } : {}),
		...rest.response,
		...ADMIN_TOKEN_FAILURE,
	},
});
