/** Admin API: the clock, seeds and a reset of the whole state. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clockResponse, resetResponse, seedResponse } from '../contract/admin-answers.cjs';
import { clockRequest } from '../contract/admin.cjs';
import { seedSchema } from '../contract/seed.cjs';
import { failure, success } from '../http/contract.cjs';
import { admin, type AdminRoutesOptions } from './schema.cjs';

export const stateRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, options) => {
	const { clock } = options;
	const api = app.withTypeProvider<ZodTypeProvider>();
	api.get(
		'/__admin/clock',
		{
			schema: admin({
				operationId: 'adminGetClock',
				summary: "Read the server's clock",
				description:
					"The server's time (ISO 8601 UTC), how far it was moved ahead of real time (offsetSeconds) and whether it is frozen.",
				response: { 200: success('The clock.', clockResponse) },
			}),
		},
		async () => ({ now: clock.nowIso(), offsetSeconds: clock.offsetSeconds, frozen: clock.frozen }),
	);
	api.post(
		'/__admin/clock',
		{
			schema: admin({
				operationId: 'adminAdvanceClock',
				summary: "Set the server's clock, move it forward, or freeze it",
				description:
					'For what depends on time: the rolling hourly inbox quota, the scan cache, generated createdAt values. Frozen, time stands still until moved or thawed: "the hourly window ends in 2 s" stays true however long a test takes to act on it. A reset thaws it.',
				body: clockRequest,
				response: {
					200: success('The clock after the change.', clockResponse),
				},
			}),
		},
		async (request) => {
			if (request.body.frozen !== undefined) clock.setFrozen(request.body.frozen);
			if (request.body.now !== undefined) clock.set(Date.parse(request.body.now));
			clock.advance(request.body.advanceSeconds ?? 0);
			return { now: clock.nowIso(), offsetSeconds: clock.offsetSeconds, frozen: clock.frozen };
		},
	);
	api.post(
		'/__admin/seed',
		{
			schema: admin({
				operationId: 'adminApplySeed',
				summary: 'Apply a seed',
				description:
					'The body of a --seed file: accounts with fixed API keys, credits, active flag, permissions, pools, inboxes (with status) and contacts. Creates what is missing, leaves what exists; invalid entries are a 400 naming their path.',
				body: seedSchema,
				response: {
					200: success('Each account of the seed, in its order.', seedResponse),
					400: failure('The seed is invalid.', {
						error:
							'Invalid request body: accounts.0.apiKey must be 16 to 200 letters, digits, "_" or "-"',
					}),
				},
			}),
		},
		async (request) => options.seed(request.body),
	);
	api.post(
		'/__admin/reset',
		{
			schema: admin({
				operationId: 'adminReset',
				summary: 'Reset to an empty state',
				description:
					'Every account, pool, inbox and contact removed; the dev account and the seed file applied again; clock, faults and journal reset.',
				response: { 200: success('Reset', resetResponse) },
			}),
		},
		async () => {
			await options.reset();
			return { reset: true as const };
		},
	);
};
