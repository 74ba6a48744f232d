import type { FAULT_TARGETS } from '../schemas/admin.cjs';

export type FaultTarget = (typeof FAULT_TARGETS)[number];

/** Injected failures for tests: the next n operations of a target fail as a storage failure would. */
export class Faults {
	private readonly pending = new Map<FaultTarget, number>();

	arm(target: FaultTarget, times: number): void {
		this.pending.set(target, (this.pending.get(target) ?? 0) + times);
	}

	clear(): void {
		this.pending.clear();
	}

	/** Throws when a fault is armed for the target, consuming one. */
	check(target: FaultTarget): void {
		const left = this.pending.get(target) ?? 0;
		if (left <= 0) return;
		this.pending.set(target, left - 1);
		throw new Error(`injected fault: ${target}`);
	}
}
