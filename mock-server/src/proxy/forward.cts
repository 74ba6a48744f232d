/**
 * Sends one request to the real service and reads its whole answer, within a time limit. When the
 * upstream cannot be reached or breaks off, the failure says what failed and where, as the 502 the
 * caller gets: a name that does not resolve, a refused connection, TLS, the time limit, a reset.
 */

export interface Outgoing {
	method: string;
	url: string;
	headers: Record<string, string>;
	body?: Buffer;
}

export interface Answer {
	status: number;
	headers: Record<string, string>;
	body: Buffer;
}

export class UpstreamFailure extends Error {}

/** Headers that belong to one connection, or that fetch recomputes: never passed on. */
const HOP_BY_HOP = new Set([
	'connection',
	'keep-alive',
	'proxy-connection',
	'transfer-encoding',
	'upgrade',
	'te',
	'trailer',
	'host',
	'content-length',
	'content-encoding',
	'accept-encoding',
]);

export function passedOn(headers: Record<string, string | string[] | undefined>) {
	const out: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers))
		if (value !== undefined && !HOP_BY_HOP.has(name.toLowerCase()))
			out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
	return out;
}

const TLS_CODE =
	/^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|SELF_SIGNED|DEPTH_ZERO|HOSTNAME_MISMATCH|ERR_CERT)/;

/** What went wrong, in words, from the error fetch gave (its cause holds the system's code). */
function whatFailed(error: unknown, url: URL, timeoutMs: number, reading: boolean): string {
	const e = error as { name?: string; cause?: { code?: string; message?: string } };
	const origin = url.origin;
	if (e.name === 'TimeoutError' || e.name === 'AbortError')
		return `${origin} did not answer within ${timeoutMs / 1000} s (--proxy-timeout)`;
	const code = e.cause?.code ?? '';
	if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
		return `the host name ${url.hostname} does not resolve (${code})`;
	if (code === 'ECONNREFUSED') return `${url.host} refused the connection`;
	if (TLS_CODE.test(code)) return `TLS with ${url.host} failed: ${e.cause?.message ?? code}`;
	const how = reading ? 'while its answer was being read' : 'before it answered';
	return `the connection to ${origin} broke ${how} (${code || e.cause?.message || (error as Error).message})`;
}

export async function forward(request: Outgoing, timeoutMs: number): Promise<Answer> {
	const url = new URL(request.url);
	const signal = AbortSignal.timeout(timeoutMs);
	let response: Response;
	try {
		response = await fetch(url, {
			method: request.method,
			headers: request.headers,
			body: request.body?.length ? new Uint8Array(request.body) : undefined,
			redirect: 'manual',
			signal,
		});
	} catch (error) {
		throw new UpstreamFailure(whatFailed(error, url, timeoutMs, false));
	}
	try {
		const body = Buffer.from(await response.arrayBuffer());
		return {
			status: response.status,
			headers: passedOn(Object.fromEntries(response.headers)),
			body,
		};
	} catch (error) {
		throw new UpstreamFailure(whatFailed(error, url, timeoutMs, true));
	}
}
