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
		/**
		 * The request as it came in, for the journal: the server clock, a monotonic start, and the
		 * query as sent (validation replaces `request.query` with typed values).
		 */
		arrival: { at: number; start: number; query: Record<string, unknown> } | null;
	}
}

export function decorateRequests(app: FastifyInstance): void {
	app.decorateRequest('principal', null);
	app.decorateRequest('journalSummary', null);
	app.decorateRequest('arrival', null);
}
