/**
 * Recordings: one forwarded exchange per JSON file, readable and diffable. The request as data
 * (method, path, query, body), the answer (status, the headers that matter, the body), when it
 * was recorded and how long it took. Secrets are redacted on the way in (keys, passwords, tokens:
 * the Authorization header is never written). Files are named by the request, so recording the
 * same session again writes the same names:
 *   POST_api-v1-inboxes_3f2a9c1d_001.json
 * method, path, a hash of the request as data, and which time this same request was sent (a list
 * read before and after a change is two recordings, replayed in that order).
 */
import { createHash } from 'node:crypto';
import {
	accessSync,
	constants,
	mkdirSync,
	readdirSync,
	readFileSync,
	writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { redact } from '../core/logger.cjs';

export interface RecordedRequest {
	method: string;
	path: string;
	query: Record<string, string>;
	/** The JSON body as data, redacted. */
	body?: unknown;
	/** A body that is not JSON, as text. */
	bodyText?: string;
}

export interface RecordedResponse {
	status: number;
	headers: Record<string, string>;
	/** A JSON body whose text is exactly its compact serialisation: kept as data. */
	body?: unknown;
	/** Any other text body, verbatim (redacted where it held a secret). */
	bodyText?: string;
	/** A body that is not text. */
	bodyBase64?: string;
	/** Set when a secret was taken out of the body: its replay is not byte for byte. */
	redacted?: true;
}

export interface Recording {
	request: RecordedRequest;
	response: RecordedResponse;
	/** When it was forwarded (the server's clock), and how long the upstream took. */
	recordedAt: string;
	durationMs: number;
}

/** Headers not worth keeping: they change on every answer, or belong to the connection. */
const UNKEPT = new Set(['date', 'age', 'x-request-id', 'request-id', 'cf-ray']);

/** The request of an exchange as data: JSON bodies parsed, secrets redacted. */
export function recordedRequest(
	method: string,
	path: string,
	query: Record<string, string>,
	body: Buffer | undefined,
): RecordedRequest {
	const request: RecordedRequest = {
		method,
		path,
		query: redact(sortedKeys(query)) as Record<string, string>,
	};
	if (!body?.length) return request;
	const text = body.toString('utf8');
	try {
		request.body = redact(JSON.parse(text));
	} catch {
		request.bodyText = redact(text) as string;
	}
	return request;
}

export function recordedResponse(status: number, headers: Record<string, string>, body: Buffer) {
	const kept: Record<string, string> = {};
	for (const name of Object.keys(headers).sort())
		if (!UNKEPT.has(name)) kept[name] = name === 'set-cookie' ? '[redacted]' : headers[name];
	const response: RecordedResponse = { status, headers: kept };
	const text = body.toString('utf8');
	if (!Buffer.from(text, 'utf8').equals(body)) response.bodyBase64 = body.toString('base64');
	else if (text) {
		const data = parsed(text);
		const clean = data === undefined ? undefined : redact(data);
		const changed = JSON.stringify(clean) !== JSON.stringify(data);
		if (data === undefined) response.bodyText = redact(text) as string;
		else if (changed) {
			// A secret in an answer is not kept, even at the cost of replaying other bytes.
			response.body = clean;
			response.redacted = true;
		} else if (JSON.stringify(data) === text) response.body = data;
		else response.bodyText = text;
	}
	return response;
}

const parsed = (text: string) => {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return undefined;
	}
};

/** The bytes an answer is replayed with: those recorded. */
export function responseBytes(response: RecordedResponse): Buffer {
	if (response.bodyBase64 !== undefined) return Buffer.from(response.bodyBase64, 'base64');
	if (response.body !== undefined) return Buffer.from(JSON.stringify(response.body));
	return Buffer.from(response.bodyText ?? '');
}

function sortedKeys<T>(value: T): T {
	if (Array.isArray(value)) return value.map(sortedKeys) as T;
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.keys(value)
			.sort()
			.map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
	) as T;
}

/** The request as one stable text: what names its file, and what replay compares. */
export function canonical(request: RecordedRequest): string {
	return JSON.stringify(sortedKeys({ ...request, method: request.method.toUpperCase() }));
}

function nameOf(request: RecordedRequest, time: number): string {
	const slug = request.path.replace(/^\//, '').replace(/[^A-Za-z0-9]+/g, '-');
	const hash = createHash('sha256').update(canonical(request)).digest('hex').slice(0, 8);
	return `${request.method.toUpperCase()}_${slug}_${hash}_${String(time).padStart(3, '0')}.json`;
}

/** Writes each exchange to its own file in `dir`, and says which. */
export class Recorder {
	private readonly times = new Map<string, number>();

	constructor(private readonly dir: string) {
		try {
			mkdirSync(dir, { recursive: true });
			accessSync(dir, constants.W_OK);
		} catch (error) {
			throw new RecordingError(
				`--record: cannot write recordings into ${dir} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); give a folder this server may create and write`,
			);
		}
	}

	write(recording: Recording): string {
		const key = canonical(recording.request);
		const time = (this.times.get(key) ?? 0) + 1;
		this.times.set(key, time);
		const file = nameOf(recording.request, time);
		const ordered: Recording = {
			request: sortedKeys(recording.request),
			response: recording.response,
			recordedAt: recording.recordedAt,
			durationMs: recording.durationMs,
		};
		writeFileSync(join(this.dir, file), `${JSON.stringify(ordered, null, '\t')}\n`);
		return file;
	}
}

export class RecordingError extends Error {}

/** Every recording in `dir`, by file name; a file that is not one fails with its name. */
export function readRecordings(dir: string): { file: string; recording: Recording }[] {
	const files = readdirSync(dir)
		.filter((name) => name.endsWith('.json'))
		.sort();
	if (files.length === 0)
		throw new RecordingError(
			`${dir} holds no recordings (*.json): record some with --record ${dir} and a proxy option first`,
		);
	return files.map((file) => {
		let recording: Recording;
		try {
			recording = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Recording;
		} catch (error) {
			throw new RecordingError(`${join(dir, file)} is not JSON: ${(error as Error).message}`);
		}
		const { request, response } = recording ?? {};
		if (
			typeof request?.method !== 'string' ||
			typeof request.path !== 'string' ||
			typeof response?.status !== 'number'
		)
			throw new RecordingError(
				`${join(dir, file)} is not a recording: it needs request.method, request.path and response.status (see mock-server/README.md, "Against the real services")`,
			);
		request.query ??= {};
		response.headers ??= {};
		return { file, recording };
	});
}
