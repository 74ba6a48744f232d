/**
 * A case's mocks: the answers its test file gives the requests the workflow's real nodes send to
 * other services, tried in order (a run's, then the case's, then the file's), each answering as
 * often as its `times` allows. Every request is kept, answered or not: a request no mock answers
 * fails the case, named with its method and URL and the mock nearest to it.
 */
import { shown, subsetMatches, valueMatches } from '../expect/match.cjs';
import type { MockAnswerSpec, MockRequestSpec, MockSpec } from '../file/schema.cjs';
import { type Exchange, exchangeLine, masked } from './exchange.cjs';
import { mailIn } from './mail.cjs';
import { expandUse } from './shipped/index.cjs';
import { filled, filledText, type TemplateContext } from './template.cjs';

/** The answer the proxy sends: a status, headers and a body, or a closed connection. */
export type Answer =
	| { status: number; headers: Record<string, string>; body?: Buffer; delayMs?: number }
	| { drop: true; delayMs?: number }
	| { never: true; delayMs?: undefined };

/** A mock as it is matched: `use:` turned into the shipped request and answer. */
type ArmedSpec = MockSpec & { request: MockRequestSpec };

interface Armed {
	spec: ArmedSpec;
	/**
	 * Where it was given, as the file names it (mocks.0, cases.1.mocks.0, runs.1.before.0.mock),
	 * with the shipped operation it answers as (mocks.0 (gmail.send)).
	 */
	at: string;
	used: number;
}

const armed = (spec: MockSpec, at: string): Armed[] =>
	expandUse(spec).map((one) => ({
		spec: one.spec as ArmedSpec,
		at: one.use ? `${at} (${one.use})` : at,
		used: 0,
	}));

const REGEX = /^\/(.+)\/([dgimsuy]*)$/s;

/** Whether a URL matcher takes a request's URL: exactly (without its query), or by pattern. */
export function urlMatches(matcher: string, exchange: Pick<Exchange, 'url'>): boolean {
	if (REGEX.test(matcher)) return valueMatches(matcher, exchange.url);
	const bare = exchange.url.split('?')[0];
	return matcher.replace(/\/$/, '') === bare.replace(/\/$/, '');
}

/** Why a mock's request part does not take an exchange, part by part; empty when it does. */
export function misses(request: MockRequestSpec, exchange: Exchange): string[] {
	const off: string[] = [];
	if (request.method && request.method.toUpperCase() !== exchange.method) off.push('method');
	if (!urlMatches(request.url, exchange)) off.push('url');
	for (const part of ['query', 'headers', 'body'] as const) {
		const wanted = request[part];
		if (!wanted) continue;
		const got = exchange[part] as Record<string, unknown> | undefined;
		const lower = part === 'headers';
		if (
			!Object.entries(wanted).every(([path, value]) =>
				subsetMatches(value, pathIn(got, lower ? path.toLowerCase() : path)),
			)
		)
			off.push(part);
	}
	return off;
}

/** A dot path into a value (a header's name may hold dots: tried whole first). */
const pathIn = (value: unknown, path: string): unknown => {
	if (value === null || typeof value !== 'object') return undefined;
	const record = value as Record<string, unknown>;
	if (path in record) return record[path];
	let at: unknown = value;
	for (const part of path.split('.')) {
		if (at === null || typeof at !== 'object') return undefined;
		at = (at as Record<string, unknown>)[part];
	}
	return at;
};

export class MockSet {
	private readonly armed: Armed[];
	readonly journal: Exchange[] = [];

	/** The secrets of the test's credentials: masked wherever a request is named. */
	secrets: readonly string[] = [];

	/** The case's time, which answers' {{now}} read (the runner's until the case sets it). */
	now: () => number = Date.now;

	/** The file's and the case's mocks: the case's tried first. */
	constructor(given: { spec: MockSpec; at: string }[]) {
		this.armed = given.flatMap((g) => armed(g.spec, g.at));
	}

	/** A mock given before a run: tried before the others. */
	add(spec: MockSpec, at: string): void {
		this.armed.unshift(...armed(spec, at));
	}

