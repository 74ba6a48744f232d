/**
 * What one request carries between the hooks and handlers that serve it, as Fastify request
 * decorations (declared here once, so every layer sees the same fields).
 */
import type { FastifyInstance } from 'fastify';
import type { Principal } from '../store/accounts.cjs';

declare module 'fastify' {
	interface FastifyRequest {
		/** Who the API key of this request is, once authenticated. */
		principal: Principal | null;
		/** What the request journal keeps of an answer sent already serialised (a cached page). */
		journalSummary: Record<string, unknown> | null;
		/** When the request came in: the server clock (for the journal) and a monotonic start. */
		receivedAt: { at: number; start: number } | null;
	}
}

export function decorateRequests(app: FastifyInstance): void {
	app.decorateRequest('principal', null);
	app.decorateRequest('journalSummary', null);
	app.decorateRequest('receivedAt', null);
}
