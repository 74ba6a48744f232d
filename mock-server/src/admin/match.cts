/**
 * Whether `actual` holds everything `expected` gives: objects field by field, arrays element by
 * element (each expected element matching some actual one), anything else by equality. What a
 * test means by "the request carried this", as WireMock's equalToJson with ignoreExtraElements.
 */
export function containsJson(actual: unknown, expected: unknown): boolean {
	if (expected === null || typeof expected !== 'object') return Object.is(actual, expected);
	if (Array.isArray(expected))
		return (
			Array.isArray(actual) &&
			expected.every((wanted) => actual.some((item) => containsJson(item, wanted)))
		);
	if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return false;
	const object = actual as Record<string, unknown>;
	return Object.entries(expected).every(
		([key, wanted]) => key in object && containsJson(object[key], wanted),
	);
}

/** A request as faults and journal filters see it. */
export interface RequestFacts {
	accountId: string | null;
	keyId: string | null;
	query: Record<string, unknown>;
	body: unknown;
}

/** What a fault or a journal filter may ask of a request; each given part must hold. */
export interface RequestMatch {
	accountId?: string;
	keyId?: string;
	query?: unknown;
	body?: unknown;
	bodyContains?: string;
}

export function matches(request: RequestFacts, match: RequestMatch): boolean {
	return (
		(match.accountId === undefined || request.accountId === match.accountId) &&
		(match.keyId === undefined || request.keyId === match.keyId) &&
		(match.query === undefined || containsJson(stringValues(request.query), match.query)) &&
		(match.body === undefined || containsJson(request.body, match.body)) &&
		(match.bodyContains === undefined ||
			(JSON.stringify(request.body) ?? '').includes(match.bodyContains))
	);
}

/** Query values as the URL carried them: text ("skip": "1000"), whatever a parser made of them. */
function stringValues(query: Record<string, unknown>): Record<string, unknown> {
	return Object.fromEntries(
		Object.entries(query).map(([key, value]) => [
			key,
			Array.isArray(value) ? value.map(text) : value === undefined ? value : text(value),
		]),
	);
}

const text = (value: unknown) =>
	typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value as string);
