import http from 'node:http';
import https from 'node:https';
import zlib from 'node:zlib';
import type { Limiter } from './limiter.cjs';

/**
 * A bounded HTTP GET for the scanner: time-out for the whole exchange, response-size cap, redirect
 * limit with loop detection, gzip/deflate/br, a proper user agent, and an injectable host mapping
 * (`*.test` or an exact host -> http://127.0.0.1:PORT) so tests and demos never touch real DNS.
 */
export interface FetchOptions {
	timeoutMs: number;
	maxBytes: number;
	maxRedirects: number;
	hostMap: HostMap;
	userAgent: string;
	/** Bodies read at once: a response waits for a place with its bytes left in the socket. */
	bodies: Limiter;
}

export type FetchOutcome =
	| { ok: true; url: string; status: number; contentType: string; body: string }
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

const agents = {
	http: new http.Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 1000 }),
	https: new https.Agent({ keepAlive: true, maxSockets: 256 }),
};

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

function getOnce(url: URL, options: FetchOptions, signal: AbortSignal): Promise<Answer> {
	return new Promise((resolveOnce) => {
		let settled = false;
		let release: (() => void) | undefined;
		const resolve = (answer: Answer) => {
			if (settled) return;
			settled = true;
			release?.();
			resolveOnce(answer);
		};
		const failed =
			(status: number, headers: http.IncomingHttpHeaders) => (error: NodeJS.ErrnoException) =>
				resolve({ status, headers, reason: signal.aborted ? 'time-out' : reasonOf(error) });

		const mapped = options.hostMap.resolve(url.hostname);
		const target = mapped ?? url;
		const secure = target.protocol === 'https:';
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
				response.pause();
				void options.bodies.acquire().then((permit) => {
					if (settled) return permit();
					release = permit;
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
				});
			},
		);
		request.on('error', failed(0, {}));
		request.end();
	});
}

export async function fetchText(input: string, options: FetchOptions): Promise<FetchOutcome> {
	let url: URL;
	try {
		url = new URL(input);
	} catch {
		return { ok: false, url: input, reason: 'not a valid URL' };
	}
	const controller = new AbortController();
	const timer = setTimeout(() => controller.abort(), options.timeoutMs);
	const visited = new Set<string>();
	try {
		for (let hop = 0; ; hop++) {
			if (url.protocol !== 'http:' && url.protocol !== 'https:')
				return { ok: false, url: url.href, reason: `unsupported scheme ${url.protocol}` };
			visited.add(url.href);
			const result = await getOnce(url, options, controller.signal);
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
			// Latin-1 maps bytes 1:1 and is much faster than UTF-8 decoding; every signature and id
			// the scanner looks for is ASCII, so non-ASCII text may come out garbled without harm.
			return {
				ok: true,
				url: url.href,
				status: result.status,
				contentType: String(result.headers['content-type'] ?? ''),
				body: result.body!.toString('latin1'),
			};
		}
	} finally {
		clearTimeout(timer);
	}
}
