/**
 * How every answer that is not a route's own success leaves the server: errors in the decided body,
 * a 405 with Allow for a known path and another method, a 404 for an unknown path, a 500 that says
 * nothing was completed.
 */
import type { Duplex } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Logger } from '../core/logger.cjs';
import { ApiError } from './errors.cjs';
import { BODY_LIMIT_BYTES } from './parsing.cjs';

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
	if (error.options.headers) reply.headers(error.options.headers);
	return reply.code(error.status).type('application/json; charset=utf-8').send(error.toBody());
}

export const bodyTooLarge = () =>
	new ApiError(
		413,
		`Request body is larger than ${BODY_LIMIT_BYTES / 1024 / 1024} MiB; send a smaller body (split large batches).`,
	);

export const notJson = () =>
	new ApiError(
		415,
		'Unsupported Content-Type; send the body as JSON with Content-Type: application/json.',
	);

/** Maps the framework's own errors (body parsing, size, media type) to the decided error body. */
export function toApiError(error: unknown): ApiError | undefined {
	if (error instanceof ApiError) return error;
	const e = error as { statusCode?: number; code?: string; message?: string };
	switch (e.code) {
		case 'FST_ERR_CTP_BODY_TOO_LARGE':
			return bodyTooLarge();
		case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
			return notJson();
		case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
			return new ApiError(400, 'Content-Length does not match the body that was sent.');
	}
	if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500)
		return new ApiError(e.statusCode, e.message ?? 'Bad request.');
	return undefined;
}

/**
 * The answer to a request Node could not take as HTTP (Fastify's `clientErrorHandler`): a request
 * not received in time (408), headers too large (431), anything else malformed (400), in the
 * decided error body. Written on the socket, which is then closed (nothing else can follow).
 */
export function clientErrorAnswer(requestTimeoutMs: number) {
	return (error: NodeJS.ErrnoException, socket: Duplex) => {
		if (error.code === 'ECONNRESET' || socket.destroyed) return;
		const [status, text, message] =
			error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
				? [
						408,
						'Request Timeout',
						`The request was not received within ${requestTimeoutMs / 1000} s; send the headers and the whole body at once.`,
					]
				: error.code === 'HPE_HEADER_OVERFLOW'
					? [
							431,
							'Request Header Fields Too Large',
							'The request headers are too large; send fewer or shorter headers.',
						]
					: [400, 'Bad Request', 'The request is not valid HTTP/1.1.'];
		const body = JSON.stringify({ error: message });
		if (socket.writable)
			socket.write(
				`HTTP/1.1 ${status} ${text}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
			);
		socket.destroy();
	};
}

const pathOf = (url: string) => url.split('?')[0];

/** Route patterns (`/__admin/accounts/:id`) as expressions matching the paths they serve. */
const patternOf = (url: string) =>
	new RegExp(`^${url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/]+')}$`);

/** Registers the error and not-found handlers; call before any route is registered. */
export function answerErrors(app: FastifyInstance, logger: Logger): void {
	// The methods of every registered path, in the order they were registered (for 405 and Allow).
	const routes = new Map<string, { pattern: RegExp; methods: string[] }>();
	app.addHook('onRoute', (route) => {
		const known = routes.get(route.url) ?? { pattern: patternOf(route.url), methods: [] };
		for (const method of [route.method].flat())
			if (method !== 'HEAD' && !known.methods.includes(method)) known.methods.push(method);
		routes.set(route.url, known);
	});

	app.setErrorHandler((error, request, reply) => {
		const apiError = toApiError(error);
		if (apiError) return sendError(reply, apiError);
		logger.error('unhandled error', {
			id: request.id,
			path: pathOf(request.url),
			error: (error as Error).message,
		});
		return sendError(
			reply,
			new ApiError(500, 'Internal server error; the request was not completed.'),
		);
	});

	app.setNotFoundHandler((request, reply) => {
		const path = pathOf(request.url);
		for (const [url, { pattern, methods }] of routes) {
			if (!pattern.test(path)) continue;
			return sendError(
				reply,
				new ApiError(
					405,
					`Method ${request.method} is not allowed on ${url}; use ${methods.join(' or ')}.`,
					{ headers: { Allow: methods.join(', ') } },
				),
			);
		}
		return sendError(
			reply,
			new ApiError(404, `No route for ${request.method} ${path}; see /docs for the API.`, {
				code: 'route_not_found',
			}),
		);
	});
}
