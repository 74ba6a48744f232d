/**
 * Website scan results kept for a time-to-live (server clock), so repeated searches are fast. Only
 * the three flags are kept, never the pages or the full findings, in a bounded cache.
 */
import { CACHE_LIMITS, LRUCache, upTo } from '../core/cache.cjs';
import type { Clock } from '../core/clock.cjs';
import type { ScanSummary } from '../scan/index.cjs';

/** What a lead needs of a website scan: the three tracker flags (null: not scanned). */
export type TrackerFlags = Pick<ScanSummary, 'fbPixel' | 'tikTokPixel' | 'gAnalytics'>;

const NOT_SCANNED: TrackerFlags = { fbPixel: null, tikTokPixel: null, gAnalytics: null };

interface Entry {
	/** The flags once known; until then the scan in flight, shared by every search asking. */
	flags: TrackerFlags | Promise<TrackerFlags>;
}

/**
 * Flags of websites kept beyond one server: servers of one process that serve the same synthetic
 * web (the workflow test runner's, a server per test file) scan a site once. A synthetic site's
 * flags are a function of its address, so any server's scan holds for all.
 */
export type SharedScans = Map<string, TrackerFlags>;

export class ScanCache {
	private readonly entries: LRUCache<string, Entry>;
	private readonly shared?: SharedScans;

	constructor(
		private readonly scan: (url: string) => Promise<ScanSummary>,
		clock: Clock,
		/** How long a scan is kept, in the server clock's milliseconds (--scan-cache-ttl). */
		ttlMs: number = CACHE_LIMITS.scanResults.ttlMs,
		{
			max = CACHE_LIMITS.scanResults.max,
			shared,
		}: {
			max?: number;
			/** Scans other servers made: looked up first, added to, kept beyond the TTL and clear(). */
			shared?: SharedScans;
		} = {},
	) {
		this.shared = shared;
		this.entries = new LRUCache<string, Entry>({
			...upTo(max),
			ttl: ttlMs,
			// Expiry follows the server clock, which the admin API can move forward.
			perf: { now: () => clock.now() },
			ttlResolution: 0,
		});
	}

	/** The flags of a website: at once when cached, else a promise of the scan. */
	flags(url: string | null): TrackerFlags | Promise<TrackerFlags> {
		if (!url) return NOT_SCANNED;
		const known = this.shared?.get(url);
		if (known) return known;
		const hit = this.entries.get(url);
		if (hit) return hit.flags;
		const entry: Entry = {
			flags: this.scan(url).then(
				({ fbPixel, tikTokPixel, gAnalytics }) => {
					entry.flags = { fbPixel, tikTokPixel, gAnalytics };
					this.shared?.set(url, entry.flags);
					return entry.flags;
				},
				(error: Error) => {
					// The scanning could not run at all (its helper processes did not start): not a result
					// to keep, so the next search asks again.
					if (this.entries.peek(url) === entry) this.entries.delete(url);
					throw error;
				},
			),
		};
		this.entries.set(url, entry);
		return entry.flags;
	}

	clear(): void {
		this.entries.clear();
	}
}
