import type { FastifyInstance, FastifyRequest } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { keyIdOf } from '../core/auth.cjs';
import type { Clock } from '../core/clock.cjs';
import { HOURLY_LIMIT } from '../inboxes/rate-limit.cjs';
import type { Faults, RouteFault } from './faults.cjs';
import { type RequestJournal, summarize } from './journal.cjs';

const isApi = (request: FastifyRequest) => request.url.startsWith('/api/');
const pathOf = (request: FastifyRequest) => request.url.split('?')[0];

/**
 * What the admin API can see and change of the API traffic: route faults applied before a request
 * reaches its handler, and every API request written to the journal once answered.
 */
export function registerTrafficHooks(
	app: FastifyInstance,
	deps: { faults: Faults; journal: RequestJournal; clock: Clock },
): void {
	const started = new WeakMap<FastifyRequest, { at: number; time: string }>();
	const summaries = new WeakMap<FastifyRequest, Record<string, unknown>>();
	const record = (
		request: FastifyRequest,
		status: number | null,
		response: Record<string, unknown>,
	) => {
		const start = started.get(request);
		deps.journal.record({
			time: start?.time ?? deps.clock.nowIso(),
			method: request.method,
			path: pathOf(request),
			query: { ...(request.query as object) },
			keyId: keyIdOf.get(request) ?? null,
			status,
			durationMs: start ? Math.round(performance.now() - start.at) : 0,
			body: request.body,
			response,
		});
	};

	app.addHook('onRequest', async (request) => {
		if (isApi(request)) started.set(request, { at: performance.now(), time: deps.clock.nowIso() });
	});

	// Faults apply once the body is read (an injected 429 counts its entries), before the handler.
	app.addHook('preHandler', async (request, reply) => {
		if (!isApi(request)) return;
		const route = request.routeOptions.url;
		const fault = route ? deps.faults.takeRoute(request.method, route) : undefined;
		if (!fault) return;
		if (fault.delayMs) await sleep(fault.delayMs);
		if (fault.drop) {
			record(request, null, { dropped: true, fault: true });
			reply.hijack();
			request.raw.socket.destroy();
			return;
		}
		if (fault.status === undefined) return; // a delay only: the real answer follows
		const { headers, body } = injected(fault, request, deps.clock);
		return reply
			.code(fault.status)
			.headers(headers)
			.type('application/json; charset=utf-8')
			.send(body);
	});

	app.addHook('onSend', async (request, reply, payload) => {
		if (isApi(request)) summaries.set(request, summarize(reply.statusCode, payload));
		return payload;
	});

	app.addHook('onResponse', async (request, reply) => {
		if (isApi(request)) record(request, reply.statusCode, summaries.get(request) ?? {});
	});
}

/** The answer of a route fault; an injected 429 looks to a client exactly like the real limit. */
function injected(fault: RouteFault, request: FastifyRequest, clock: Clock) {
	if (fault.status === 429) {
		const retryAfter = fault.retryAfter ?? 60;
		const wanted = Array.isArray(request.body) ? request.body.length : 1;
		return {
			headers: {
				'Retry-After': String(retryAfter),
				'X-RateLimit-Limit': String(HOURLY_LIMIT),
				'X-RateLimit-Remaining': '0',
				'X-RateLimit-Reset': String(Math.ceil(clock.now() / 1000) + retryAfter),
			},
			body: fault.body ?? {
				error: `Hourly limit reached: this request would create ${wanted} inbox(es) but only 0 of ${HOURLY_LIMIT} remain for this API key in the current hour; retry in ${retryAfter} s. Nothing was created.`,
			},
		};
	}
	return {
		headers: {},
		body: fault.body ?? {
			error: `Injected fault: ${fault.route} answered ${fault.status} (armed with POST /__admin/faults).`,
		},
	};
}
