/**
 * What a route declares about its answers, beside its input schemas, where it is registered: the
 * OpenAPI document is generated from these declarations (docs/openapi.cts), so a route cannot exist
 * undocumented. An `Answer` is an instance of its own class, so Fastify keeps it as a custom
 * schema (it does not rewrite it) and hands it to the serializer compiler, which ignores it.
 */
import type { z } from 'zod';
import { errorBody } from '../contract/common.cjs';
import { HOURLY_LIMIT } from '../contract/inboxes.cjs';
import { bodyTooLarge, notJson } from './answers.cjs';
import { BODY_LIMIT_BYTES } from './parsing.cjs';

export interface HeaderDoc {
	description: string;
	type: 'integer' | 'string';
}

export class Answer {
	constructor(
		readonly description: string,
		readonly schema?: z.ZodType,
		readonly example?: unknown,
		readonly headers?: Record<string, HeaderDoc>,
		/** An answer that is not JSON: its media types, each with the schema of its body. */
		readonly media?: Record<string, Record<string, unknown>>,
	) {}
}

/** A success answer (its schema's own example is shown). */
export const success = (
	description: string,
	schema?: z.ZodType,
	headers?: Record<string, HeaderDoc>,
) => new Answer(description, schema, undefined, headers);

/** A success answer that is not JSON (a page, a script, an asset), by media type. */
export const content = (description: string, mediaTypes: string[]) =>
	new Answer(
		description,
		undefined,
		undefined,
		undefined,
		Object.fromEntries(
			mediaTypes.map((type) => [
				type,
				type === 'application/json'
					? { type: 'object' }
					: type.startsWith('image/')
						? { type: 'string', contentMediaType: type, contentEncoding: 'binary' }
						: { type: 'string' },
			]),
		),
	);

/** An error answer in the decided body, with an example of its own message. */
export const failure = (
	description: string,
	example?: Record<string, unknown>,
	headers?: Record<string, HeaderDoc>,
) => new Answer(description, errorBody, example, headers);

export const RATE_HEADERS: Record<string, HeaderDoc> = {
	'X-RateLimit-Limit': {
		description: `Inboxes that may be created per rolling hour per API key (${HOURLY_LIMIT}).`,
		type: 'integer',
	},
	'X-RateLimit-Remaining': {
		description: 'Inboxes that may still be created in the current window.',
		type: 'integer',
	},
	'X-RateLimit-Reset': {
		description: 'Unix time (seconds) at which the full quota is available again.',
		type: 'integer',
	},
};

/** The answers of an operation taking a body that is too large or not JSON. */
export const BODY_FAILURES = {
	413: failure(`Body larger than ${BODY_LIMIT_BYTES / 1024 / 1024} MiB.`, bodyTooLarge().toBody()),
	415: failure('Body not sent as application/json.', notJson().toBody()),
};

/** The answers every authenticated API operation may give before its own rules run. */
export const API_KEY_FAILURES = {
	401: failure(
		'Missing, malformed or invalid API key, or an account without an active subscription. Carries WWW-Authenticate: Bearer.',
		{ error: "Missing API key: send the header 'Authorization: Bearer <API key>'." },
	),
	...BODY_FAILURES,
};

export const ADMIN_TOKEN_FAILURE = {
	401: failure('Missing or wrong admin token. Carries WWW-Authenticate: Bearer.', {
		error: 'Invalid admin token: use the token the server printed at start (or --admin-token).',
	}),
};

export const forbidden = (permission: string) =>
	failure(`Key lacks ${permission}.`, {
		error: `This API key lacks the '${permission}' permission; use a key that has it.`,
	});
