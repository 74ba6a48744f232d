/**
 * `expect.service`: the account and the request journal after a case, against what the case
 * expects. Each failure says where it is and the nearest request recorded to what was asked.
 */
import {
	countHolds,
	describeCount,
	shown,
	type WorkflowTestFailure as Failure,
} from '../../../n8n-testkit/src/index.cjs';
import type { MockServer } from '../api/start.cjs';
import type { ServiceExpectation } from './schema.cjs';

/** What the service reports after a case. */
export interface ServiceView {
	creditsCharged: number;
	credits: number;
	contactsAdded: number;
	contacts: number;
	pools: { name: string; inboxes: Record<string, number> }[];
	/** Requests matching a filter (the admin API's), and a description of the nearest one. */
	requests(filter: Record<string, unknown>): Promise<{ ids: number[]; nearest: string }>;
	/** Every request the case's runs made: id and a one-line description. */
	allRequests(): Promise<{ id: number; line: string }[]>;
}

export async function checkService(
	e: ServiceExpectation,
	service: ServiceView,
	at: string,
): Promise<Failure[]> {
	const failures: Failure[] = [];
	const number = (name: keyof ServiceView & keyof ServiceExpectation, what: string) => {
		const expected = e[name] as Parameters<typeof countHolds>[0] | undefined;
		const actual = service[name] as number;
		if (expected !== undefined && !countHolds(expected, actual))
			failures.push({
				at: `${at}.${name}`,
				message: `expected ${describeCount(expected)} ${what}, got ${actual}`,
			});
	};
	number('creditsCharged', 'credit(s) charged');
	number('credits', 'credit(s) left');
	number('contactsAdded', 'contact(s) added');
	number('contacts', 'contact(s)');
	if (e.pools !== undefined && !countHolds(e.pools, service.pools.length))
		failures.push({
			at: `${at}.pools`,
			message: `expected ${describeCount(e.pools)} pool(s), got ${service.pools.length} (${service.pools.map((p) => p.name).join(', ') || 'none'})`,
		});
	if (e.inboxes !== undefined) {
		const spec =
			typeof e.inboxes === 'object' && !('atLeast' in e.inboxes || 'atMost' in e.inboxes)
				? e.inboxes
				: { count: e.inboxes };
		const pools =
			'pool' in spec && spec.pool !== undefined
				? service.pools.filter((p) => p.name === spec.pool)
				: service.pools;
		const byStatus: Record<string, number> = {};
		for (const pool of pools)
			for (const [status, n] of Object.entries(pool.inboxes))
				byStatus[status] = (byStatus[status] ?? 0) + n;
		const total = Object.values(byStatus).reduce((a, b) => a + b, 0);
		const scope = 'pool' in spec && spec.pool ? ` in pool "${spec.pool}"` : '';
		if ('count' in spec && spec.count !== undefined && !countHolds(spec.count, total))
			failures.push({
				at: `${at}.inboxes`,
				message: `expected ${describeCount(spec.count)} inbox(es)${scope}, got ${total} (${shown(byStatus)})`,
			});
		for (const [status, expected] of Object.entries(('status' in spec && spec.status) || {}))
			if (expected !== undefined && !countHolds(expected, byStatus[status] ?? 0))
				failures.push({
					at: `${at}.inboxes.status.${status}`,
					message: `expected ${describeCount(expected)} ${status} inbox(es)${scope}, got ${byStatus[status] ?? 0} (${shown(byStatus)})`,
				});
	}
	const matched = new Set<number>();
	for (const [i, request] of (e.requests ?? []).entries()) {
		const { times, ...filter } = request;
		const expected = times ?? { atLeast: 1 };
		const { ids, nearest } = await service.requests(filter);
		ids.forEach((id) => matched.add(id));
		if (!countHolds(expected, ids.length))
			failures.push({
				at: `${at}.requests.${i}`,
				message: `Expected ${describeCount(expected)} request(s) matching ${JSON.stringify(filter)}, but ${ids.length} matched. The nearest recorded request: ${nearest}`,
			});
	}
	if (e.nothingElse) {
		const others = (await service.allRequests()).filter((r) => !matched.has(r.id));
		if (others.length)
			failures.push({
				at: `${at}.nothingElse`,
				message: `expected no request but those listed in requests; ${others.length} other(s) came, the first: ${others[0].line}`,
			});
	}
	return failures;
}

/** The account after the case, next to the account as it was before the first run. */
export async function serviceView(
	server: MockServer,
	accountId: string,
	before: { credits: number; contactCount: number },
): Promise<ServiceView> {
	const { admin } = server;
	const after = await admin.accounts.get(accountId);
	const pools = await admin.accounts.pools(accountId);
	return {
		creditsCharged: Math.max(0, before.credits - after.credits),
		credits: after.credits,
		contactsAdded: after.contactCount - before.contactCount,
		contacts: after.contactCount,
		pools: pools.map((p) => ({ name: p.name, inboxes: p.inboxes })),
		requests: async (filter) => {
			const matching = await admin.requests.list(filter as never);
			const near =
				(
					await admin.requests.list({
						method: filter.method as string | undefined,
						path: filter.path as string | undefined,
						limit: 1,
					})
				)[0] ?? (await admin.requests.list({ limit: 1 }))[0];
			return {
				ids: matching.map((r) => r.id),
				nearest: near ? requestLine(near) : 'none: the workflow made no request',
			};
		},
		allRequests: async () =>
			(await admin.requests.list()).map((r) => ({ id: r.id, line: requestLine(r) })),
	};
}

/** A request the service got, as failures and reports show it. */
export function requestLine(r: {
	method: string;
	path: string;
	query: unknown;
	status: number | null;
	body?: unknown;
}): string {
	return `${r.method} ${r.path} ${JSON.stringify(r.query)} -> ${r.status ?? 'dropped'} (body ${JSON.stringify(r.body) ?? 'not kept'})`;
}
