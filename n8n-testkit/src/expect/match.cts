/** How a test file's values are compared: counts, JSON equality, "/regular expressions/". */
import { isDeepStrictEqual } from 'node:util';
import type { Count } from '../file/schema.cjs';

export function countHolds(expected: Count, actual: number): boolean {
	if (typeof expected === 'number') return actual === expected;
	return (
		(expected.atLeast === undefined || actual >= expected.atLeast) &&
		(expected.atMost === undefined || actual <= expected.atMost)
	);
}

export function describeCount(expected: Count): string {
	if (typeof expected === 'number') return `exactly ${expected}`;
	if (expected.atLeast !== undefined && expected.atMost !== undefined)
		return `${expected.atLeast} to ${expected.atMost}`;
	return expected.atLeast !== undefined
		? `at least ${expected.atLeast}`
		: `at most ${expected.atMost}`;
}

const REGEX = /^\/(.+)\/([dgimsuy]*)$/s;

/** Whether `actual` is what `expected` asks: "/pattern/flags" matches text, anything else equals. */
export function valueMatches(expected: unknown, actual: unknown): boolean {
	if (typeof expected === 'string') {
		const regex = REGEX.exec(expected);
		if (regex)
			return (
				actual !== undefined &&
				actual !== null &&
				new RegExp(regex[1], regex[2]).test(
					typeof actual === 'string' ? actual : JSON.stringify(actual),
				)
			);
	}
	return isDeepStrictEqual(expected, actual);
}

/**
 * Whether `actual` holds `expected`: an object's fields (it may have more), a list's items one by
 * one (as many), anything else as valueMatches compares it ("/regular expressions/" included).
 */
export function subsetMatches(expected: unknown, actual: unknown): boolean {
	if (Array.isArray(expected))
		return (
			Array.isArray(actual) &&
			actual.length === expected.length &&
			expected.every((e, i) => subsetMatches(e, actual[i]))
		);
	if (expected !== null && typeof expected === 'object')
		return (
			actual !== null &&
			typeof actual === 'object' &&
			!Array.isArray(actual) &&
			Object.entries(expected).every(([k, v]) =>
				subsetMatches(v, (actual as Record<string, unknown>)[k]),
			)
		);
	return valueMatches(expected, actual);
}

/** A field by dot path (address.city, emails.0). */
export function fieldOf(item: unknown, path: string): unknown {
	let value: unknown = item;
	for (const part of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as Record<string, unknown>)[part];
	}
	return value;
}

/** A value as a report shows it: JSON, shortened. */
export function shown(value: unknown, max = 300): string {
	const text = value === undefined ? 'nothing (no such field)' : JSON.stringify(value);
	return text.length > max ? `${text.slice(0, max)}…` : text;
}
