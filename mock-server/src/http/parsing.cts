/**
 * What a request's input must be before a handler sees it: JSON bodies only, and the params, query
 * and body each validated by the zod schema its route declares (errors in the decided body).
 */
import type { FastifyInstance, FastifySchemaCompiler, FastifySerializerCompiler } from 'fastify';
import type { z } from 'zod';
import { ApiError } from './errors.cjs';
import { parseOrThrow } from './validation.cjs';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** How deep a JSON body may nest: far beyond any request of the API (an inbox batch is 3 deep). */
export const BODY_MAX_DEPTH = 64;

/** Whether a parsed JSON value nests deeper than `limit` (walked without recursion). */
function nestsDeeperThan(value: unknown, limit: number): boolean {
	const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
	while (stack.length > 0) {
		const { value: node, depth } = stack.pop()!;
		if (node === null || typeof node !== 'object') continue;
		if (depth > limit) return true;
		for (const child of Object.values(node)) stack.push({ value: child, depth: depth + 1 });
	}
	return false;
}

/**
 * JSON only: without this, Fastify would accept text/plain bodies as strings. An empty JSON body
 * counts as no body (admin calls whose fields are all optional need none).
 */
export function acceptJsonBodies(app: FastifyInstance): void {
	app.removeContentTypeParser(['text/plain', 'application/json']);
	app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
		if ((text as string).trim() === '') return done(null, undefined);
		let body: unknown;
		try {
			body = JSON.parse(text as string);
		} catch {
			return done(
				new ApiError(400, 'The request body is not valid JSON; check quotes, commas and brackets.'),
				undefined,
			);
		}
		// One rule for every operation: JSON null is not "no body" (send none for that) nor an object.
		if (body === null)
			return done(
				new ApiError(
					400,
					'The request body is JSON null: send the JSON object or array the operation documents, or no body at all where it is optional.',
				),
				undefined,
			);
		// Deeper bodies would be walked recursively by validation and the journal (a stack overflow).
		if (nestsDeeperThan(body, BODY_MAX_DEPTH))
			return done(
				new ApiError(
					400,
					`The request body nests objects or arrays deeper than ${BODY_MAX_DEPTH} levels; send the flat fields the API documents.`,
				),
				undefined,
			);
		done(null, body);
	});
}

const PART_NAMES: Record<string, string> = {
	body: 'request body',
	querystring: 'query parameters',
	params: 'path parameters',
	headers: 'headers',
};

/**
 * Validates each part with its route's zod schema. Fastify hands a missing body over as null: a
 * body schema that accepts undefined (`.prefault({})`: every field has a default) may be left out.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
	const what = PART_NAMES[httpPart ?? 'body'] ?? httpPart ?? 'input';
	return (data: unknown) => {
		try {
			if (httpPart === 'body' && data === null) {
				const empty = schema.safeParse(undefined);
				if (!empty.success)
					throw new ApiError(
						400,
						'The request needs a JSON body (Content-Type: application/json).',
					);
				return { value: empty.data };
			}
			return { value: parseOrThrow(schema, data ?? {}, what) };
		} catch (error) {
			return { error: error as Error };
		}
	};
};

/**
 * Answers are the handlers' own objects, serialised as they are: the response schemas document
 * them (and a test checks the answers against them), they do not filter them at run time.
 */
export const jsonSerializerCompiler: FastifySerializerCompiler<unknown> = () => (data) =>
	JSON.stringify(data);
