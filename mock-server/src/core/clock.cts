/**
 * The server's notion of "now". Everything that reads the time (rate-limit windows, createdAt
 * timestamps) goes through a Clock so the admin API can move time forward without waiting.
 */
export class Clock {
	private offsetMs = 0;

	now(): number {
		return Date.now() + this.offsetMs;
	}

	nowIso(): string {
		return new Date(this.now()).toISOString();
	}

	advance(seconds: number): void {
		this.offsetMs += seconds * 1000;
	}

	reset(): void {
		this.offsetMs = 0;
	}

	get offsetSeconds(): number {
		return this.offsetMs / 1000;
	}
}
