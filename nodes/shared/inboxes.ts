import type { IDataObject } from 'n8n-workflow';
import { readNumber } from './answer';
import type { Context } from './errors';
import { collectPages, type Listing } from './pagination';
import { TIMEOUT_HINT } from './timeout';
import { apiRequest } from './transport';

/** A listed inbox, its sending limit read also when sent as a numeric string. */
export function inboxOf(inbox: IDataObject): IDataObject {
	const dailySendingLimit = readNumber(inbox.dailySendingLimit);
	return dailySendingLimit === undefined ? inbox : { ...inbox, dailySendingLimit };
}

/**
 * Inboxes of GET /inboxes, page by page (guarded pagination, pages of up to 1000): List Inboxes,
 * the trigger and Create Inboxes (to settle what an unclear answer did) all list them here.
 */
export async function fetchInboxes(
	ctx: Context,
	options: {
		/** poolId and status, as the service takes them; empty ones are left out. */
		filter: { poolId?: string; status?: string };
		wanted: number;
		timeoutMs: number;
		itemIndex?: number;
		/** What to do when the filtered pool is not found (a 404). */
		poolNotFoundHint: string;
	},
): Promise<Listing> {
	const filter = Object.fromEntries(Object.entries(options.filter).filter(([, value]) => value));
	const listing = await collectPages(ctx, {
		key: 'inboxes',
		wanted: options.wanted,
		itemIndex: options.itemIndex,
		fetchPage: async ({ limit, skip }) =>
			await apiRequest.call(ctx, 'inbox', 'GET', '/inboxes', {
				qs: { ...filter, limit, skip },
				itemIndex: options.itemIndex,
				timeoutMs: options.timeoutMs,
				timeoutHint: TIMEOUT_HINT,
				hint: (answer) =>
					answer.statusCode === 404 && filter.poolId ? options.poolNotFoundHint : undefined,
			}),
	});
	return { ...listing, items: listing.items.map(inboxOf) };
}
