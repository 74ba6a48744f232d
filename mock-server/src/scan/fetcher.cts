import zlib from 'node:zlib';
import type { Dispatcher } from 'undici';
import type { Limiter } from '../core/limiter.cjs';

/**
 * A bounded HTTP GET for the scanner: time-outs, response-size cap, redirect limit with loop
 * detection, gzip/deflate/br, a proper user agent, and an injectable host mapping (`*.test` or an
 * exact host -> http://127.0.0.1:PORT) so tests and demos never touch real DNS.
 *
 * The time-out is the site's time, not the scanner's. For each request (a redirect is another
 * one) a site has `timeoutMs` to accept the connection and take the request, `timeoutMs` to answer
 * it, and `timeoutMs` to send the body once the scanner reads it. Time a request or a response
 * waits for the scanner (a busy thread, its place among the bodies read at once) does not count, so
 * a site that answers at once is never reported as timed out because the scanner was loaded.
 */
export interface FetchOptions {
	timeoutMs: number;
	maxBytes: number;
	maxRedirects: number;
	hostMap: HostMap;
	userAgent: string;
	/** Bodies read at once: a response waits for a place with what its socket delivered so far. */
	bodies: Limiter;
	/** Told how long each answer (response headers) took after its request was sent. */
	answered?: (ms: number) => void;
	/** The HTTP client (see httpClient). */
	client: Dispatcher;
}

export type FetchOutcome =
	| { ok: true; url: string; status: number; contentType: string; body: Buffer }
	| { ok: false; url: string; reason: string; status?: number };

export class HostMap {
	private readonly exact = new Map<string, URL>();
	private readonly suffixes: [string, URL][] = [];

	/** Parses "HOST=http://127.0.0.1:PORT" (HOST may be "*.test"). */
	static parse(entries: string[]): HostMap {
		const map = new HostMap();
		for (const entry of entries) {
			const eq = entry.indexOf('=');
			if (eq <= 0) throw new Error(`--map-host needs HOST=http://127.0.0.1:PORT, got "${entry}"`);
			map.add(entry.slice(0, eq), entry.slice(eq + 1));
		}
		return map;
	}

	clear(): this {
		this.exact.clear();
		this.suffixes.length = 0;
		return this;
	}

	add(host: string, origin: string): this {
		const target = new URL(origin);
		if (host.startsWith('*.')) this.suffixes.push([host.slice(1).toLowerCase(), target]);
		else this.exact.set(host.toLowerCase(), target);
		return this;
	}

	resolve(hostname: string): URL | undefined {
		const h = hostname.toLowerCase();
		return this.exact.get(h) ?? this.suffixes.find(([suffix]) => h.endsWith(suffix))?.[1];
	}
}

/**
 * The scanner's HTTP client: undici (the client behind Node's fetch), one keep-alive pool per
 * origin. It costs the scanner half the CPU per request of node:http's client, which was most of a
 * scan's time. No limit on connections (the scanner's own concurrency bounds them: a request queued
 * for a connection would wait while its site's clock runs), and no time-outs of its own: the site
 * clocks below are the time-outs, measured as this module documents.
 *
 * Idle connections are closed after `keepAliveMs` at most, whatever a site asks for. Giving up an
 * exchange closes its connection, and undici then opens another that nothing uses until this time
 * ends: a server being closed waits for those.
 */
export function httpClient(keepAliveMs: number): Dispatcher {
	const { Agent } = require('undici') as typeof import('undici');
	return new Agent({
		connections: null,
		pipelining: 1,
		keepAliveTimeout: Math.min(4000, keepAliveMs),
		keepAliveMaxTimeout: keepAliveMs,
		headersTimeout: 0,
		bodyTimeout: 0,
	});
}

/**
 * One step the site owes (taking the request, answering it, sending the body): ends the
 * exchange as timed out when it is not done in time. That waits one turn of the event loop
 * after the timer: what arrived while the thread was busy is read first, and counts as in time.
 */
class SiteClock {
	private timer: NodeJS.Timeout | undefined;

	constructor(
		private readonly timeoutMs: number,
		private readonly expired: () => void,
	) {}

	start(): void {
		const timer: NodeJS.Timeout = setTimeout(
			() => setImmediate(() => this.timer === timer && this.expired()),
			this.timeoutMs,
		);
		this.timer = timer;
	}

	stop(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
	}
}

