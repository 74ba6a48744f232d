/**
 * What the probe sends, and the guard that makes it safe. By the specs none of these requests
 * charges or changes anything, and they stay harmless on a service more lenient than the specs:
 * - reads: pools, and listing walks with several limit, skip and status values (some out of
 *   range, to learn how the service answers those);
 * - a wrong key on each service (401);
 * - lead searches without niche and without city: no service can run a search for no niche in
 *   no city, so none can charge for one;
 * - inbox entries without an email address, each with a poolId: no inbox can exist without its
 *   address, and an entry with a poolId never creates a pool (rule 2).
 * `assertHarmless` checks every request against those rules just before it is sent (probe.cts):
 * a request that could run a search or create an inbox or a pool throws instead of going out.
 */
import { INBOX_STATUSES } from '../../contract/inboxes.cjs';
import { type Operation, OPERATIONS } from '../divergences/index.cjs';

export interface ProbeRequest {
	/** Which operation of the specs: its method and path. */
	operation: Operation;
	query?: Record<string, string>;
	body?: unknown;
	/** Send a key no service has issued (the 401 probe). */
	wrongKey?: true;
	/** Why this request is sent: printed with --json and in the docs. */
	purpose: string;
}

/** A pool id no service issued, for entries when the account has no pool. */
export const NO_SUCH_POOL = 'lead-inbox-probe-no-such-pool';
export const WRONG_KEY = 'lead-inbox-probe-wrong-key-0000000000';

const list = (query: Record<string, string>, purpose: string): ProbeRequest => ({
	operation: 'list',
	query,
	purpose,
});

/** The reads: a first page, walks of two page sizes, each status, a pool's inboxes, the extremes. */
export function readRequests(): ProbeRequest[] {
	return [
		{ operation: 'pools', purpose: 'the pools and their fields' },
		list({}, 'the first page with the default limit'),
		list({ limit: '1000' }, 'the largest page the spec allows'),
		...INBOX_STATUSES.map((status) => list({ status, limit: '5' }, `only ${status} inboxes`)),
		list({ poolId: NO_SUCH_POOL }, 'a pool that does not exist (404 by the spec)'),
		list({ limit: '0' }, 'a limit below 1 (out of range)'),
		list({ limit: '1001' }, 'a limit above 1000 (out of range)'),
		list({ skip: '-1' }, 'a negative skip (out of range)'),
		list({ limit: 'ten' }, 'a limit that is not a number'),
		list({ status: 'warming' }, 'a status the spec does not list'),
	];
}

/** A walk's next page: skip where the last page ended. */
export const walkPage = (limit: number, skip: number): ProbeRequest =>
	list({ limit: String(limit), skip: String(skip) }, `walking the list ${limit} at a time`);

export const poolPage = (poolId: string): ProbeRequest =>
	list({ poolId, limit: '5' }, "a pool's inboxes");

/**
 * Requests no service can carry out: a search of nothing, entries without an address, in a pool
 * nobody issued (never the account's own: a lenient service might create blank inboxes there).
 */
export function refusedRequests(): ProbeRequest[] {
	const poolId = NO_SUCH_POOL;
	return [
		{ operation: 'pools', wrongKey: true, purpose: 'a wrong key (401)' },
		{
			operation: 'create',
			body: [{ poolId }],
			purpose: 'a batch whose entry has no email address (no inbox can be created)',
		},
		{ operation: 'create', body: { poolId }, purpose: 'a single entry without an email address' },
		{
			operation: 'create',
			body: [{ poolId }],
			wrongKey: true,
			purpose: 'creation with a wrong key (401)',
		},
		{ operation: 'leads', body: {}, purpose: 'a search without niche and city (400)' },
		{ operation: 'leads', body: {}, wrongKey: true, purpose: 'a search with a wrong key (401)' },
	];
}

export class UnsafeProbeRequest extends Error {}

/** Anything that looks like an email address, anywhere in a value. */
const holdsAddress = (value: unknown): boolean =>
	typeof value === 'string'
		? value.includes('@')
		: typeof value === 'object' && value !== null && Object.values(value).some(holdsAddress);

/** Throws unless the request can neither charge nor create, whatever the service. */
export function assertHarmless(request: ProbeRequest): void {
	const where = OPERATIONS[request.operation] ?? String(request.operation);
	switch (request.operation) {
		case 'pools':
		case 'list':
			return;
		case 'leads': {
			const body = request.body as Record<string, unknown> | undefined;
			if (typeof body !== 'object' || body === null || Array.isArray(body))
				throw new UnsafeProbeRequest(
					`${where}: a search body must be an object without niche and city`,
				);
			for (const field of ['niche', 'city'])
				if (body[field] !== undefined)
					throw new UnsafeProbeRequest(`${where}: a search with ${field} could run and charge`);
			return;
		}
		case 'create': {
			const entries = Array.isArray(request.body) ? request.body : [request.body];
			if (entries.length === 0)
				throw new UnsafeProbeRequest(`${where}: an empty batch might still make a pool`);
			for (const entry of entries) {
				if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
					throw new UnsafeProbeRequest(`${where}: every entry must be an object`);
				if (holdsAddress(entry))
					throw new UnsafeProbeRequest(`${where}: an entry with an address could create an inbox`);
				if ((entry as Record<string, unknown>).poolId !== NO_SUCH_POOL)
					throw new UnsafeProbeRequest(
						`${where}: an entry must name the pool nobody issued (${NO_SUCH_POOL}): without one it could make a pool, with a real one land in it`,
					);
			}
			return;
		}
		default:
			throw new UnsafeProbeRequest(`${where}: the probe sends no other request`);
	}
}
