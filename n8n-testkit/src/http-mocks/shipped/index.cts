/**
 * The services whose answers ship with the runner, and `use:` turned into mocks: `use: gmail`
 * gives every operation of Gmail's, `use: gmail.send` one, its answer overridden by the mock's
 * own (status and headers replaced, a JSON body merged into the shipped one, key by key).
 */
import type { MockAnswerSpec, MockSpec } from '../../file/schema.cjs';
import { airtable } from './airtable.cjs';
import { gmail } from './gmail.cjs';
import { googleOAuth2 } from './google-oauth2.cjs';
import { googleSheets } from './google-sheets.cjs';
import { hubspot } from './hubspot.cjs';
import { notion } from './notion.cjs';
import { openai } from './openai.cjs';
import { pipedrive } from './pipedrive.cjs';
import type { Service } from './service.cjs';
import { slack } from './slack.cjs';
import { telegram } from './telegram.cjs';

export const SERVICES: ReadonlyMap<string, Service> = new Map(
	[
		gmail,
		googleSheets,
		googleOAuth2,
		slack,
		hubspot,
		pipedrive,
		telegram,
		airtable,
		notion,
		openai,
	].map((s) => [s.name, s]),
);

/** The shipped answers for a node of n8n's, by its type: what `use:` gives it. */
export const shippedFor = (nodeType: string): string | undefined =>
	[...SERVICES.values()].find((s) => s.nodeType === nodeType)?.name;

/** Why a `use:` is wrong, or undefined when it is right. */
export function useProblem(use: string, overrides: boolean): string | undefined {
	const [name, operation] = use.split('.', 2);
	const service = SERVICES.get(name);
	if (!service)
		return `no shipped answers are called "${name}": use one of ${[...SERVICES.keys()].join(', ')}, or write the mock's request and answer`;
	if (operation !== undefined && !(operation in service.operations))
		return `${name} has no operation "${operation}": use one of ${Object.keys(service.operations)
			.map((o) => `${name}.${o}`)
			.join(', ')}`;
	if (operation === undefined && overrides)
		return `an answer overrides one operation's: write use: ${name}.<operation> (${Object.keys(service.operations).join(', ')})`;
	return undefined;
}

/** A mock as the proxy matches it: `use:` turned into the shipped requests and answers. */
export function expandUse(spec: MockSpec): { spec: MockSpec; use?: string }[] {
	if (!spec.use) return [{ spec }];
	const [name, operation] = spec.use.split('.', 2);
	const service = SERVICES.get(name);
	if (!service) throw new Error(useProblem(spec.use, false));
	const names = operation === undefined ? Object.keys(service.operations) : [operation];
	return names.map((op) => {
		const shipped = service.operations[op];
		return {
			use: `${name}.${op}`,
			spec: {
				request: shipped.request,
				...(spec.answers
					? { answers: spec.answers.map((a) => overridden(shipped.answer, a)) }
					: { answer: spec.answer ? overridden(shipped.answer, spec.answer) : shipped.answer }),
				...(spec.times === undefined ? {} : { times: spec.times }),
			},
		};
	});
}

/** A shipped answer with a test's parts over it: JSON merged key by key, the rest replaced. */
function overridden(shipped: MockAnswerSpec, given: MockAnswerSpec): MockAnswerSpec {
	// A body of the test's own (text, binary, a dropped connection) or an error status replaces
	// the shipped JSON: an error is answered with what the test gives (or no body).
	if (
		given.text !== undefined ||
		given.base64 !== undefined ||
		given.drop ||
		(given.status ?? 0) >= 400
	)
		return { ...given, ...(given.drop ? {} : { status: given.status ?? shipped.status }) };
	const json = given.json === undefined ? shipped.json : merged(shipped.json, given.json);
	return { ...shipped, ...given, json };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
	v !== null && typeof v === 'object' && !Array.isArray(v);

function merged(base: unknown, over: unknown): unknown {
	if (!isRecord(base) || !isRecord(over)) return over;
	const out: Record<string, unknown> = { ...base };
	for (const [key, value] of Object.entries(over)) out[key] = merged(base[key], value);
	return out;
}
