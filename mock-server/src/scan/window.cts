import type { Limiter } from '../core/limiter.cjs';

/**
 * How many scans a scanner keeps in flight, adapted as TCP adapts its window (additive increase,
 * multiplicative decrease). All at once is fastest for a search: every slow site's time-out starts
 * at once instead of one window after another (a slow start from 64 or 256 scans made a count-1000
 * search 0.6 s slower, bench/README.md). Two signals cut it:
 * - an answer that took longer than `targetMs`: the sites answer slowly because they are loaded
 *   (here the synthetic websites share the machine's CPU with the scanner), and a site that would
 *   answer at once would wait past its time-out;
 * - more than `maxUnread` answers received and waiting to be read (bodies are read a few at a
 *   time): each holds what its socket delivered in the process's memory. In a burst of searches
 *   the window stayed open, a thousand answers waited, and the scanner's C heap grew by 150 MiB.
 * A quick answer while few wait opens it by one place. It opens fully when the scanner is idle.
 */
export class ScanWindow {
	private size: number;
	private lastCut = 0;

	constructor(
		private readonly limiter: Limiter,
		private readonly settings: {
			min: number;
			max: number;
			targetMs: number;
			maxUnread: number;
		},
	) {
		this.size = settings.max;
	}

	/** A site answered (response headers) `ms` after its request; `unread` answers wait now. */
	answered(ms: number, unread: number): void {
		if (ms > this.settings.targetMs || unread > this.settings.maxUnread) {
			// One cut per target interval: the answers of one congested moment count once.
			const now = performance.now();
			if (now - this.lastCut < this.settings.targetMs) return;
			this.lastCut = now;
			this.resize(Math.floor(this.size * 0.75));
		} else this.resize(this.size + 1);
	}

	/** Called when a scan ends: nothing in flight means the next search may go at once. */
	settled(): void {
		if (this.limiter.idle) this.resize(this.settings.max);
	}

	private resize(size: number): void {
		const next = Math.max(this.settings.min, Math.min(this.settings.max, size));
		if (next === this.size) return;
		this.size = next;
		this.limiter.resize(next);
	}
}
