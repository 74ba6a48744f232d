import type { IDataObject } from 'n8n-workflow';

/*
 * Reading what a service answered, whatever shape it chose. The specs fix the success bodies in
 * part and the error bodies hardly at all, and real services sit behind gateways and proxies that
 * answer with pages of their own, so everything here is tolerant in what it reads and says plainly
 * what it could not read.
 */

export type Service = 'leads' | 'inbox';

export const SERVICE_NAMES: Record<Service, string> = {
	leads: 'lead search',
	inbox: 'inbox',
};

/** The credential field holding each service's base URL. */
export const CREDENTIAL_FIELDS: Record<Service, string> = {
	leads: 'Lead Search Base URL',
	inbox: 'Inbox Base URL',
};

/** What kind of body came back: decided from the bytes, not only from Content-Type. */
export type BodyKind = 'json' | 'html' | 'text' | 'empty';

export interface ServiceAnswer {
	service: Service;
	method: string;
	/** The URL asked, without the query string. */
	url: string;
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	kind: BodyKind;
	/** The parsed JSON when kind is 'json'; the text otherwise. */
	body: unknown;
	text: string;
}

/**
 * The answer to a request from n8n's full response: the body as text (a service or proxy that
 * echoes the request's headers must not put the key into an error), classified and parsed.
 */
export function answerOf(
	request: Pick<ServiceAnswer, 'service' | 'method' | 'url'>,
	raw: { statusCode: number; headers?: ServiceAnswer['headers']; body?: unknown },
	apiKey: string,
): ServiceAnswer {
	let text =
		typeof raw.body === 'string'
			? raw.body
			: raw.body === undefined
				? ''
				: JSON.stringify(raw.body);
	if (apiKey.length >= 8) text = text.split(apiKey).join('[API key]');
	const headers = raw.headers ?? {};
	return {
		...request,
		statusCode: raw.statusCode,
		headers,
		text,
		...readBody(text, header({ headers }, 'content-type')),
	};
}

export function header(answer: Pick<ServiceAnswer, 'headers'>, name: string): string | undefined {
	const wanted = name.toLowerCase();
	for (const [key, value] of Object.entries(answer.headers ?? {})) {
		if (key.toLowerCase() !== wanted || value === undefined) continue;
		return Array.isArray(value) ? value[0] : String(value);
	}
	return undefined;
}

