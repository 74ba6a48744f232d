/** Liveness for wait-on style CI steps: answers as soon as the server listens, without auth. */
import type { FastifyPluginAsync } from 'fastify';
import { healthResponse } from '../contract/admin-answers.cjs';
import { success } from '../http/contract.cjs';

export const healthRoutes: FastifyPluginAsync = async (app) => {
	app.get(
		'/healthz',
		{
			schema: {
				tags: ['Admin'],
				security: [],
				operationId: 'healthCheck',
				summary: 'Liveness for CI steps that wait on the server (no auth): {"status": "ok"}',
				description:
					'Answers as soon as the server listens, without auth and without touching the database: what a health check or a wait-on step polls.',
				response: { 200: success('The server is up.', healthResponse) },
			},
		},
		async () => ({ status: 'ok' as const }),
	);
};
