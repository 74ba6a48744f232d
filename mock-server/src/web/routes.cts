import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { isSyntheticHost, respondSynthetic } from './respond.cjs';

/**
 * The synthetic web, served as virtual hosts: business websites under the reserved `.test` names
 * and a stand-in for the tag manager's host. The public port serves them (for the scan CLI and
 * demos); the scanners use a dedicated server in a helper process (see worker.cts).
 * The scanner reaches both through its host mapping, never through DNS.
 */
export { isSyntheticHost, TAG_MANAGER_HOST } from './respond.cjs';

export function hostnameOf(header: string | undefined): string {
	return (header ?? '').toLowerCase().replace(/:\d+$/, '');
}

/** Slow sites: waits `ms`, resolving false early when the client went away (nothing to send). */
function clientStillThere(ms: number, response: http.ServerResponse): Promise<boolean> {
	return new Promise((resolve) => {
		const timer = setTimeout(() => resolve(true), ms);
		response.on('close', () => {
			clearTimeout(timer);
			resolve(false);
		});
	});
}

export function registerSyntheticWeb(app: FastifyInstance): void {
	// Callback-style: it runs before every request, and API requests pass straight through.
	app.addHook('onRequest', (request, reply, done) => {
		const hostname = hostnameOf(request.headers.host);
		if (!isSyntheticHost(hostname)) return done();
		const answer = respondSynthetic(
			hostname,
			request.method,
			request.url,
			request.headers['accept-encoding'],
		);
		void (async () => {
			if (answer.delayMs && !(await clientStillThere(answer.delayMs, reply.raw))) return;
			reply.code(answer.status).headers(answer.headers).send(answer.body);
		})();
	});
}

/** How long the synthetic web's own server keeps an idle connection. */
export const SYNTHETIC_WEB_KEEP_ALIVE_MS = 30000;

/** A bare HTTP server of the synthetic web (what the helper process runs). */
export function startSyntheticWebServer(): Promise<{ port: number; server: http.Server }> {
	const server = http.createServer((request, response) => {
		const answer = respondSynthetic(
			hostnameOf(request.headers.host),
			request.method ?? 'GET',
			request.url ?? '/',
			request.headers['accept-encoding'],
		);
		const send = () =>
			response
				.writeHead(answer.status, answer.headers)
				.end(request.method === 'HEAD' ? undefined : answer.body);
		if (!answer.delayMs) send();
		else void clientStillThere(answer.delayMs, response).then((there) => there && send());
	});
	server.keepAliveTimeout = SYNTHETIC_WEB_KEEP_ALIVE_MS;
	// A scan of 1,000 websites opens up to as many connections at once: with the default backlog
	// (511) the rest are dropped and retried by the kernel a second later, past the scan time-out.
	return new Promise((resolve) =>
		server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () =>
			resolve({ port: (server.address() as AddressInfo).port, server }),
		),
	);
}
