/**
 * Admin API: a live stream of what happens (server-sent events), so a page can show requests as
 * they arrive instead of polling. Read with fetch and the admin token in the Authorization header
 * (EventSource cannot send one, and a token never goes into a URL).
 */
import type { FastifyPluginAsync } from 'fastify';
import { success } from '../http/contract.cjs';
import { admin, type AdminRoutesOptions } from './schema.cjs';

/** A comment line now and then keeps proxies and browsers from closing an idle stream. */
const HEARTBEAT_MS = 15_000;

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
					'text/event-stream: an event "request" for each API request recorded in the journal, as it is answered, with {id, time, method, path, keyId, status, durationMs} (no query, body or answer: GET /__admin/requests has them); a comment line every 15 s while nothing happens. Read with fetch and Authorization: Bearer <admin token>.',
				response: { 200: success('A text/event-stream of "request" events') },
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
			const stop = options.journal.subscribe((entry) =>
				out.write(`event: request\nid: ${entry.id}\ndata: ${JSON.stringify(entry)}\n\n`),
			);
			const heartbeat = setInterval(() => out.write(': still here\n\n'), HEARTBEAT_MS);
			heartbeat.unref();
			const end = () => {
				stop();
				clearInterval(heartbeat);
				open.delete(end);
				out.end();
			};
			open.add(end);
			request.raw.on('close', end);
		},
	);
};
