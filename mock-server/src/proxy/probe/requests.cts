/**
 * What the probe sends, and the guard that makes it safe. By the specs none of these requests
 * charges or changes anything, and by default they stay harmless on a service more lenient than
 * the specs, because none of them holds anything that could be created:
 * - reads: pools, and listing walks with several limit, skip and status values (some out of
 *   range, to learn how the service answers those);
 * - a wrong key on each service (401);
 * - lead searches without niche and without city: no service can run a search for no niche in
 *   no city, so none can charge for one;
 * - inbox creation with no body, and with a body that is not JSON: there is no entry to create.
 * The creation checks that need entries (entries without an email address, a batch and a single
 * one) run only when the caller names a pool of the account for them (--creation-checks-pool):
 * a service lenient enough to accept an entry without an address may create one blank inbox there.
 * `assertHarmless` checks every request against those rules just before it is sent (probe.cts):
 * a request that could run a search, or create outside the pool named, throws instead of going out.
 */
import { INBOX_STATUSES } from '../../contract/inboxes.cjs';
import { type Operation, OPERATIONS } from '../divergences/index.cjs';

export interface ProbeRequest {
	/** Which operation of the specs: its method and path. */
	operation: Operation;
	query?: Record<string, string>;
	body?: unknown;
	/** A body sent as it is, with Content-Type application/json: text that is not JSON. */
	rawBody?: string;
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

/** A body that is not JSON: no service can read an entry out of it. */
const NOT_JSON = 'this body is not JSON: lead-inbox probe';

/** Requests no service can carry out: a search of nothing, a creation with no entry in it. */
export function refusedRequests(): ProbeRequest[] {
	return [
		{ operation: 'pools', wrongKey: true, purpose: 'a wrong key (401)' },
		{ operation: 'create', purpose: 'inbox creation without a body (no entry to create)' },
		{
			operation: 'create',
			rawBody: NOT_JSON,
			purpose: 'inbox creation with a body that is not JSON (no entry to create)',
		},
		{ operation: 'create', wrongKey: true, purpose: 'creation with a wrong key (401)' },
		{ operation: 'leads', body: {}, purpose: 'a search without niche and city (400)' },
		{ operation: 'leads', body: {}, wrongKey: true, purpose: 'a search with a wrong key (401)' },
	];
}

/**
 * The creation checks that need entries: entries without an email address, in the pool the caller
 * named for them. By the specs each is refused per entry; a lenient service may make one inbox.
 */
export function creationRequests(poolId: string): ProbeRequest[] {
	return [
		{
			operation: 'create',
			body: [{ poolId }],
			purpose: 'a batch whose entry has no email address (how a batch reports a failed entry)',
		},
		{
			operation: 'create',
			body: { poolId },
			purpose: 'a single entry without an email address (its own status and code)',
		},
	];
}

/** What the report says of the creation checks when no pool was named for them. */
export const CREATION_CHECKS_SKIPPED =
	'Skipped: inbox entries without an email address (how the service refuses an entry, in a batch and alone). They are creation requests, and a service more lenient than the specs could make a blank inbox of one; to run them, name a pool of the account they may land in: --creation-checks-pool POOL_ID.';

export class UnsafeProbeRequest extends Error {}

/** Anything that looks like an email address, anywhere in a value. */
const holdsAddress = (value: unknown): boolean =>
	typeof value === 'string'
		? value.includes('@')
		: typeof value === 'object' && value !== null && Object.values(value).some(holdsAddress);

/**
 * Throws unless the request can neither charge nor create, whatever the service: only in
 * `creationPool`, when the caller named one, may an entry without an address be sent.
 */
export function assertHarmless(request: ProbeRequest, creationPool?: string): void {
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
			if (request.rawBody !== undefined) {
				if (request.body !== undefined || isJson(request.rawBody))
					throw new UnsafeProbeRequest(`${where}: a raw body must be text that is not JSON`);
				return;
			}
			if (request.body === undefined) return;
			if (creationPool === undefined)
				throw new UnsafeProbeRequest(
					`${where}: an entry is a creation request; it is sent only into a pool named with --creation-checks-pool`,
				);
			const entries = Array.isArray(request.body) ? request.body : [request.body];
			if (entries.length === 0)
				throw new UnsafeProbeRequest(`${where}: an empty batch might still make a pool`);
			for (const entry of entries) {
				if (typeof entry !== 'object' || entry === null || Array.isArray(entry))
					throw new UnsafeProbeRequest(`${where}: every entry must be an object`);
				if (holdsAddress(entry))
					throw new UnsafeProbeRequest(`${where}: an entry with an address could create an inbox`);
				if ((entry as Record<string, unknown>).poolId !== creationPool)
					throw new UnsafeProbeRequest(
						`${where}: an entry must name the pool given for the creation checks (${creationPool}): without one it could make a pool, with another land there`,
					);
			}
			return;
		}
		default:
			throw new UnsafeProbeRequest(`${where}: the probe sends no other request`);
	}
}

function isJson(text: string): boolean {
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
}