/** Classifies and parses a body. A JSON body is JSON whatever its Content-Type says. */
export function readBody(text: string, contentType = ''): { kind: BodyKind; body: unknown } {
	const trimmed = text.trim();
	if (trimmed === '') return { kind: 'empty', body: undefined };
	if (
		/json/i.test(contentType) ||
		/^[[{"]/.test(trimmed) ||
		/^(true|false|null|-?\d)/.test(trimmed)
	) {
		try {
			return { kind: 'json', body: JSON.parse(trimmed) };
		} catch {
			// not JSON after all: classified below
		}
	}
	if (/html/i.test(contentType) || /^<(!doctype\s+html|html|head|body)\b/i.test(trimmed))
		return { kind: 'html', body: text };
	return { kind: 'text', body: text };
}

export function isObject(value: unknown): value is IDataObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A number, also when sent as a numeric string ("12"); undefined otherwise. */
export function readNumber(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
	return undefined;
}

/** A boolean, also when sent as "true"/"false"; undefined otherwise. */
export function readBoolean(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	if (typeof value === 'string' && /^(true|false)$/i.test(value.trim()))
		return value.trim().toLowerCase() === 'true';
	return undefined;
}

function clip(text: string, max = 300): string {
	const flat = text.replace(/\s+/g, ' ').trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function htmlTitle(html: string): string | undefined {
	const match = /<title[^>]*>([^<]*)<\/title>/i.exec(html) ?? /<h1[^>]*>([^<]*)<\/h1>/i.exec(html);
	const title = match?.[1]
		.replace(/&amp;/g, '&')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.trim();
	return title ? clip(title, 120) : undefined;
}

/** "an HTML page titled ...", "an empty body", "a JSON object with fields a, b": what came back. */
export function describeBody(answer: Pick<ServiceAnswer, 'kind' | 'body' | 'text'>): string {
	switch (answer.kind) {
		case 'empty':
			return 'an empty body';
		case 'html': {
			const title = htmlTitle(answer.text);
			return title ? `an HTML page titled "${title}"` : 'an HTML page';
		}
		case 'text':
			return `the text "${clip(answer.text, 120)}"`;
		case 'json': {
			const body = answer.body;
			if (Array.isArray(body)) return `a JSON array of ${body.length} element(s)`;
			if (isObject(body)) {
				const keys = Object.keys(body);
				if (keys.length === 0) return 'an empty JSON object';
				const shown = keys.slice(0, 6).join(', ');
				return `a JSON object with ${keys.length === 1 ? 'field' : 'fields'} ${shown}${keys.length > 6 ? ', …' : ''}`;
			}
			return `the JSON value ${clip(JSON.stringify(body), 60)}`;
		}
	}
}

/** Reason phrases and bare tokens ("Bad Request", "invalid_request"): a label, not an explanation. */
const REASON_PHRASES =
	/^(bad request|unauthori[sz]ed|forbidden|not found|method not allowed|conflict|gone|payment required|unprocessable (entity|content)|too many requests|internal server error|bad gateway|service unavailable|gateway time-?out|error|failed|failure)\.?$/i;

function isGeneric(text: string): boolean {
	return REASON_PHRASES.test(text.trim()) || /^[A-Za-z0-9_.:-]+$/.test(text.trim());
}

const MESSAGE_KEYS = [
	'error',
	'message',
	'error_description',
	'errorMessage',
	'error_message',
	'detail',
	'description',
	'reason',
	'msg',
	'Message',
	'faultstring',
	'title',
];
const CODE_KEYS = ['code', 'errorCode', 'error_code', 'type', 'status'];

/** Text of a field that carries a message: a string, or an object/array holding one. */
function textOf(value: unknown, depth: number): string | undefined {
	if (typeof value === 'string') return value.trim() || undefined;
	if (depth < 3 && (isObject(value) || Array.isArray(value)))
		return wordsIn(value, depth + 1).message;
	return undefined;
}

export interface ServiceWords {
	/** The service's explanation, most specific first found. */
	message?: string;
	/** A machine-readable code, when the body carries one. */
	code?: string;
	/** Per-field or per-entry problems ("count: must be at most 1000"). */
	details: string[];
}

/** The details an error body lists: [{path, message}], ["..."], or {field: ["..."]}. */
function detailsIn(value: unknown, depth: number): string[] {
	const lines: string[] = [];
	const add = (where: string | undefined, what: string | undefined) => {
		if (what) lines.push(where && !what.includes(where) ? `${where}: ${what}` : what);
	};
	if (Array.isArray(value)) {
		for (const element of value.slice(0, 10)) {
			if (typeof element === 'string') add(undefined, element.trim());
			else if (isObject(element)) {
				const where = [element.path, element.field, element.param, element.property, element.loc]
					.map((v) => (Array.isArray(v) ? v.join('.') : v))
					.find((v) => typeof v === 'string' && v !== '') as string | undefined;
				const pointer = isObject(element.source) ? element.source.pointer : undefined;
				add(
					where ?? (typeof pointer === 'string' ? pointer : undefined),
					wordsIn(element, depth + 1).message,
				);
			}
		}
	} else if (isObject(value)) {
		for (const [field, messages] of Object.entries(value).slice(0, 10)) {
			const list = Array.isArray(messages) ? messages : [messages];
			for (const message of list) if (typeof message === 'string') add(field, message.trim());
		}
	}
	return lines;
}

function wordsIn(body: IDataObject | unknown[], depth = 0): ServiceWords {
	if (Array.isArray(body)) {
		const details = detailsIn(body, depth);
		return { message: details[0], details };
	}
	const candidates: string[] = [];
	for (const key of MESSAGE_KEYS) {
		const text = textOf(body[key], depth);
		if (text) candidates.push(text);
	}
	// RFC 9457: the title names the kind of problem, the detail this occurrence of it.
	const title = typeof body.title === 'string' ? body.title.trim() : '';
	const detail = typeof body.detail === 'string' ? body.detail.trim() : '';
	let message =
		title && detail && !detail.includes(title)
			? `${title}: ${detail}`
			: candidates.find((c) => !isGeneric(c));
	const details = [...detailsIn(body.details, depth), ...detailsIn(body.errors, depth)];
	if (!message) message = details.length > 0 ? details[0] : candidates[0];
	return { message: message ? clip(message, 500) : undefined, code: codeIn(body), details };
}

function codeIn(body: IDataObject): string | undefined {
	const nested = isObject(body.error) ? body.error : undefined;
	for (const source of [body, nested]) {
		if (!source) continue;
		for (const key of CODE_KEYS) {
			const value = source[key];
			// A `type` URI (RFC 9457) or a numeric status is not a code a workflow branches on.
			if (typeof value === 'string' && /^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/.test(value)) return value;
		}
	}
	// OAuth style: {"error": "invalid_token", "error_description": "..."}
	if (typeof body.error === 'string' && /^[a-z][a-z0-9_]+$/.test(body.error)) return body.error;
	return undefined;
}

/** What the service said, found in any common error shape, or in a short text body. */
export function serviceWords(answer: Pick<ServiceAnswer, 'kind' | 'body' | 'text'>): ServiceWords {
	if (answer.kind === 'json' && (isObject(answer.body) || Array.isArray(answer.body)))
		return wordsIn(answer.body);
	if (answer.kind === 'json' && typeof answer.body === 'string' && answer.body.trim())
		return { message: clip(answer.body, 500), details: [] };
	if (answer.kind === 'text') return { message: clip(answer.text, 500), details: [] };
	return { details: [] };
}

/**
 * A list the operation returns: `body[key]`, also inside a `data` envelope, or a bare array.
 * undefined when the body holds no such list (the caller reports what came back instead).
 */
export function listIn(body: unknown, key: string): unknown[] | undefined {
	if (Array.isArray(body)) return body;
	if (!isObject(body)) return undefined;
	if (Array.isArray(body[key])) return body[key] as unknown[];
	const data = body.data;
	if (isObject(data) && Array.isArray(data[key])) return data[key] as unknown[];
	if (Array.isArray(data)) return data;
	return undefined;
}

/** The object holding the list and its companions (pagination, summary): the body or its `data`. */
export function envelopeOf(body: unknown, key: string): IDataObject {
	if (isObject(body) && !Array.isArray(body[key]) && isObject(body.data)) return body.data;
	return isObject(body) ? body : {};
}