	/** Answers a request: the first mock that takes it (and has answers left), or none. */
	answer(exchange: Exchange): Answer | undefined {
		const mock = this.armed.find(
			(m) =>
				(m.spec.times === undefined || m.used < m.spec.times) &&
				!misses(m.spec.request, exchange).length,
		);
		exchange.at = this.now();
		this.journal.push(exchange);
		// The proxy answers 501, saying no mock answers it.
		if (!mock) {
			exchange.status = 501;
			return undefined;
		}
		exchange.mock = this.armed.indexOf(mock);
		const list = mock.spec.answers ?? [mock.spec.answer!];
		const spec = list[Math.min(mock.used, list.length - 1)];
		mock.used++;
		const answer = answerOf(spec, { exchange, seq: mock.used, now: this.now() });
		if ('drop' in answer) exchange.dropped = true;
		else if ('never' in answer) exchange.never = true;
		else exchange.status = answer.status;
		return answer;
	}

	/** The requests no mock answered. */
	unanswered(): Exchange[] {
		return this.journal.filter((e) => e.mock === undefined);
	}

	/** Where a mock was given. */
	placeOf(index: number): string {
		return this.armed[index].at;
	}

	/**
	 * The requests as --show and --report list them: each with its node, its answer, the mock that
	 * gave it and its body (an email sent whole, as what it says), the secrets masked.
	 */
	reportLines(): string[] {
		return this.journal.map((exchange) => {
			const e = masked(exchange, this.secrets);
			const by =
				e.mock === undefined
					? 'no mock answered'
					: `${e.never ? 'held' : 'answered'} by ${this.placeOf(e.mock)}`;
			const mail = mailIn(e.body);
			const body = mail
				? ` mail ${shown({ ...mail, text: mail.text.slice(0, 80) }, 240)}`
				: e.body === undefined
					? ''
					: ` body ${shown(e.body, 200)}`;
			return `${exchangeLine(e)} (${by})${body}`;
		});
	}

	/**
	 * The mock nearest to a request no mock answered, and what of it differs: the one missing
	 * fewest parts (a used-up one said so).
	 */
	nearest(exchange: Exchange): string {
		let best: { mock: Armed; off: string[] } | undefined;
		for (const mock of this.armed) {
			const off = misses(mock.spec.request, exchange);
			const spent = mock.spec.times !== undefined && mock.used >= mock.spec.times;
			if (spent && !off.length) off.push(`times (it answered its ${mock.spec.times})`);
			if (!best || off.length < best.off.length) best = { mock, off };
		}
		if (!best) return 'none: the file gives no mocks';
		const { request } = best.mock.spec;
		return `${best.mock.at} (${request.method ?? 'any method'} ${request.url}), whose ${best.off.join(', ')} differ${best.off.length === 1 ? 's' : ''}`;
	}
}

/** A mock's answer as the proxy sends it. */
function answerOf(spec: MockAnswerSpec, context: TemplateContext): Answer {
	if (spec.never) return { never: true };
	if (spec.drop) return { drop: true, delayMs: spec.delayMs };
	const headers = Object.fromEntries(
		Object.entries(spec.headers ?? {}).map(([name, value]) => [name, filledText(value, context)]),
	);
	const has = (name: string) => Object.keys(headers).some((h) => h.toLowerCase() === name);
	let body: Buffer | undefined;
	if (spec.json !== undefined) {
		body = Buffer.from(JSON.stringify(filled(spec.json, context)));
		if (!has('content-type')) headers['content-type'] = 'application/json; charset=utf-8';
	} else if (spec.text !== undefined) {
		body = Buffer.from(filledText(spec.text, context));
		if (!has('content-type')) headers['content-type'] = 'text/plain; charset=utf-8';
	} else if (spec.base64 !== undefined) {
		body = Buffer.from(spec.base64, 'base64');
		if (!has('content-type')) headers['content-type'] = 'application/octet-stream';
	}
	return { status: spec.status ?? 200, headers, body, delayMs: spec.delayMs };
}
