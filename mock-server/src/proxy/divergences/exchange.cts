/** One request and its answer, as the checks see it, and what a check reports of it. */
import type { Kind, Operation } from './kinds.cjs';

export interface Exchange {
	operation: Operation;
	method: string;
	path: string;
	query: Record<string, string>;
	/** The request's JSON body, undefined when it had none or it was not JSON. */
	requestBody: unknown;
	/** Who asked (a hash of the Authorization header, never the key): walks are per caller. */
	caller: string;
	status: number;
	/** Lower-case names. */
	headers: Record<string, string>;
	/** The answer's text. */
	text: string;
}

export interface Finding {
	kind: Kind;
	/** What the difference is about, so one kind counts once per subject: a field, a status. */
	subject?: string;
	/** The value seen, described for a person. */
	seen: string;
	/** The spec's words for this very field, where they say more than the kind's. */
	words?: string;
	/** Where in the answer (results[1].code), and the value there: the example shows them. */
	at?: string;
	value?: unknown;
}

/** The answer's body as JSON, or what it is instead. */
export type Body =
	| { json: true; value: unknown }
	| { json: false; what: 'empty' | 'html' | 'text'; title?: string; text: string };

export function bodyOf(exchange: Exchange): Body {
	const text = exchange.text.trim();
	if (text === '') return { json: false, what: 'empty', text };
	try {
		return { json: true, value: JSON.parse(text) };
	} catch {
		const html =
			/html/i.test(exchange.headers['content-type'] ?? '') ||
			/^<(!doctype|html|head|body)/i.test(text);
		const title = /<title[^>]*>([^<]*)<\/title>/i.exec(text)?.[1]?.trim();
		return { json: false, what: html ? 'html' : 'text', title, text };
	}
}

/** A body that is not JSON, in words: an HTML page titled "502 Bad Gateway", text "...", empty. */
export function notJson(body: Extract<Body, { json: false }>): string {
	if (body.what === 'empty') return 'an empty body';
	if (body.what === 'html')
		return body.title ? `an HTML page titled ${JSON.stringify(body.title)}` : 'an HTML page';
	const flat = body.text.replace(/\s+/g, ' ');
	return `text ${JSON.stringify(flat.length > 80 ? `${flat.slice(0, 77)}...` : flat)}`;
}

export const isObject = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** The entries a creation request sent, as objects (an object body is one entry). */
export function entriesOf(requestBody: unknown): Record<string, unknown>[] {
	const entries = Array.isArray(requestBody) ? requestBody : [requestBody];
	return entries.filter(isObject);
}

/** An address as entries and results are matched: trimmed, case-insensitive; none when empty. */
export const addressKey = (value: unknown) =>
	typeof value === 'string' && value.trim() ? value.trim().toLowerCase() : undefined;
