/** Admin API: where the real service behind the proxy differs from the contract. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { success } from '../http/contract.cjs';
import { admin, type AdminRoutesOptions } from './schema.cjs';

export const divergenceRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, options) => {
	const api = app.withTypeProvider<ZodTypeProvider>();
	api.get(
		'/__admin/divergences',
		{
			schema: admin({
				operationId: 'adminListDivergences',
				summary: 'Where the proxied service differs from the contract',
				description:
					"In proxy mode (--proxy-leads, --proxy-inboxes), each answer of the real service is checked against this server's contract: one entry per kind of difference, counted, with one redacted example. class is breaks-spec (the spec says otherwise), open-point (the spec leaves it open and the service chose another answer than decisions.md did for this server; decision names the entry) or beyond-spec (extra fields, statuses or rate-limit headers). Empty without a proxy, and when the upstream answers as this server does.",
				response: {
					200: success(
						'{divergences: [{class, operation, what, expected, seen, decision?, count, example}]}',
					),
				},
			}),
		},
		async () => ({ divergences: options.divergences.list() }),
	);
};
