import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { fetchInboxes } from '../shared/inboxes';
import type { Failure, Pending } from './plan';
import { addressOf, type NewPool } from './results';

/*
 * Entries whose fate an answer left unknown are looked up in the service's inbox list: what is
 * there was created, what is not was not. When the list cannot be read either, they fail as
 * unknown_outcome, saying how to check. This is why nothing the service created is lost.
 */

export interface Settled {
	created: Array<{ item: Pending; result: IDataObject }>;
	failed: Failure[];
	/** The group's new pool, as known after the listing. */
	pool: NewPool | undefined;
	note?: string;
}

export async function settle(
	ctx: IExecuteFunctions,
	items: Pending[],
	/** Why their fate is unknown: each failure's reason starts with it. */
	cause: Error,
	knownPool: NewPool | undefined,
	timeoutMs: number,
): Promise<Settled> {
	let pool = knownPool;
	const settled: Settled = { created: [], failed: [], pool };
	let existing: Map<string, IDataObject>;
	try {
		const poolIds = new Set(items.map((item) => item.entry.poolId ?? pool?.id));
		const onlyPool = poolIds.size === 1 ? [...poolIds][0] : undefined;
		const { items: inboxes } = await fetchInboxes(ctx, {
			filter: { poolId: onlyPool === undefined ? undefined : String(onlyPool) },
			wanted: Infinity,
			itemIndex: items[0].index,
			timeoutMs,
			poolNotFoundHint: 'The pool may have been deleted meanwhile.',
		});
		existing = new Map(inboxes.map((inbox) => [addressOf(inbox.emailAddress) ?? '', inbox]));
	} catch (listError) {
		for (const { index, entry } of items)
			settled.failed.push({
				index,
				emailAddress: String(entry.emailAddress),
				code: 'unknown_outcome',
				reason: `${cause.message}. Whether the inbox was created is unknown (listing the inboxes to check failed: ${(listError as Error).message}): look for it with List Inboxes before running this item again.`,
			});
		return settled;
	}
	for (const item of items) {
		const inbox = existing.get(addressOf(item.entry.emailAddress) ?? '');
		if (!inbox) {
			settled.failed.push({
				index: item.index,
				emailAddress: String(item.entry.emailAddress),
				code: 'not_created',
				reason: `${cause.message}. The service's inbox list was checked: this inbox does not exist.`,
			});
			continue;
		}
		if (item.newPool && !pool && typeof inbox.poolId === 'string') pool = { id: inbox.poolId };
		settled.created.push({
			item,
			result: { ...inbox, success: true, inboxId: inbox.id, confirmedByListing: true },
		});
	}
	settled.pool = pool;
	const count = items.length;
	settled.note = `${count} entr${count === 1 ? 'y' : 'ies'} got no clear answer (${cause.message}); the inbox list showed ${settled.created.length} of them created (confirmedByListing: true).`;
	return settled;
}
