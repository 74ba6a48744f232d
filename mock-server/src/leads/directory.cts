/**
 * The businesses of each (niche, city) generated once and reused: generating one draws its name,
 * address and validated phone numbers, which costs far more than the rest of a repeated search.
 * Whole lists are evicted least recently used first, bounded by the businesses they hold.
 */
import { CACHE_LIMITS, LRUCache } from '../core/cache.cjs';
import { type Business, businessAt } from './businesses.cjs';
import type { City } from './cities.cjs';
import type { Niche } from './niches.cjs';

export class BusinessDirectory {
	private readonly lists: LRUCache<string, Business[]>;

	constructor(maxBusinesses: number = CACHE_LIMITS.directoryBusinesses.maxSize) {
		this.lists = new LRUCache<string, Business[]>({
			maxSize: maxBusinesses,
			// Ranks are generated on demand, so a list is counted by the businesses it holds so far.
			sizeCalculation: (list) => Math.max(1, list.filter(Boolean).length),
		});
	}

	/** The ranked businesses of a (niche, city), generated on first use of each rank. */
	of(niche: Niche, city: City): (rank: number) => Business {
		const key = `${niche.id}|${city.id}`;
		const list = this.lists.get(key) ?? [];
		this.lists.set(key, list);
		return (rank) => {
			let business = list[rank];
			if (!business) {
				business = businessAt(niche, city, rank);
				list[rank] = business;
				// Stored again to be counted at its new size (setting the same value keeps the old
				// size); a list evicted while a search walks it stays out.
				if (this.lists.peek(key) === list) {
					this.lists.delete(key);
					this.lists.set(key, list);
				}
			}
			return business;
		};
	}
}
