/**
 * Admin API: a live stream of what happens (server-sent events), so a page can show requests as
 * they arrive instead of polling. Read with fetch and the admin token in the Authorization header
 * (EventSource cannot send one, and a token never goes into a URL).
 */
import type { FastifyPluginAsync } from 'fastify';
import { content } from '../http/contract.cjs';
import type { JournalSummary } from './journal.cjs';
import { admin, type AdminRoutesOptions } from './schema.cjs';

/** A comment line now and then keeps proxies and browsers from closing an idle stream. */
const HEARTBEAT_MS = 15_000;
/**
 * Requests are sent in batches, at most this often: under load (thousands a second) one event per
 * request would cost the server a write and the page a render each; a batch costs one of each.
 */
const BATCH_MS = 200;
/** At most this many requests per batch; the page reads the journal for the rest when it sees `dropped`. */
const BATCH_MAX = 5000;

export const eventRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, options) => {
	// Open streams end when the server stops: it would otherwise wait for them.
	const open = new Set<() => void>();
	app.addHook('preClose', async () => {
		for (const end of open) end();
	});
	app.get(
		'/__admin/events',
		{
			schema: admin({
				operationId: 'adminEvents',
				summary: 'Follow the requests as they are answered (server-sent events)',
				description:
					'text/event-stream: an event "requests" at most every 200 ms while API requests are answered, {requests: [{id, time, method, path, keyId, status, durationMs}], dropped} (up to 5000 a batch; dropped counts those left out, which GET /__admin/requests has; no query, body or answer either); a comment line every 15 s while nothing happens. Read with fetch and Authorization: Bearer <admin token>.',
				response: { 200: content('A stream of "requests" events', ['text/event-stream']) },
			}),
		},
		(request, reply) => {
			reply.hijack();
			const out = reply.raw;
			out.writeHead(200, {
				'content-type': 'text/event-stream; charset=utf-8',
				'cache-control': 'no-store',
				'x-accel-buffering': 'no',
			});
			out.write(': connected\n\n');
			let batch: JournalSummary[] = [];
			let dropped = 0;
			let flushing: NodeJS.Timeout | undefined;
			const flush = () => {
				flushing = undefined;
				out.write(`event: requests\ndata: ${JSON.stringify({ requests: batch, dropped })}\n\n`);
				batch = [];
				dropped = 0;
			};
			const stop = options.journal.subscribe((entry) => {
				if (batch.length < BATCH_MAX) batch.push(entry);
				else dropped += 1;
				flushing ??= setTimeout(flush, BATCH_MS);
			});
			const heartbeat = setInterval(() => out.write(': still here\n\n'), HEARTBEAT_MS);
			heartbeat.unref();
			const end = () => {
				stop();
				clearTimeout(flushing);
				clearInterval(heartbeat);
				open.delete(end);
				out.end();
			};
			open.add(end);
			request.raw.on('close', end);
		},
	);
};
