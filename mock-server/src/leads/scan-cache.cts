import type { Clock } from '../core/clock.cjs';
import type { Scanner, ScanResult } from '../scan/scanner.cjs';

/** Website scan results kept for a time-to-live (server clock), so repeated searches are fast. */
export class ScanCache {
	private readonly entries = new Map<string, { at: number; result: Promise<ScanResult> }>();
	private ready?: Promise<void>;

	constructor(
		private readonly scanner: Scanner,
		private readonly clock: Clock,
		/** Awaited once, before the first website is fetched (starts what serves them). */
		private readonly beforeFirstScan: () => Promise<void> = async () => undefined,
		private readonly ttlMs = 6 * 3600 * 1000,
		private readonly maxEntries = 100000,
	) {}

	scan(url: string | null): Promise<ScanResult> {
		if (!url) return this.scanner.scan(null);
		const now = this.clock.now();
		const hit = this.entries.get(url);
		if (hit && now - hit.at < this.ttlMs) return hit.result;
		if (this.entries.size >= this.maxEntries)
			this.entries.delete(this.entries.keys().next().value!);
		this.ready ??= this.beforeFirstScan();
		const result = this.ready.then(() => this.scanner.scan(url));
		this.entries.set(url, { at: now, result });
		return result;
	}

	clear(): void {
		this.entries.clear();
	}
}
