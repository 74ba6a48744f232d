import type { FastifyInstance } from 'fastify';
import { journalSummary } from '../admin/traffic.cjs';
import { authenticate } from '../core/auth.cjs';
import type { Context } from '../core/context.cjs';
import { ApiError } from '../core/errors.cjs';
import { query, resource, sendError } from '../core/http.cjs';
import { createInboxesQuery, listInboxesQuery } from '../schemas/inboxes.cjs';
import { type CreationDeps, createInboxes, STATUS_OF_CODE } from './create.cjs';

/** HTTP edge of the inbox management service: auth, parse, call the rules, shape the answer. */
export function registerInboxRoutes(app: FastifyInstance, ctx: Context, deps: CreationDeps): void {
	resource(app, '/api/v1/pools', {
		GET: async (request) => {
			const principal = authenticate(ctx.accounts, request, 'pools:read');
			return { pools: deps.store.listPools(principal.accountId) };
		},
	});

	resource(app, '/api/v1/inboxes', {
		GET: async (request, reply) => {
			const principal = authenticate(ctx.accounts, request, 'inboxes:read');
			const q = query(request, listInboxesQuery);
			if (q.poolId && !deps.store.poolExists(principal.accountId, q.poolId)) {
				throw new ApiError(404, `Pool '${q.poolId}' not found; list pools with GET /pools.`);
			}
			const page = deps.store.inboxPage(principal.accountId, q, q.limit ?? 100, q.skip ?? 0);
			journalSummary(request, page.summary);
			return reply.type('application/json; charset=utf-8').send(page.json);
		},
		POST: async (request, reply) => {
			const principal = authenticate(ctx.accounts, request, 'inboxes:write');
			if (request.body === undefined)
				throw new ApiError(
					400,
					'The request needs a JSON body: one inbox entry or an array of up to 100.',
				);
			const { poolName } = query(request, createInboxesQuery);
			const outcome = await createInboxes(deps, principal, request.body, { poolName });
			reply.headers(outcome.rateHeaders);
			const only = outcome.response.results[0];
			if (outcome.single && !only.success) {
				return sendError(
					reply,
					new ApiError(STATUS_OF_CODE[only.code!], only.error!, only.details, only.code),
				);
			}
			return outcome.response;
		},
	});
}
