/** Bearer tokens: the API keys of the two services and the admin token of /__admin. */
import type { FastifyRequest, preValidationHookHandler } from 'fastify';
import type { Permission } from '../contract/admin.cjs';
import { constantTimeEqual } from '../core/secrets.cjs';
import type { Accounts, Principal } from '../store/accounts.cjs';
import { ApiError } from './errors.cjs';

const unauthorized = (message: string) =>
	new ApiError(401, message, { headers: { 'WWW-Authenticate': 'Bearer' } });

const BEARER = /^Bearer[ ]+([^\s]+)\s*$/i;

/**
 * The principal of the request's API key, refusing nothing (the route's own hook does): for
 * what must know the caller before the route runs, such as faults scoped to an account.
 */
export function identifyCaller(accounts: Accounts, request: FastifyRequest): Principal | undefined {
	const token = BEARER.exec(request.headers.authorization ?? '')?.[1];
	return token ? accounts.authenticate(token) : undefined;
}

/**
 * The presented bearer token; a missing or malformed header is a 401 (never a 400). `what` names
 * the token in the message: an API key, or the admin token on /__admin.
 */
export function bearerToken(request: FastifyRequest, what = 'API key'): string {
	const header = request.headers.authorization;
	if (!header)
		throw unauthorized(`Missing ${what}: send the header 'Authorization: Bearer <${what}>'.`);
	const match = BEARER.exec(header);
	if (!match) throw unauthorized(`Malformed Authorization header: it must be 'Bearer <${what}>'.`);
	return match[1];
}

/**
 * A hook that authenticates an API request before its input is validated (401 before 400): a valid
 * key, an active account and (for inbox routes) the permission. Sets `request.principal`.
 */
export function requireApiKey(
	accounts: Accounts,
	permission?: Permission,
): preValidationHookHandler {
	return (request, _reply, done) => {
		const principal = accounts.authenticate(bearerToken(request));
		if (!principal)
			throw unauthorized('Invalid API key: check the key, or ask the operator for a new one.');
		request.principal = principal;
		if (!principal.active)
			throw unauthorized(
				'The account of this API key has no active subscription; reactivate it to use the API.',
			);
		if (permission && !principal.permissions.includes(permission)) {
			throw new ApiError(
				403,
				`This API key lacks the '${permission}' permission; use a key that has it.`,
			);
		}
		done();
	};
}

/** A hook that lets a request through only with the admin token. */
export function requireAdminToken(adminToken: string): preValidationHookHandler {
	return (request, _reply, done) => {
		if (!constantTimeEqual(bearerToken(request, 'admin token'), adminToken))
			throw unauthorized(
				'Invalid admin token: use the token the server printed at start (or --admin-token).',
			);
		done();
	};
}

/** The principal a route's requireApiKey hook set. */
export function principalOf(request: FastifyRequest): Principal {
	if (!request.principal) throw new Error(`${request.url}: the route has no requireApiKey hook`);
	return request.principal;
}
