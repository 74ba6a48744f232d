import { type Business, businessAt } from './businesses.cjs';
import type { City } from './cities.cjs';
import type { Niche } from './niches.cjs';

/** How many generated businesses the directory keeps (about 0.6 KB each: ~20 MB at most). */
export const DIRECTORY_MAX_BUSINESSES = 30000;

/**
 * The businesses of each (niche, city) generated once and reused: generating one draws its name,
 * address and validated phone numbers, which costs far more than the rest of a repeated search.
 * Whole lists are evicted least recently used first, so the memory stays bounded by design.
 */
export class BusinessDirectory {
	private readonly lists = new Map<string, Business[]>();
	private size = 0;

	constructor(private readonly maxBusinesses = DIRECTORY_MAX_BUSINESSES) {}

	/** The ranked businesses of a (niche, city), generated on first use of each rank. */
	of(niche: Niche, city: City): (rank: number) => Business {
		const key = `${niche.id}|${city.id}`;
		const list = this.lists.get(key) ?? [];
		// Most recently used last.
		this.lists.delete(key);
		this.lists.set(key, list);
		return (rank) => {
			let business = list[rank];
			if (!business) {
				business = businessAt(niche, city, rank);
				list[rank] = business;
				// A list evicted while a search still walks it is no longer counted (or kept).
				if (this.lists.get(key) === list) {
					this.size++;
					this.evict(key);
				}
			}
			return business;
		};
	}

	private evict(keep: string): void {
		for (const [key, list] of this.lists) {
			if (this.size <= this.maxBusinesses || key === keep) return;
			this.lists.delete(key);
			this.size -= list.filter(Boolean).length;
		}
	}
}
