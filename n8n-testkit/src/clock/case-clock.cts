/**
 * A case's clock: one time for n8n (its processes, through ClockControl) and the file's services,
 * set when the case starts and moved by advanceClock and by the waits the runner skips.
 */
import type { ServiceSession } from '../services/service.cjs';
import type { ClockControl } from './clock-control.cjs';

/** What a move of the clock passes: the case's waits, each ended at its own instant. */
interface Timers {
	passTo(ms: number): Promise<void>;
}

export class CaseClock {
	/** The case's waits, once its workflow is in n8n: moves forward pass them (TimeWaits). */
	timers?: Timers;

	constructor(
		private readonly n8n: ClockControl,
		private readonly services: ServiceSession[],
	) {}

	/** The case's time now, in epoch milliseconds. */
	now(): number {
		return this.n8n.now();
	}

	/** Sets n8n's and the services' clocks to `ms` (passing nothing); all run on from there. */
	async set(ms: number): Promise<void> {
		await this.n8n.set(ms);
		for (const service of this.services) await service.setClock?.(this.n8n.now());
	}

	/** Moves the clock forward to `ms`; an instant it has passed is refused, naming `at`. */
	async moveTo(ms: number, at: string): Promise<void> {
		const now = this.now();
		if (ms < now)
			throw new Error(
				`${at}: ${new Date(ms).toISOString()} is before the case's time, ${new Date(now).toISOString()}: the clock only moves forward (a Wait or advanceClock moved it there); give a later instant`,
			);
		await this.forwardTo(ms);
	}

	async advance(seconds: number): Promise<void> {
		await this.forwardTo(this.now() + seconds * 1000);
	}

	/** Moves forward to `ms`, every wait due on the way ending at its own instant first. */
	private async forwardTo(ms: number): Promise<void> {
		if (this.timers) await this.timers.passTo(ms);
		else await this.set(ms);
	}
}
