/** Admin API: faults armed on storage or routes, for anyone or one account or key. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
	clearedResponse,
	faultArmedResponse,
	faultClearQuery,
	faultListResponse,
	faultRequest,
} from '../contract/admin.cjs';
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
				description:
					'Storage faults by target and route faults, each with the uses it has left and its scope.',
				response: { 200: success('The armed faults.', faultListResponse) },
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
					'A storage fault ({target: "leads.save", times}: the next saves fail, the 500 path) or a route fault ({route, times, status?, body?, delayMs?, retryAfter?, drop?}: the next matching requests answer that status (a 2xx with a body: a wrong answer that looks right), wait, or lose their connection; an injected 429 carries Retry-After and X-RateLimit-* like the real limit). accountId or keyId scope either kind to one account or key, so tests sharing one server each fault only their own requests; a route fault may also match query values or a body subset (one request of a walk: match.query {"skip": "1000"}) and fire with a probability. A faulted request is journaled with its account, key and redacted body.',
				body: faultRequest,
				response: {
					200: success('The fault as armed.', faultArmedResponse),
					400: failure('The fault is invalid (the message says how).'),
				},
			}),
		},
		async (request) => {
			const { target, route, accountId, keyId, times, ...rest } = request.body;
			const scope = {
				...(accountId ? { accountId } : {}),
				...(keyId ? { keyId } : {}),
			};
			if (target) {
				const fault = { target, times, ...scope };
				faults.arm(fault);
				return { armed: fault };
			}
			const fault = { route: route!, times, ...scope, ...rest };
			faults.armRoute(fault);
			return { armed: fault };
		},
	);
	api.delete(
		'/__admin/faults',
		{
			schema: admin({
				operationId: 'adminClearFaults',
				summary: 'Clear armed faults',
				description:
					'Storage and route faults alike, or only those scoped to ?accountId= (a parallel test clears its own); the next requests get their real answers.',
				querystring: faultClearQuery,
				response: {
					200: success('Cleared', clearedResponse),
					400: failure('A query parameter is invalid (the message names it).'),
				},
			}),
		},
		async (request) => {
			faults.clear(request.query.accountId);
			return { cleared: true as const };
		},
	);
};
