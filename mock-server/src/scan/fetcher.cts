import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import type { Limiter } from './limiter.cjs';

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

// Sockets are not limited here: the scanner's own concurrency bounds them, and a request queued in
// an agent would wait for a socket while its site's clock runs.
const agents = {
	http: new http.Agent({ keepAlive: true, keepAliveMsecs: 1000, maxFreeSockets: 1024 }),
	https: new https.Agent({ keepAlive: true }),
};

/**
 * One step the site owes (taking the request, answering it, sending the body): aborts the
 * exchange when it is not done within the time-out. The abort waits one turn of the event loop
 * after the timer: what arrived while the thread was busy is read first, and counts as in time.
 */
class SiteClock {
	private timer: NodeJS.Timeout | undefined;

	constructor(
		private readonly timeoutMs: number,
		private readonly controller: AbortController,
	) {}

	start(): void {
		const timer: NodeJS.Timeout = setTimeout(
			() => setImmediate(() => this.timer === timer && this.controller.abort()),
			this.timeoutMs,
		);
		this.timer = timer;
	}

	stop(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
	}
}

function reasonOf(error: NodeJS.ErrnoException): string {
	switch (error.code) {
		case 'ENOTFOUND':
		case 'EAI_AGAIN':
			return 'DNS lookup failed';
		case 'ECONNREFUSED':
			return 'connection refused';
		case 'ECONNRESET':
			return 'connection reset';
		default:
			return /certificate|SSL|TLS/i.test(error.message)
				? 'TLS error'
				: `connection failed (${error.code ?? error.message})`;
	}
}

type Answer = { status: number; headers: http.IncomingHttpHeaders; body?: Buffer; reason?: string };

/** One request, with a clock for each step the site owes. */
function getOnce(url: URL, options: FetchOptions, controller: AbortController): Promise<Answer> {
	const { signal } = controller;
	return new Promise((resolveOnce) => {
		let settled = false;
		let release: (() => void) | undefined;
		const connect = new SiteClock(options.timeoutMs, controller);
		const answer = new SiteClock(options.timeoutMs, controller);
		const body = new SiteClock(options.timeoutMs, controller);
		const resolve = (result: Answer) => {
			if (settled) return;
			settled = true;
			connect.stop();
			answer.stop();
			body.stop();
			release?.();
			resolveOnce(result);
		};
		const failed =
			(status: number, headers: http.IncomingHttpHeaders) => (error: NodeJS.ErrnoException) =>
				resolve({ status, headers, reason: signal.aborted ? 'time-out' : reasonOf(error) });

		const mapped = options.hostMap.resolve(url.hostname);
		const target = mapped ?? url;
		const secure = target.protocol === 'https:';
		let sentAt = 0;
		let responded = false;
		const request = (secure ? https : http).request(
			{
				host: target.hostname,
				port: target.port || (secure ? 443 : 80),
				path: url.pathname + url.search,
				method: 'GET',
				agent: secure ? agents.https : agents.http,
				headers: {
					host: url.host,
					'user-agent': options.userAgent,
					accept: 'text/html,application/xhtml+xml,application/javascript;q=0.9,*/*;q=0.8',
					'accept-encoding': 'gzip, deflate, br',
				},
				signal,
			},
			(response) => {
				responded = true;
				connect.stop();
				answer.stop();
				options.answered?.(sentAt ? performance.now() - sentAt : 0);
				const status = response.statusCode ?? 0;
				const { headers } = response;
				if (status >= 300 && status < 400 && headers.location) {
					response.resume();
					resolve({ status, headers });
					return;
				}
				const declared = Number(headers['content-length'] ?? 0);
				const tooLarge = {
					status,
					headers,
					reason: `response too large (over ${options.maxBytes} bytes)`,
				};
				if (declared > options.maxBytes) {
					response.destroy();
					resolve(tooLarge);
					return;
				}
				response.on('error', failed(status, headers));
				// Closed before the whole body came, without an error (destroyed while paused): an answer.
				response.on('close', () => {
					if (!response.complete) failed(status, headers)(new Error('connection closed'));
				});
				response.pause();
				// The body is read in a later turn of the event loop than the place is given: bodies
				// already received would otherwise be read and scanned back to back in one turn, for
				// seconds under load, while no other request could be sent or answer be read.
				const read = (permit: () => void) => {
					if (settled) return permit();
					release = permit;
					body.start();
					const encoding = String(headers['content-encoding'] ?? '').toLowerCase();
					const stream =
						encoding === 'gzip'
							? response.pipe(zlib.createGunzip())
							: encoding === 'deflate'
								? response.pipe(zlib.createInflate())
								: encoding === 'br'
									? response.pipe(zlib.createBrotliDecompress())
									: response;
					const chunks: Buffer[] = [];
					let size = 0;
					stream.on('data', (chunk: Buffer) => {
						size += chunk.length;
						if (size > options.maxBytes) {
							response.destroy();
							resolve(tooLarge);
							return;
						}
						chunks.push(chunk);
					});
					stream.on('end', () => resolve({ status, headers, body: Buffer.concat(chunks) }));
					stream.on('error', failed(status, headers));
					response.resume();
				};
				void options.bodies.acquire().then((permit) => setImmediate(read, permit));
			},
		);
		request.on('error', failed(0, {}));
		// The request is on the wire: from here the site owes the answer.
		request.on('finish', () => {
			connect.stop();
			sentAt = performance.now();
			if (!responded) answer.start();
		});
		connect.start();
		request.end();
	});
}

/** GETs a URL, following redirects: the body's bytes (decompressed) or why there are none. */
export async function fetchBody(input: string, options: FetchOptions): Promise<FetchOutcome> {
	let url: URL;
	try {
		url = new URL(input);
	} catch {
		return { ok: false, url: input, reason: 'not a valid URL' };
	}
	const controller = new AbortController();
	const visited = new Set<string>();
	for (let hop = 0; ; hop++) {
		if (url.protocol !== 'http:' && url.protocol !== 'https:')
			return { ok: false, url: url.href, reason: `unsupported scheme ${url.protocol}` };
		visited.add(url.href);
		const result = await getOnce(url, options, controller);
		if (result.reason)
			return {
				ok: false,
				url: url.href,
				reason: result.reason,
				status: result.status || undefined,
			};
		if (result.status >= 300 && result.status < 400) {
			const next = new URL(String(result.headers.location), url);
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
			contentType: String(result.headers['content-type'] ?? ''),
			body: result.body!,
		};
	}
}
