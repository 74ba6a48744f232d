/**
 * Which service an API request belongs to, where its upstream is, and what may be forwarded: a
 * lead search spends real credits and an inbox batch creates real inboxes, so those two are
 * forwarded only when the operator allowed them. Reads always are.
 */
import { type Operation, OPERATIONS } from './divergences/index.cjs';

export type Service = 'leads' | 'inboxes';

export interface Upstreams {
	/** The real lead search base URL (as the credential's Leads Base URL). */
	leads?: string;
	/** The real inbox base URL, with /api/v1 (as the credential's Inbox Base URL). */
	inboxes?: string;
}

export interface Allowed {
	charges: boolean;
	changes: boolean;
}

const API = '/api/v1';
const LEADS_PATH = `${API}/niche-finder-leads`;

export function serviceOf(path: string): Service | undefined {
	if (path === LEADS_PATH) return 'leads';
	if (/^\/api\/v1\/(pools|inboxes)(\/|$)/.test(path)) return 'inboxes';
	return undefined;
}

/** The operation of the specs a request is, or undefined for any other method and path. */
export function operationOf(method: string, path: string): Operation | undefined {
	const request = `${method.toUpperCase()} ${path.replace(/\/+$/, '')}`;
	return (Object.keys(OPERATIONS) as Operation[]).find((op) => OPERATIONS[op] === request);
}

/**
 * The upstream URL of a request: the lead search base URL is the service's root, the inbox base
 * URL already ends in /api/v1.
 */
export function upstreamUrl(upstreams: Upstreams, service: Service, pathAndQuery: string): string {
	if (service === 'leads') return `${upstreams.leads}${pathAndQuery}`;
	return `${upstreams.inboxes}${pathAndQuery.slice(API.length)}`;
}

/** Why a request must not be forwarded (the option that would allow it), or undefined. */
export function refusal(method: string, path: string, allowed: Allowed): string | undefined {
	if (method === 'POST' && path === LEADS_PATH && !allowed.charges)
		return 'This reference server forwards lead searches to the real service only with --proxy-allow-charges (MOCK_PROXY_ALLOW_CHARGES=on): each one spends real credits. Nothing was forwarded.';
	if (method === 'POST' && path === `${API}/inboxes` && !allowed.changes)
		return 'This reference server forwards inbox creation to the real service only with --proxy-allow-changes (MOCK_PROXY_ALLOW_CHANGES=on): it creates real inboxes. Nothing was forwarded.';
	return undefined;
}
