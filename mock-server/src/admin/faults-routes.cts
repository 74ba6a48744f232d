/** Admin API: faults armed on storage or routes. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { faultRequest } from '../contract/admin.cjs';
import { failure, success } from '../http/contract.cjs';
import { admin, type AdminRoutesOptions } from './schema.cjs';

export const faultRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, options) => {
	const { faults } = options;
	const api = app.withTypeProvider<ZodTypeProvider>();
	api.get(
		'/__admin/faults',
		{
			schema: admin({
				operationId: 'adminListFaults',
				summary: 'List the faults still armed',
				description: 'Storage faults by target and route faults, each with the uses it has left.',
				response: {
					200: success('{storage: [{target, times}], routes: [...]}'),
				},
			}),
		},
		async () => faults.list(),
	);
	api.post(
		'/__admin/faults',
		{
			schema: admin({
				operationId: 'adminArmFault',
				summary: 'Arm a fault',
				description:
					'A storage fault ({target: "leads.save", times}: the next saves fail, the 500 path) or a route fault ({route, times, status?, body?, delayMs?, retryAfter?, drop?}: the next matching requests answer that status (a 2xx with a body: a wrong answer that looks right), wait, or lose their connection; an injected 429 carries Retry-After and X-RateLimit-* like the real limit).',
				body: faultRequest,
				response: {
					200: success('{armed}'),
					400: failure('The fault is invalid (the message says how).'),
				},
			}),
		},
		async (request) => {
			const input = request.body;
			if (input.target) faults.arm(input.target, input.times);
			else faults.armRoute({ ...input, route: input.route! });
			return { armed: input };
		},
	);
	api.delete(
		'/__admin/faults',
		{
			schema: admin({
				operationId: 'adminClearFaults',
				summary: 'Clear all armed faults',
				description: 'Storage and route faults alike; the next requests get their real answers.',
				response: { 200: success('Cleared') },
			}),
		},
		async () => {
			faults.clear();
			return { cleared: true };
		},
	);
};
