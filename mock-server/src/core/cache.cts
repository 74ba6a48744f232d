/**
 * Every bounded cache of the server, all of one library (lru-cache) and all sized here, so the
 * memory they may hold is read in one place. Each is least-recently-used first out; sizes are
 * entries unless `maxSize` says otherwise. mock-server/README.md ("Memory") lists them for operators.
 */
import { LRUCache } from 'lru-cache';

export const CACHE_LIMITS = {
	/** API keys already looked up (a few hundred bytes each). Cleared on any account change. */
	apiKeys: { max: 10_000 },
	/** Serialised GET /inboxes pages, valid until the account's next write (clients poll them). */
	inboxPages: { max: 2_000 },
	/** Tracker flags per website (a few dozen bytes each), kept 6 hours of server-clock time. */
	/** Website scans kept (their time-to-live is --scan-cache-ttl). */
	scanResults: { max: 100_000, ttlMs: 6 * 3600 * 1000 },
	/** Generated businesses of (niche, city) lists, counted per business (about 0.6 KB each). */
	directoryBusinesses: { maxSize: 30_000 },
	/** Rendered synthetic web pages and tag-manager containers, per worker thread. */
	renderedPages: { max: 64 },
	renderedContainers: { max: 64 },
} as const;

export type CacheName = keyof typeof CACHE_LIMITS;

/**
 * lru-cache's options for at most `max` entries, counted one each through `maxSize` rather than
 * given as `max`: with `max`, lru-cache allocates its arrays for all of them up front (4 MiB held
 * by an idle server for the 100,000 scan results alone); counted, they grow with the entries.
 */
export function upTo(max: number): { maxSize: number; sizeCalculation: () => number } {
	return { maxSize: max, sizeCalculation: () => 1 };
}

/** A cache holding at most `CACHE_LIMITS[name].max` entries. */
export function boundedCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
	name: Exclude<CacheName, 'directoryBusinesses' | 'scanResults'>,
): LRUCache<K, V> {
	return new LRUCache<K, V>(upTo(CACHE_LIMITS[name].max));
}

export { LRUCache };
