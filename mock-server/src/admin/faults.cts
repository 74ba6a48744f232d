import type { FAULT_ROUTES, FAULT_TARGETS } from '../contract/admin.cjs';

export type FaultTarget = (typeof FAULT_TARGETS)[number];
export type FaultRoute = (typeof FAULT_ROUTES)[number];

/** What the next matching requests of a route get instead of (or before) their real answer. */
export interface RouteFault {
	route: FaultRoute;
	/** Matching requests still to be served this way. */
	times: number;
	status?: number;
	body?: Record<string, unknown>;
	delayMs?: number;
	retryAfter?: number;
	drop?: boolean;
}

/**
 * Injected failures for tests: storage faults (the next n saves of a target fail as a storage
 * failure would) and route faults (the next n requests of a route answer a given status, wait, or
 * lose their connection).
 */
export class Faults {
	private readonly pending = new Map<FaultTarget, number>();
	private routes: RouteFault[] = [];

	arm(target: FaultTarget, times: number): void {
		this.pending.set(target, (this.pending.get(target) ?? 0) + times);
	}

	armRoute(fault: RouteFault): void {
		this.routes.push({ ...fault });
	}

	clear(): void {
		this.pending.clear();
		this.routes = [];
	}

	/** Throws when a fault is armed for the target, consuming one. */
	check(target: FaultTarget): void {
		const left = this.pending.get(target) ?? 0;
		if (left <= 0) return;
		this.pending.set(target, left - 1);
		throw new Error(`injected fault: ${target}`);
	}

	/** The fault for this request, if one is armed for its route (consuming one use of it). */
	takeRoute(method: string, path: string): RouteFault | undefined {
		const route = `${method} ${path}`;
		const index = this.routes.findIndex((f) => f.route === route);
		if (index < 0) return undefined;
		const fault = this.routes[index];
		if (--fault.times <= 0) this.routes.splice(index, 1);
		return fault;
	}

	/** What is armed, for GET /__admin/faults. */
	list(): { storage: { target: FaultTarget; times: number }[]; routes: RouteFault[] } {
		return {
			storage: [...this.pending]
				.filter(([, times]) => times > 0)
				.map(([target, times]) => ({ target, times })),
			routes: this.routes.map((f) => ({ ...f })),
		};
	}
}
