import type { FastifyInstance } from 'fastify';
import { authenticate } from '../core/auth.cjs';
import type { Context } from '../core/context.cjs';
import { body, resource } from '../core/http.cjs';
import { leadSearchRequest } from '../schemas/leads.cjs';
import { Cancelled, type SearchDeps, searchLeads } from './search.cjs';

/** HTTP edge of the lead search service. A client that disconnects cancels the search. */
export function registerLeadRoutes(app: FastifyInstance, ctx: Context, deps: SearchDeps): void {
	resource(app, '/api/v1/niche-finder-leads', {
		POST: async (request, reply) => {
			const principal = authenticate(ctx.accounts, request);
			const input = body(request, leadSearchRequest);
			const controller = new AbortController();
			const onClose = () => {
				if (!reply.raw.writableFinished) controller.abort();
			};
			reply.raw.on('close', onClose);
			try {
				return await searchLeads(deps, principal, input, controller.signal);
			} catch (error) {
				if (error instanceof Cancelled) {
					ctx.logger.info('lead search cancelled by the client; nothing charged', {
						id: request.id,
					});
					return reply;
				}
				throw error;
			} finally {
				reply.raw.off('close', onClose);
			}
		},
	});
}
