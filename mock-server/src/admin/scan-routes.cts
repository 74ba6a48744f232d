/** Admin API: one business website scanned with everything found, and where (the dashboard's "where?"). */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { scanResponse } from '../contract/admin-answers.cjs';
import { scanQuery } from '../contract/admin.cjs';
import { failure, success } from '../http/contract.cjs';
import { admin, type AdminRoutesOptions } from './schema.cjs';

export const scanRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, options) => {
	const api = app.withTypeProvider<ZodTypeProvider>();
	api.get(
		'/__admin/scan',
		{
			schema: admin({
				operationId: 'adminScanWebsite',
				summary: 'Scan one website of the synthetic data and say where each code was found',
				description:
					'The scan lead searches run, with everything it found: the three flags, the ids, each tracking code with the page or tag-manager container it was in (findings: kind, id, where, evidence) and the containers the page loaded. Only websites of the synthetic data (.test hosts): it reads, changes nothing, and is not cached.',
				querystring: scanQuery,
				response: {
					200: success('The scan and everything it found.', scanResponse),
					400: failure('url is missing, not http(s), or not a .test website.'),
				},
			}),
		},
		async (request) => options.explainScan(request.query.url),
	);
};
