import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../core/clock.cjs';
import { hourlyLimitReached } from '../http/rate-limit.cjs';
import type { Principal } from '../store/accounts.cjs';
import type { Faults, RouteFault } from './faults.cjs';
import { type RequestJournal, summarize, summarizeSerialized } from './journal.cjs';

const isApi = (request: FastifyRequest) => request.url.startsWith('/api/');
const pathOf = (request: FastifyRequest) => request.url.split('?')[0];

/**
 * What the admin API can see and change of the API traffic: route faults applied before a request
 * reaches its handler, and every API request written to the journal once answered.
 */
export function registerTrafficHooks(
	app: FastifyInstance,
	deps: {
		faults: Faults;
		journal: RequestJournal;
		clock: Clock;
		/** The key's principal, without refusing anything (the route's own hook does that). */
		identify: (request: FastifyRequest) => Principal | undefined;
	},
): void {
	const record = (
		request: FastifyRequest,
		status: number | null,
		response: Record<string, unknown>,
	) => {
		const start = request.arrival;
		deps.journal.record({
			at: start?.at ?? deps.clock.now(),
			method: request.method,
			path: pathOf(request),
			query: start?.query ?? { ...(request.query as object) },
			accountId: request.principal?.accountId ?? null,
			keyId: request.principal?.keyId ?? null,
			status,
			durationMs: start ? Math.round(performance.now() - start.start) : 0,
			body: request.body,
			bodyBytes: Number(request.headers['content-length'] ?? 0) || 0,
			response,
		});
	};

	// The hooks are callback-style: they run on every request, and most have nothing to await.
	app.addHook('onRequest', (request, _reply, done) => {
		if (isApi(request))
			request.arrival = {
				at: deps.clock.now(),
				start: performance.now(),
				query: { ...(request.query as object) },
			};
		done();
	});

	// Faults apply once the body is read (an injected 429 counts its entries), before the route's
	// own hooks (authentication) and validation.
	app.addHook('preValidation', (request, reply, done) => {
		const route = isApi(request) ? request.routeOptions.url : undefined;
		if (!route || !deps.faults.armsRoutes()) return done();
		// The caller is known before the fault applies: a fault may be scoped to it, and a faulted
		// request is journaled with its account, key and body like any other.
		request.principal ??= deps.identify(request) ?? null;
		const fault = deps.faults.takeRoute(request.method, route, {
			accountId: request.principal?.accountId ?? null,
			keyId: request.principal?.keyId ?? null,
			query: (request.arrival?.query ?? request.query ?? {}) as Record<string, unknown>,
			body: request.body,
		});
		if (!fault) return done();
		void (async () => {
			if (fault.delayMs) await sleep(fault.delayMs);
			if (fault.drop) {
				record(request, null, { dropped: true, fault: true });
				reply.hijack();
				request.raw.socket.destroy();
				return;
			}
			if (fault.status === undefined) return done(); // a delay only: the real answer follows
			const { headers, body } = injected(fault, request, deps.clock);
			reply.code(fault.status).headers(headers).type('application/json; charset=utf-8').send(body);
		})().catch(done);
	});

	// Summarised from the answer object before it is serialised; never parsed back from JSON.
	app.addHook('preSerialization', (request, reply, payload, done) => {
		if (isApi(request) && !request.journalSummary)
			request.journalSummary = summarize(reply.statusCode, payload);
		done(null, payload);
	});
	app.addHook('onSend', (request, reply, payload, done) => {
		if (isApi(request) && !request.journalSummary)
			request.journalSummary = summarizeSerialized(reply.statusCode, payload);
		done(null, payload);
	});

	app.addHook('onResponse', (request, reply, done) => {
		if (isApi(request)) record(request, reply.statusCode, request.journalSummary ?? {});
		done();
	});
}

/** The answer of a route fault; an injected 429 looks to a client exactly like the real limit. */
function injected(fault: RouteFault, request: FastifyRequest, clock: Clock) {
	if (fault.status === 429) {
		const retryAfter = fault.retryAfter ?? 60;
		const limit = hourlyLimitReached({
			wanted: Array.isArray(request.body) ? request.body.length : 1,
			remaining: 0,
			retryAfter,
			resetSeconds: Math.ceil(clock.now() / 1000) + retryAfter,
		});
		return { headers: limit.options.headers ?? {}, body: fault.body ?? limit.toBody() };
	}
	return {
		headers: {},
		body: fault.body ?? {
			error: `Injected fault: ${fault.route} answered ${fault.status} (armed with POST /__admin/faults).`,
		},
	};
}
