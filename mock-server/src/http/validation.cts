import { z } from 'zod';
import { looksSecret } from '../core/logger.cjs';
import { closest, editDistance } from '../core/similar.cjs';
import { ApiError, type ErrorDetail } from './errors.cjs';

/**
 * Turns zod issues into the error body of docs/api.md: one actionable sentence plus per-field
 * details. Unknown fields name the known field they most resemble (tikTokPixel -> tiktokPixel).
 */
export function closestField(unknown: string, known: string[]): string | undefined {
	const best = closest(unknown, known, Infinity);
	return best !== undefined &&
		editDistance(unknown, best) <= Math.max(2, Math.floor(best.length / 3))
		? best
		: undefined;
}

/** What was sent instead, with its value unless `echo` is false (a secret is named by type only). */
function describeType(value: unknown, echo: boolean): string {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'an array';
	if (typeof value === 'object') return 'an object';
	// JSON numbers past ~1.8e308 (`1e400`) parse as Infinity: say so instead of "the number Infinity".
	if (typeof value === 'number' && !Number.isFinite(value))
		return 'a number too large to represent (it reads as Infinity)';
	if (!echo) return `a ${typeof value}`;
	if (typeof value === 'number' && !Number.isInteger(value)) return `the number ${value}`;
	if (typeof value === 'string')
		return `the string ${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '...' : value)}`;
	return `${typeof value} ${String(value as boolean | number | bigint | symbol | undefined)}`;
}

const EXPECTED: Record<string, string> = {
	int: 'an integer',
	number: 'a number',
	string: 'a string',
	boolean: 'true or false',
	object: 'an object',
	array: 'an array',
};

function issueToDetails(
	issue: z.core.$ZodIssue,
	prefix: (string | number)[],
	known: (path: PropertyKey[]) => string[],
): ErrorDetail[] {
	const path = [...prefix, ...issue.path].map(String).join('.');
	switch (issue.code) {
		case 'unrecognized_keys':
			return issue.keys.map((key) => {
				const hint = closestField(key, known(issue.path));
				return {
					path: path ? `${path}.${key}` : key,
					message: `Unknown field '${key}'.${hint ? ` Did you mean '${hint}'?` : known(issue.path).length > 0 ? ` Known fields: ${known(issue.path).join(', ')}.` : ' None are accepted here.'}`,
				};
			});
		case 'invalid_type': {
			if (issue.input === undefined) return [{ path, message: `${path || 'value'} is required.` }];
			const input = describeType(issue.input, !looksSecret(path));
			const expected = EXPECTED[issue.expected] ?? issue.expected;
			const unquote =
				typeof issue.input === 'string' && (issue.expected === 'number' || issue.expected === 'int')
					? ' (a JSON number, without quotes)'
					: '';
			return [
				{
					path,
					message: `${path || 'value'} must be ${expected}${unquote}, not ${input}.`,
				},
			];
		}
		case 'too_small':
			if (issue.origin === 'string') return [{ path, message: `${path} must not be empty.` }];
			if (issue.origin === 'array')
				return [
					{ path, message: `${path || 'body'} must hold at least ${issue.minimum} element(s).` },
				];
			return [{ path, message: `${path} must be at least ${issue.minimum}.` }];
		case 'too_big':
			if (issue.origin === 'string')
				return [{ path, message: `${path} must be at most ${issue.maximum} characters long.` }];
			if (issue.origin === 'array')
				return [
					{ path, message: `${path || 'body'} must hold at most ${issue.maximum} elements.` },
				];
			return [{ path, message: `${path} must be at most ${issue.maximum}.` }];
		case 'invalid_value':
			return [
				{
					path,
					message: `${path} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}.`,
				},
			];
		case 'invalid_format':
			return [{ path, message: `${path} ${issue.message}` }];
		default:
			return [{ path, message: `${path ? path + ': ' : ''}${issue.message}` }];
	}
}

/** Known field names of the (object) schema at `path`, for unknown-field hints. */
function knownFieldsOf(schema: z.ZodType, path: PropertyKey[]): string[] {
	// Wrappers (a body that may be left out, defaults) hold the object schema inside.
	const unwrap = (s: z.ZodType | undefined) => {
		while (s && (s._zod.def as { innerType?: z.ZodType }).innerType)
			s = (s._zod.def as { innerType?: z.ZodType }).innerType;
		return s;
	};
	let current: z.ZodType | undefined = unwrap(schema);
	for (const segment of path) {
		if (current instanceof z.ZodArray) current = current.element as z.ZodType;
		else if (current instanceof z.ZodObject)
			current = (current.shape as Record<string, z.ZodType>)[String(segment)];
		else break;
		current = unwrap(current);
	}
	while (current instanceof z.ZodArray) current = current.element as z.ZodType;
	return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

/** The top-level field names of each schema, found once (every request and batch entry asks). */
const topFields = new WeakMap<z.ZodType, Set<string>>();
function topFieldsOf(schema: z.ZodType): Set<string> {
	let fields = topFields.get(schema);
	if (!fields) topFields.set(schema, (fields = new Set(knownFieldsOf(schema, []))));
	return fields;
}

/**
 * null for an optional field means omitted (docs/api.md): drop the null members of a plain object
 * that are fields of `schema`. An unknown field stays, whatever its value, so the strict check
 * names it ("Did you mean ...?") instead of a misspelt field passing in silence as null.
 */
export function dropNulls(value: unknown, schema: z.ZodType): unknown {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
	const known = topFieldsOf(schema);
	return Object.fromEntries(
		Object.entries(value).filter(([key, v]) => v !== null || !known.has(key)),
	);
}

/** The problems of a failed parse, each once (zod may report one bound from two checks). */
export function zodDetails(
	error: z.ZodError,
	schema: z.ZodType,
	prefix: (string | number)[] = [],
): ErrorDetail[] {
	const seen = new Set<string>();
	return error.issues
		.flatMap((issue) => issueToDetails(issue, prefix, (p) => knownFieldsOf(schema, p)))
		.filter((detail) => {
			const key = `${detail.path}\n${detail.message}`;
			if (seen.has(key)) return false;
			seen.add(key);
			return true;
		});
}

export function parseOrThrow<S extends z.ZodType>(
	schema: S,
	input: unknown,
	what: string,
): z.output<S> {
	const result = schema.safeParse(dropNulls(input, schema), { reportInput: true });
	if (result.success) return result.data;
	const details = zodDetails(result.error, schema);
	throw new ApiError(
		400,
		`Invalid ${what}: ${details[0].message}${details.length > 1 ? ` (and ${details.length - 1} more problem(s), see details)` : ''}`,
		{ details },
	);
}
