import type { FastifyInstance } from 'fastify';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { isSyntheticHost, respondSynthetic } from './respond.cjs';

/**
 * The synthetic web, served as virtual hosts: business websites under the reserved `.test` names
 * and a stand-in for the tag manager's host. The public port serves them (for the scan CLI and
 * demos); the in-process scanner uses a dedicated server on a worker thread (see worker.cts).
 * The scanner reaches both through its host mapping, never through DNS.
 */
export { isSyntheticHost, TAG_MANAGER_HOST } from './respond.cjs';

function hostnameOf(header: string | undefined): string {
	return (header ?? '').toLowerCase().replace(/:\d+$/, '');
}

export function registerSyntheticWeb(app: FastifyInstance): void {
	app.addHook('onRequest', async (request, reply) => {
		const hostname = hostnameOf(request.headers.host);
		if (!isSyntheticHost(hostname)) return;
		const answer = respondSynthetic(hostname, request.method, request.url);
		if (answer.delayMs) {
			const gone = await new Promise<boolean>((resolve) => {
				const timer = setTimeout(() => resolve(false), answer.delayMs);
				request.raw.on('close', () => {
					clearTimeout(timer);
					resolve(true);
				});
			});
			if (gone) return reply;
		}
		return reply.code(answer.status).headers(answer.headers).send(answer.body);
	});
}

/** A bare HTTP server of the synthetic web (what the worker thread runs). */
export function startSyntheticWebServer(): Promise<{ port: number; server: http.Server }> {
	const server = http.createServer((request, response) => {
		const answer = respondSynthetic(hostnameOf(request.headers.host), request.method ?? 'GET', request.url ?? '/');
		const send = () => response.writeHead(answer.status, answer.headers).end(request.method === 'HEAD' ? undefined : answer.body);
		if (!answer.delayMs) {
			send();
			return;
		}
		const timer = setTimeout(send, answer.delayMs);
		request.on('close', () => clearTimeout(timer));
	});
	server.keepAliveTimeout = 30000;
	return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ port: (server.address() as AddressInfo).port, server })));
}
