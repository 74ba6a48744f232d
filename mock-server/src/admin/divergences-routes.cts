/** Admin API: where the real service behind the proxy differs from the contract. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { divergencesResponse } from '../contract/admin-answers.cjs';
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
					"In proxy mode (--proxy-leads, --proxy-inboxes), each answer of the real service is checked against the specs, beside the request that asked for it (pages against skip and limit, results against the entries sent, contacts against count and the filters): one entry per kind of difference, counted, with the first redacted example. class is breaks-spec (the spec's words say otherwise), open-point (the spec leaves it open and the service chose another answer than this server; decision quotes this server's rule and links its section of docs/api.md) or beyond-spec (neither says). nodes says what the n8n nodes do with it: handled, notice (handled, and said in a hint or an item field) or breaks (and what). Entries with first: true (inboxes created under an error status) come first. Empty without a proxy, and when the upstream answers as this server does.",
				response: {
					200: success(
						'The report: exchanges seen, counts by class, and each divergence (class, kind, operation, what, seen, spec, decision?, nodes, first?, count, example).',
						divergencesResponse,
					),
				},
			}),
		},
		async () => options.divergences.toJSON(),
	);
};