function reasonOf(error: Error & { code?: string }): string {
	switch (error.code) {
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return 'DNS lookup failed';
		case 'ECONNREFUSED':
			return 'connection refused';
		case 'ECONNRESET':
			return 'connection reset';
		case 'UND_ERR_SOCKET':
			return 'connection closed';
		case 'UND_ERR_CONNECT_TIMEOUT':
			return 'time-out';
		default:
			if (/certificate|SSL|TLS/i.test(error.message)) return 'TLS error';
			if (error.code?.startsWith('HPE_')) return 'invalid HTTP response';
			return `connection failed (${error.code ?? error.message})`;
	}
}

type Answer = {
	status: number;
	location?: string;
	contentType?: string;
	body?: Buffer;
	reason?: string;
};

/** The response headers the scanner reads, from undici's raw [name, value, ...] list. */
const WANTED_HEADERS = new Set(['location', 'content-length', 'content-encoding', 'content-type']);
function headersOf(raw: Buffer[]): Record<string, string> {
	const headers: Record<string, string> = {};
	for (let i = 0; i + 1 < raw.length; i += 2) {
		const name = raw[i].toString('latin1').toLowerCase();
		if (WANTED_HEADERS.has(name)) headers[name] = raw[i + 1].toString('latin1');
	}
	return headers;
}

/**
 * The decoder of a Content-Encoding the scanner accepts, or undefined (the body is used as sent).
 * Whole bodies at once, synchronously: they arrive whole before they are scanned anyway, and a
 * compressed page is a few KiB. zlib's streams cost more than the decoding (a native handle per
 * body, the work handed to libuv's threads and back): a count-1000 search took 0.15 s longer with
 * them (bench/README.md, "The helpers' own bundle"). `maxOutputLength` bounds what a small body
 * may expand to.
 */
type Decode = (body: Buffer, maxOutputLength: number) => Buffer;
function decoderFor(encoding: string | undefined): Decode | undefined {
	switch (encoding?.trim().toLowerCase()) {
		case 'gzip':
		case 'x-gzip':
			return (body, maxOutputLength) => zlib.gunzipSync(body, { maxOutputLength });
		case 'deflate':
			return (body, maxOutputLength) => zlib.inflateSync(body, { maxOutputLength });
		case 'br':
			return (body, maxOutputLength) => zlib.brotliDecompressSync(body, { maxOutputLength });
		default:
			return undefined;
	}
}

/**
 * One request and its answer, as undici's handler of the exchange, with a clock for each step
 * the site owes. `onRequestSent` (the request is written) is called by undici but not in its types.
 */
class Exchange implements Dispatcher.DispatchHandlers {
	readonly answer: Promise<Answer>;
	private settle!: (answer: Answer) => void;
	private settled = false;
	/** Gives up the exchange (closing its connection) while undici runs it. */
	private abort: ((error: Error) => void) | undefined;
	private release: (() => void) | undefined;
	private readonly connectClock: SiteClock;
	private readonly answerClock: SiteClock;
	private readonly bodyClock: SiteClock;
	private sentAt = 0;
	private status = 0;
	private headers: Record<string, string> = {};
	private redirect: string | undefined;
	private decode: Decode | undefined;
	private readonly chunks: Buffer[] = [];
	private size = 0;

	constructor(private readonly options: FetchOptions) {
		this.answer = new Promise((resolve) => (this.settle = resolve));
		const expired = () => this.finish({ status: 0, reason: 'time-out' });
		this.connectClock = new SiteClock(options.timeoutMs, expired);
		this.answerClock = new SiteClock(options.timeoutMs, expired);
		this.bodyClock = new SiteClock(options.timeoutMs, expired);
		this.connectClock.start();
	}

	private finish(answer: Answer): void {
		if (this.settled) return;
		this.settled = true;
		this.connectClock.stop();
		this.answerClock.stop();
		this.bodyClock.stop();
		this.release?.();
		// Given up before it completed: its connection is closed, not reused. Not from within the
		// undici callback that gave it up.
		const abort = this.abort;
		if (abort) queueMicrotask(() => abort(new Error(answer.reason ?? 'given up')));
		this.settle(answer);
	}

	private tooLarge(): void {
		this.finish({
			status: this.status,
			reason: `response too large (over ${this.options.maxBytes} bytes)`,
		});
	}

	private collect(chunk: Buffer): void {
		this.size += chunk.length;
		if (this.size > this.options.maxBytes) return this.tooLarge();
		this.chunks.push(chunk);
	}

