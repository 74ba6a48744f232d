import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { ApiError } from './errors.cjs';
import { parseOrThrow } from '../schemas/validation.cjs';

export type Handler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>;
type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Registers one path with its handlers per method; any other method on a known path is a 405 with
 * an Allow header (an unknown path is the not-found handler's 404).
 */
export function resource(
	app: FastifyInstance,
	url: string,
	handlers: Partial<Record<Method, Handler>>,
): void {
	const allowed = Object.keys(handlers);
	app.route({
		method: ALL_METHODS,
		url,
		handler: async (request, reply) => {
			const method = (request.method === 'HEAD' ? 'GET' : request.method) as Method;
			const handler = handlers[method];
			if (!handler) {
				throw new ApiError(
					405,
					`Method ${request.method} is not allowed on ${url}; use ${allowed.join(' or ')}.`,
					undefined,
					undefined,
					{
						Allow: allowed.join(', '),
					},
				);
			}
			return handler(request, reply);
		},
	});
}

/** The validated JSON body; `optional` bodies (every field has a default) may be left out. */
export function body<S extends z.ZodType>(
	request: FastifyRequest,
	schema: S,
	options: { optional?: boolean } = {},
): z.output<S> {
	if (request.body === undefined && !options.optional) {
		throw new ApiError(400, 'The request needs a JSON body (Content-Type: application/json).');
	}
	return parseOrThrow(schema, request.body ?? {}, 'request body');
}

/**
 * Validated query strings, remembered per schema: clients page through lists with the same few
 * query strings over and over, and validation is a pure function of the string. Bounded, frozen.
 */
const validQueries = new WeakMap<z.ZodType, Map<string, unknown>>();
const VALID_QUERIES_KEPT = 500;

export function query<S extends z.ZodType>(request: FastifyRequest, schema: S): z.output<S> {
	const raw = request.url.slice(request.url.indexOf('?') + 1 || request.url.length);
	let known = validQueries.get(schema);
	if (!known) validQueries.set(schema, (known = new Map()));
	const cached = known.get(raw) as z.output<S> | undefined;
	if (cached !== undefined) return cached;
	const value = parseOrThrow(schema, request.query ?? {}, 'query parameters');
	Object.freeze(value);
	if (known.size >= VALID_QUERIES_KEPT) known.delete(known.keys().next().value!);
	known.set(raw, value);
	return value;
}

/** Maps the framework's own errors (body parsing, size, media type) to the decided error body. */
export function toApiError(error: unknown): ApiError | undefined {
	if (error instanceof ApiError) return error;
	const e = error as { statusCode?: number; code?: string; message?: string };
	switch (e.code) {
		case 'FST_ERR_CTP_BODY_TOO_LARGE':
			return new ApiError(
				413,
				'Request body is larger than 1 MiB; send a smaller body (split large batches).',
			);
		case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
			return new ApiError(
				415,
				'Unsupported Content-Type; send the body as JSON with Content-Type: application/json.',
			);
		case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
			return new ApiError(400, 'Content-Length does not match the body that was sent.');
	}
	if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500)
		return new ApiError(e.statusCode, e.message ?? 'Bad request.');
	return undefined;
}

export function sendError(reply: FastifyReply, error: ApiError): FastifyReply {
	if (error.headers) reply.headers(error.headers);
	return reply.code(error.status).type('application/json; charset=utf-8').send(error.toBody());
}
