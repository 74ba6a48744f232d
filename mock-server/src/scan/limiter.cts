/** A counting semaphore: at most `limit` holders at once, the others wait in order. */
export class Limiter {
	private active = 0;
	private readonly waiting: (() => void)[] = [];

	constructor(private readonly limit: number) {}

	/** Waits for a place; the returned function gives it back (once). */
	async acquire(): Promise<() => void> {
		if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
		else this.active++;
		let released = false;
		return () => {
			if (released) return;
			released = true;
			const next = this.waiting.shift();
			// The place goes straight to the next waiter, so `active` stays as it is.
			if (next) next();
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