	private complete(): void {
		let body: Buffer = Buffer.concat(this.chunks, this.size);
		if (this.decode) {
			try {
				// One byte over the cap tells a body that is too large from one that fits exactly.
				body = this.decode(body, this.options.maxBytes + 1);
			} catch (error) {
				return (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE'
					? this.tooLarge()
					: this.finish({
							status: this.status,
							reason: `undecodable body (${(error as Error).message})`,
						});
			}
			if (body.length > this.options.maxBytes) return this.tooLarge();
		}
		this.finish({ status: this.status, contentType: this.headers['content-type'] ?? '', body });
	}

	onConnect(abort: (error: Error) => void): void {
		if (this.settled) abort(new Error('given up'));
		else this.abort = abort;
	}

	/** The request is on the wire: from here the site owes the answer. */
	onRequestSent(): void {
		this.connectClock.stop();
		this.sentAt = performance.now();
		this.answerClock.start();
	}

	onHeaders(status: number, rawHeaders: Buffer[] | string[] | null, resume: () => void): boolean {
		this.connectClock.stop();
		this.answerClock.stop();
		this.options.answered?.(this.sentAt ? performance.now() - this.sentAt : 0);
		this.status = status;
		this.headers = headersOf((rawHeaders ?? []) as Buffer[]);
		if (status >= 300 && status < 400 && this.headers.location) {
			// A redirect's body (a line or two) is read and dropped, so its connection is reused.
			this.redirect = this.headers.location;
			this.bodyClock.start();
			return true;
		}
		if (Number(this.headers['content-length'] ?? 0) > this.options.maxBytes) {
			this.tooLarge();
			return false;
		}
		// The body is read in a later turn of the event loop than the place is given: bodies
		// already received would otherwise be read and scanned back to back in one turn, for
		// seconds under load, while no other request could be sent or answer be read.
		void this.options.bodies.acquire().then((permit) =>
			setImmediate(() => {
				if (this.settled) return permit();
				this.release = permit;
				this.bodyClock.start();
				this.decode = decoderFor(this.headers['content-encoding']);
				resume();
			}),
		);
		return false;
	}

	onData(chunk: Buffer): boolean {
		if (this.settled) return false;
		if (this.redirect !== undefined) return true;
		this.collect(chunk);
		return true;
	}

	onComplete(): void {
		this.abort = undefined; // complete: its connection goes back to the pool
		if (this.redirect !== undefined)
			return this.finish({ status: this.status, location: this.redirect });
		this.complete();
	}

	onError(error: Error & { code?: string }): void {
		this.abort = undefined;
		// After a time-out the exchange is already finished: its abort's error changes nothing.
		this.finish({ status: this.status, reason: reasonOf(error) });
	}
}

function getOnce(url: URL, options: FetchOptions): Promise<Answer> {
	const exchange = new Exchange(options);
	try {
		options.client.dispatch(
			{
				origin: (options.hostMap.resolve(url.hostname) ?? url).origin,
				path: url.pathname + url.search,
				method: 'GET',
				headers: {
					host: url.host,
					'user-agent': options.userAgent,
					accept: 'text/html,application/xhtml+xml,application/javascript;q=0.9,*/*;q=0.8',
					'accept-encoding': 'gzip, deflate, br',
				},
			},
			exchange,
		);
	} catch (error) {
		exchange.onError(error as Error);
	}
	return exchange.answer;
}

/** GETs a URL, following redirects: the body's bytes (decompressed) or why there are none. */
export async function fetchBody(input: string, options: FetchOptions): Promise<FetchOutcome> {
	let url: URL;
	try {
		url = new URL(input);
	} catch {
		return { ok: false, url: input, reason: 'not a valid URL' };
	}
	const visited = new Set<string>();
	for (let hop = 0; ; hop++) {
		if (url.protocol !== 'http:' && url.protocol !== 'https:')
			return { ok: false, url: url.href, reason: `unsupported scheme ${url.protocol}` };
		visited.add(url.href);
		const result = await getOnce(url, options);
		if (result.reason)
			return {
				ok: false,
				url: url.href,
				reason: result.reason,
				status: result.status || undefined,
			};
		if (result.status >= 300 && result.status < 400) {
			const next = new URL(result.location!, url);
			if (visited.has(next.href))
				return { ok: false, url: url.href, reason: 'redirect loop', status: result.status };
			if (hop >= options.maxRedirects)
				return {
					ok: false,
					url: url.href,
					reason: `too many redirects (over ${options.maxRedirects})`,
					status: result.status,
				};
			url = next;
			continue;
		}
		if (result.status >= 400)
			return { ok: false, url: url.href, reason: `HTTP ${result.status}`, status: result.status };
		return {
			ok: true,
			url: url.href,
			status: result.status,
			contentType: result.contentType ?? '',
			body: result.body!,
		};
	}
}
