/**
 * The server's notion of "now". Everything that reads the time (rate-limit windows, createdAt
 * timestamps) goes through a Clock so the admin API can move time forward without waiting, and
 * stop it: a test that needs "the window ends two seconds from now" to stay true however slow the
 * machine is stops the clock, and moves it on itself when it is ready.
 */
export class Clock {
	private offsetMs = 0;
	/** Set while the clock is frozen: the time it shows. */
	private frozenAt: number | undefined;

	now(): number {
		return this.frozenAt ?? Date.now() + this.offsetMs;
	}

	nowIso(): string {
		return new Date(this.now()).toISOString();
	}

	advance(seconds: number): void {
		if (this.frozenAt !== undefined) this.frozenAt += seconds * 1000;
		else this.offsetMs += seconds * 1000;
	}

	/** Shows `ms` (epoch milliseconds) from now on: running on from it, or standing there if frozen. */
	set(ms: number): void {
		if (this.frozenAt !== undefined) this.frozenAt = ms;
		else this.offsetMs = ms - Date.now();
	}

	/** Frozen, time stands still (advance still moves it); thawed, it runs on from where it stood. */
	setFrozen(frozen: boolean): void {
		if (frozen) this.frozenAt ??= this.now();
		else if (this.frozenAt !== undefined) {
			this.offsetMs = this.frozenAt - Date.now();
			this.frozenAt = undefined;
		}
	}

	get frozen(): boolean {
		return this.frozenAt !== undefined;
	}

	reset(): void {
		this.offsetMs = 0;
		this.frozenAt = undefined;
	}

	/** How far the clock is from this machine's, in seconds. */
	get offsetSeconds(): number {
		return (this.frozenAt === undefined ? this.offsetMs : this.frozenAt - Date.now()) / 1000;
	}
}
