import type { FastifyRequest } from 'fastify';
import type { Accounts, Permission, Principal } from '../accounts/accounts.cjs';
import { ApiError } from './errors.cjs';

/** The API key id of each authenticated request (for the request journal; never the key). */
export const keyIdOf = new WeakMap<FastifyRequest, string>();

const unauthorized = (message: string) =>
	new ApiError(401, message, undefined, undefined, { 'WWW-Authenticate': 'Bearer' });

/**
 * The presented bearer token; a missing or malformed header is a 401 (never a 400). `what` names
 * the token in the message: an API key, or the admin token on /__admin.
 */
export function bearerToken(request: FastifyRequest, what = 'API key'): string {
	const header = request.headers.authorization;
	if (!header)
		throw unauthorized(`Missing ${what}: send the header 'Authorization: Bearer <${what}>'.`);
	const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(header);
	if (!match) throw unauthorized(`Malformed Authorization header: it must be 'Bearer <${what}>'.`);
	return match[1];
}

/** Authenticates an API request: valid key, active account, and (for inbox routes) the permission. */
export function authenticate(
	accounts: Accounts,
	request: FastifyRequest,
	permission?: Permission,
): Principal {
	const principal = accounts.authenticate(bearerToken(request));
	if (!principal)
		throw unauthorized('Invalid API key: check the key, or ask the operator for a new one.');
	keyIdOf.set(request, principal.keyId);
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
	return principal;
}
