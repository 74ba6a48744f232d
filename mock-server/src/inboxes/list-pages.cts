/**
 * Serialised GET /inboxes pages per account, valid until the account's next write: listing is the
 * hot read path (clients poll it), and the store reports every write of pools and inboxes.
 */
import { boundedCache } from '../core/cache.cjs';
import type { Inboxes } from '../store/inboxes.cjs';

/** A page as bytes (sending a cached page costs no encoding) and what the journal keeps of it. */
export interface InboxPage {
	json: Buffer;
	summary: { inboxes: number; total: number };
}

export class InboxListPages {
	private readonly pages = boundedCache<string, InboxPage>('inboxPages');
	private readonly versions = new Map<string, number>();

	constructor(private readonly inboxes: Inboxes) {
		inboxes.onChange = (accountId) =>
			this.versions.set(accountId, (this.versions.get(accountId) ?? 0) + 1);
	}

	page(
		accountId: string,
		filter: { poolId?: string; status?: string },
		limit: number,
		skip: number,
	): InboxPage {
		const key = `${accountId}|${this.versions.get(accountId) ?? 0}|${filter.poolId ?? ''}|${filter.status ?? ''}|${limit}|${skip}`;
		let page = this.pages.get(key);
		if (!page) {
			const { inboxes, total } = this.inboxes.listInboxes(accountId, filter, limit, skip);
			page = {
				json: Buffer.from(
					JSON.stringify({
						inboxes,
						pagination: { total, limit, skip, hasMore: skip + inboxes.length < total },
					}),
				),
				summary: { inboxes: inboxes.length, total },
			};
			this.pages.set(key, page);
		}
		return page;
	}

	clear(): void {
		this.pages.clear();
		this.versions.clear();
	}
}
