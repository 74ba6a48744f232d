/**
 * Answers that echo the request, as the services do (Slack's answer names the channel posted to,
 * Airtable's the fields created): a string of a mock's answer may hold `{{request.body.channel}}`,
 * `{{request.query.limit}}`, `{{request.headers.x-id}}`, `{{request.segments.3}}` (the path's
 * parts), `{{request.method|url|host|path}}`, `{{seq}}` (the how-many-th request this mock
 * answers, from 1), `{{now}}` (the case's clock, ISO), `{{nowSeconds}}` and `{{nowMs}}` (epoch).
 * A string that is one placeholder takes the value as it is (an object, a number); in a longer
 * string it is written in; a path the request lacks gives null (alone) or nothing (within).
 */
import type { Exchange } from './exchange.cjs';

const PLACEHOLDER = /\{\{\s*([\w.$-]+)\s*\}\}/g;
const ALONE = /^\{\{\s*([\w.$-]+)\s*\}\}$/;

export interface TemplateContext {
	exchange: Exchange;
	/** The how-many-th request the mock answers, from 1. */
	seq: number;
	/** The case's time, epoch milliseconds. */
	now: number;
}

/** A value of an answer with its placeholders filled in. */
export function filled(value: unknown, context: TemplateContext): unknown {
	if (typeof value === 'string') {
		const alone = ALONE.exec(value);
		return alone ? (lookup(alone[1], context) ?? null) : filledText(value, context);
	}
	if (Array.isArray(value)) return value.map((v) => filled(v, context));
	if (value !== null && typeof value === 'object')
		return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, filled(v, context)]));
	return value;
}

/** A text with its placeholders written in (an object as JSON). */
export function filledText(text: string, context: TemplateContext): string {
	return text.replace(PLACEHOLDER, (_, path: string) => {
		const found = lookup(path, context);
		if (found === undefined || found === null) return '';
		return typeof found === 'object' ? JSON.stringify(found) : String(found as string | number);
	});
}

function lookup(path: string, { exchange, seq, now }: TemplateContext): unknown {
	if (path === 'seq') return seq;
	if (path === 'now') return new Date(now).toISOString();
	if (path === 'nowSeconds') return Math.floor(now / 1000);
	if (path === 'nowMs') return now;
	const [root, ...rest] = path.split('.');
	if (root !== 'request') return undefined;
	const request: Record<string, unknown> = {
		...exchange,
		segments: exchange.path.split('/').filter(Boolean).map(decodeURIComponent),
	};
	const [part, ...inner] = rest;
	let at: unknown = request[part];
	// Header names are lower-case and may hold dots: the rest is one name.
	if (part === 'headers')
		return inner.length ? exchange.headers[inner.join('.').toLowerCase()] : at;
	for (const key of inner) {
		if (at === null || typeof at !== 'object') return undefined;
		at = (at as Record<string, unknown>)[key];
	}
	return at;
}
