/** Liveness for wait-on style CI steps: answers as soon as the server listens, without auth. */
import type { FastifyPluginAsync } from 'fastify';
import { success } from '../http/contract.cjs';

export const healthRoutes: FastifyPluginAsync = async (app) => {
	app.get(
		'/healthz',
		{
			schema: {
				tags: ['Admin'],
				security: [],
				summary: 'Liveness for CI steps that wait on the server (no auth): {"status": "ok"}',
				response: { 200: success('{status: "ok"}') },
			},
		},
		async () => ({ status: 'ok' }),
	);
};
