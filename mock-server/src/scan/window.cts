import type { Limiter } from '../core/limiter.cjs';

/**
 * How many scans a scanner keeps in flight, adapted to how fast the websites answer (additive
 * increase, multiplicative decrease, as TCP does). All at once is fastest for a burst: every slow
 * site's time-out starts at once instead of one after another. But under sustained load the
 * answers queue up behind each other (here the synthetic websites share the machine's CPU with the
 * scanner), and a site that would answer at once waits past its time-out. So the window shrinks
 * when answers take longer than `targetMs`, grows again with each quick one, and opens fully when
 * the scanner is idle.
 */
export class ScanWindow {
	private size: number;
	private lastCut = 0;

	constructor(
		private readonly limiter: Limiter,
		private readonly max: number,
		private readonly min: number,
		private readonly targetMs: number,
	) {
		this.size = max;
	}

	/** A website answered (response headers) `ms` after the request was made. */
	answered(ms: number): void {
		if (ms > this.targetMs) {
			// One cut per target interval: the answers of one congested moment count once.
			const now = performance.now();
			if (now - this.lastCut < this.targetMs) return;
			this.lastCut = now;
			this.resize(Math.floor(this.size * 0.75));
		} else if (this.size < this.max) this.resize(this.size + 1);
	}

	/** Called when a scan ends: nothing in flight means the next burst may go at once. */
	settled(): void {
		if (this.limiter.idle && this.size < this.max) this.resize(this.max);
	}

	private resize(size: number): void {
		this.size = Math.max(this.min, Math.min(this.max, size));
		this.limiter.resize(this.size);
	}
}
