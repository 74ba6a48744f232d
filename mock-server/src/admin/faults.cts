import type { FAULT_ROUTES, FAULT_TARGETS } from '../contract/admin.cjs';
import { matches, type RequestFacts, type RequestMatch } from './match.cjs';

export type FaultTarget = (typeof FAULT_TARGETS)[number];
export type FaultRoute = (typeof FAULT_ROUTES)[number];

/** Whose requests a fault applies to: anyone's, one account's or one key's. */
export interface FaultScope {
	accountId?: string;
	keyId?: string;
}

/** A storage fault: the next `times` saves of the target (of the scope) fail. */
export interface StorageFault extends FaultScope {
	target: FaultTarget;
	times: number;
}

/** What the next matching requests of a route get instead of (or before) their real answer. */
export interface RouteFault extends FaultScope {
	route: FaultRoute;
	/** Matching requests still to be served this way. */
	times: number;
	status?: number;
	body?: Record<string, unknown>;
	delayMs?: number;
	retryAfter?: number;
	drop?: boolean;
	/** Which requests of the route: query values, a body subset, text in the body. */
	match?: Omit<RequestMatch, 'accountId' | 'keyId'>;
	/** The chance a matching request gets it (1: every one). */
	probability?: number;
}

/**
 * Injected failures for tests: storage faults (the next n saves of a target fail as a storage
 * failure would) and route faults (the next n matching requests of a route answer a given status,
 * wait, or lose their connection). Either may be scoped to an account or a key, so tests running
 * side by side on one server, each with its own account, never see each other's faults.
 */
export class Faults {
	private storage: StorageFault[] = [];
	private routes: RouteFault[] = [];

	constructor(private readonly random: () => number = Math.random) {}

	arm(fault: StorageFault): void {
		this.storage.push({ ...fault });
	}

	armRoute(fault: RouteFault): void {
		this.routes.push({ ...fault });
	}

	/** Clears every fault, or those scoped to one account. */
	clear(accountId?: string): void {
		if (accountId === undefined) {
			this.storage = [];
			this.routes = [];
			return;
		}
		this.storage = this.storage.filter((f) => f.accountId !== accountId);
		this.routes = this.routes.filter((f) => f.accountId !== accountId);
	}

	/** Throws when a fault is armed for the target and the caller, consuming one. */
	check(target: FaultTarget, caller: { accountId: string; keyId: string }): void {
		const fault = this.storage.find(
			(f) => f.target === target && inScope(f, caller.accountId, caller.keyId),
		);
		if (!fault) return;
		if (--fault.times <= 0) this.storage.splice(this.storage.indexOf(fault), 1);
		throw new Error(`injected fault: ${target}`);
	}

	/** Whether any route fault is armed (else requests need not be looked at). */
	armsRoutes(): boolean {
		return this.routes.length > 0;
	}

	/** The fault for this request, if one is armed for it and fires (consuming one use of it). */
	takeRoute(method: string, path: string, request: RequestFacts): RouteFault | undefined {
		const route = `${method} ${path}`;
		const index = this.routes.findIndex(
			(f) =>
				f.route === route &&
				inScope(f, request.accountId, request.keyId) &&
				matches(request, f.match ?? {}),
		);
		if (index < 0) return undefined;
		const fault = this.routes[index];
		if (
			fault.probability !== undefined &&
			fault.probability < 1 &&
			this.random() >= fault.probability
		)
			return undefined;
		if (--fault.times <= 0) this.routes.splice(index, 1);
		return fault;
	}

	/** What is armed, for GET /__admin/faults. */
	list(): { storage: StorageFault[]; routes: RouteFault[] } {
		return {
			storage: this.storage.map((f) => ({ ...f })),
			routes: this.routes.map((f) => ({ ...f })),
		};
	}
}

function inScope(scope: FaultScope, accountId: string | null, keyId: string | null): boolean {
	return (
		(scope.accountId === undefined || scope.accountId === accountId) &&
		(scope.keyId === undefined || scope.keyId === keyId)
	);
}
