/** A counting semaphore: at most `limit` holders at once, the others wait in order. */
export class Limiter {
	private active = 0;
	private readonly waiting: (() => void)[] = [];

	constructor(private limit: number) {}

	/** Nobody holds or waits for a place. */
	get idle(): boolean {
		return this.active === 0 && this.waiting.length === 0;
	}

	/** How many wait for a place now. */
	get queued(): number {
		return this.waiting.length;
	}

	/** A new limit: waiters get the places it adds; places above it are not given again. */
	resize(limit: number): void {
		this.limit = limit;
		while (this.active < this.limit && this.waiting.length > 0) {
			this.active++;
			this.waiting.shift()!();
		}
	}

	/** Waits for a place; the returned function gives it back (once). */
	async acquire(): Promise<() => void> {
		if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
		else this.active++;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			// The place goes straight to the next waiter (so `active` stays), unless it is above
			// the limit after a resize.
			if (this.active <= this.limit && this.waiting.length > 0) this.waiting.shift()!();
			else this.active--;
		};
	}

	async run<T>(task: () => Promise<T>): Promise<T> {
		const release = await this.acquire();
		try {
			return await task();
		} finally {
			release();
		}
	}
}
