import type { FastifyInstance, FastifyRequest } from 'fastify';
import { bearerToken } from '../core/auth.cjs';
import type { Context } from '../core/context.cjs';
import { ApiError } from '../core/errors.cjs';
import { body, query, resource } from '../core/http.cjs';
import { constantTimeEqual } from '../core/secrets.cjs';
import { type Seed, seedSchema } from './seed.cjs';
import {
	clockRequest,
	createAccountRequest,
	createKeyRequest,
	faultRequest,
	journalQuery,
	patchAccountRequest,
} from '../schemas/admin.cjs';

/**
 * The admin API that tests, CI pipelines and demos drive (docs/api.md). Every call needs
 * `Authorization: Bearer <admin token>`.
 */
export function registerAdminRoutes(
	app: FastifyInstance,
	ctx: Context,
	adminToken: string,
	hooks: { reset: () => Promise<void>; seed: (seed: Seed) => Promise<unknown> },
): void {
	const guard = (request: FastifyRequest) => {
		if (!constantTimeEqual(bearerToken(request, 'admin token'), adminToken)) {
			throw new ApiError(
				401,
				'Invalid admin token: use the token the server printed at start (or --admin-token).',
				undefined,
				undefined,
				{
					'WWW-Authenticate': 'Bearer',
				},
			);
		}
	};
	const id = (request: FastifyRequest) => (request.params as { id: string }).id;

	resource(app, '/__admin/accounts', {
		GET: async (request) => {
			guard(request);
			return { accounts: ctx.accounts.list() };
		},
		POST: async (request, reply) => {
			guard(request);
			const input = body(request, createAccountRequest, { optional: true });
			return reply.code(201).send(ctx.accounts.create(input));
		},
	});
	resource(app, '/__admin/accounts/:id', {
		GET: async (request) => {
			guard(request);
			return ctx.accounts.get(id(request));
		},
		PATCH: async (request) => {
			guard(request);
			return ctx.accounts.update(id(request), body(request, patchAccountRequest));
		},
	});
	resource(app, '/__admin/accounts/:id/keys', {
		POST: async (request, reply) => {
			guard(request);
			const input = body(request, createKeyRequest, { optional: true });
			return reply.code(201).send({ apiKey: ctx.accounts.addKey(id(request), input.permissions) });
		},
	});
	resource(app, '/__admin/accounts/:id/contacts', {
		GET: async (request) => {
			guard(request);
			return { contacts: ctx.accounts.contacts(id(request)) };
		},
	});
	resource(app, '/__admin/faults', {
		GET: async (request) => {
			guard(request);
			return ctx.faults.list();
		},
		POST: async (request) => {
			guard(request);
			const input = body(request, faultRequest);
			if (input.target) ctx.faults.arm(input.target, input.times);
			else ctx.faults.armRoute({ ...input, route: input.route! });
			return { armed: input };
		},
		DELETE: async (request) => {
			guard(request);
			ctx.faults.clear();
			return { cleared: true };
		},
	});
	resource(app, '/__admin/requests', {
		GET: async (request) => {
			guard(request);
			return { requests: ctx.journal.list(query(request, journalQuery)) };
		},
		DELETE: async (request) => {
			guard(request);
			ctx.journal.clear();
			return { cleared: true };
		},
	});
	resource(app, '/__admin/clock', {
		POST: async (request) => {
			guard(request);
			ctx.clock.advance(body(request, clockRequest).advanceSeconds);
			return { now: ctx.clock.nowIso(), offsetSeconds: ctx.clock.offsetSeconds };
		},
	});
	resource(app, '/__admin/seed', {
		POST: async (request) => {
			guard(request);
			return hooks.seed(body(request, seedSchema));
		},
	});
	resource(app, '/__admin/reset', {
		POST: async (request) => {
			guard(request);
			await hooks.reset();
			return { reset: true };
		},
	});
}
