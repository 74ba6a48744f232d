import type { Clock } from '../core/clock.cjs';
import type { ScanSummary } from '../scan/scanner.cjs';

/** What a lead needs of a website scan: the three tracker flags (null: not scanned). */
export type TrackerFlags = Pick<ScanSummary, 'fbPixel' | 'tikTokPixel' | 'gAnalytics'>;

const NOT_SCANNED: TrackerFlags = { fbPixel: null, tikTokPixel: null, gAnalytics: null };

/** How many websites' flags the cache keeps (a few dozen bytes each: ~15 MB at most). */
export const SCAN_CACHE_MAX_ENTRIES = 100000;

interface Entry {
	at: number;
	/** The flags once known; until then the scan in flight, shared by every search asking. */
	flags: TrackerFlags | Promise<TrackerFlags>;
}

/**
 * Website scan results kept for a time-to-live (server clock), so repeated searches are fast.
 * Only the flags are kept, never the pages or the full findings, and the number of entries is
 * bounded (oldest first out).
 */
export class ScanCache {
	private readonly entries = new Map<string, Entry>();

	constructor(
		private readonly scan: (url: string) => Promise<ScanSummary>,
		private readonly clock: Clock,
		private readonly ttlMs = 6 * 3600 * 1000,
		private readonly maxEntries = SCAN_CACHE_MAX_ENTRIES,
	) {}

	/** The flags of a website: at once when cached, else a promise of the scan. */
	flags(url: string | null): TrackerFlags | Promise<TrackerFlags> {
		if (!url) return NOT_SCANNED;
		const now = this.clock.now();
		const hit = this.entries.get(url);
		if (hit && now - hit.at < this.ttlMs) return hit.flags;
		if (hit) this.entries.delete(url);
		else if (this.entries.size >= this.maxEntries)
			this.entries.delete(this.entries.keys().next().value!);
		const entry: Entry = {
			at: now,
			flags: this.scan(url).then(
				({ fbPixel, tikTokPixel, gAnalytics }) => {
					entry.flags = { fbPixel, tikTokPixel, gAnalytics };
					return entry.flags;
				},
				(error: Error) => {
					// The scanning could not run at all (its threads did not start): not a result
					// to keep, so the next search asks again.
					if (this.entries.get(url) === entry) this.entries.delete(url);
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
