/**
 * The proxy every request of a worker's n8n to another host goes through (HTTP_PROXY and
 * HTTPS_PROXY), in place of a closed port: a plain request arrives with its full URL; an HTTPS
 * one tunnels through CONNECT and is opened here with a certificate of this run's own authority
 * (authority.cts), which that n8n alone trusts (NODE_EXTRA_CA_CERTS). Either way the running
 * case's mocks answer it (MockSet), and nothing leaves the machine. It listens on loopback only.
 * Node's own HTTP server does the parsing: a request costs about a millisecond beyond its TLS
 * handshake (bench/README.md).
 */
import { writeFileSync } from 'node:fs';
import {
	createServer,
	type IncomingMessage,
	type OutgoingHttpHeaders,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import { TLSSocket } from 'node:tls';
import { gunzipSync, inflateSync } from 'node:zlib';
import { Authority } from './authority.cjs';
import { type Exchange, masked, parsedBody, queryOf } from './exchange.cjs';
import type { MockSet } from './mock-set.cjs';

/** The start of what the proxy answers a request no mock answers (a node's error shows it). */
export const NO_MOCK = 'No mock of the workflow test answers';

/** n8n's own services (telemetry, templates, versions): never a case's request, answered no. */
const N8N_HOSTS = /(^|\.)n8n\.(io|cloud)$/;

export class MockProxy {
	/** The running case's mocks; none between cases. */
	private current?: MockSet;
	/**
	 * Times out n8n's client requests waiting for this request, as their time-outs would when its
	 * answer never comes (n8n's clock does it in n8n's processes): how many it found.
	 */
	timeOut: (exchange: Exchange) => Promise<number> = async () => 0;
	/** The host (and port) each opened tunnel was made to, by its TLS socket. */
	private readonly tunnels = new WeakMap<Duplex, string>();
	/** Every connection, closed with the proxy. */
	private readonly sockets = new Set<Duplex>();

	private constructor(
		private readonly server: Server,
		private readonly authority: Authority,
		private readonly caFile: string,
	) {}

	static async start(dir: string): Promise<MockProxy> {
		const authority = await Authority.create('n8n workflow tests (this run only)');
		const caFile = join(dir, 'mock-proxy-ca.pem');
		writeFileSync(caFile, authority.certPem);
		const server = createServer();
		const proxy = new MockProxy(server, authority, caFile);
		server.on('connection', (socket: Socket) => proxy.track(socket));
		server.on('request', (request: IncomingMessage, response: ServerResponse) => {
			void proxy.handle(request, response).catch(() => request.socket.destroy());
		});
		server.on('connect', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
			void proxy.tunnel(request, socket, head).catch(() => socket.destroy());
		});
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(0, '127.0.0.1', resolve);
		});
		return proxy;
	}

	/** What n8n is started with: every outside request through the proxy, its authority trusted. */
	get n8nEnv(): Record<string, string> {
		const url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
		return {
			HTTP_PROXY: url,
			HTTPS_PROXY: url,
			http_proxy: url,
			https_proxy: url,
			NO_PROXY: '127.0.0.1,localhost,::1',
			no_proxy: '127.0.0.1,localhost,::1',
			NODE_EXTRA_CA_CERTS: this.caFile,
			// Node's own clients honour the proxy too where Node can (fetch from 22.21 and 24, its
			// global HTTP agents from 24.5): a request by fetch, which ignores HTTP_PROXY otherwise,
			// reaches the mocks instead of the world. Older Node ignores it.
			NODE_USE_ENV_PROXY: '1',
		};
	}

	/** The case's mocks answer from now on (undefined: none, between cases). */
	use(mocks: MockSet | undefined): void {
		this.current = mocks;
	}

	async close(): Promise<void> {
		for (const socket of this.sockets) socket.destroy();
		await new Promise((resolve) => this.server.close(resolve));
	}

	private track(socket: Duplex): void {
		this.sockets.add(socket);
		socket.once('close', () => this.sockets.delete(socket));
	}

	/** A CONNECT to host:port: the tunnel opened with a certificate for that host. */
	private async tunnel(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
		const target = request.url ?? '';
		const host = new URL(`https://${target}`).hostname.replace(/^\[|\]$/g, '');
		const secureContext = await this.authority.contextFor(host);
		socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
		if (head.length) socket.unshift(head);
		const secure = new TLSSocket(socket as Socket, {
			isServer: true,
			secureContext,
			ALPNProtocols: ['http/1.1'],
		});
		secure.on('error', () => secure.destroy());
		this.tunnels.set(secure, target);
		this.track(secure);
		this.server.emit('connection', secure);
	}

	private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const tunnel = this.tunnels.get(request.socket);
		const url = tunnel
			? new URL(request.url ?? '/', `https://${tunnel}`)
			: URL.canParse(request.url ?? '')
				? new URL(request.url!)
				: undefined;
		if (!url) return void sendJson(response, 400, { message: 'not a proxied request' });
		const body = decoded(await bodyOf(request), request.headers['content-encoding']);
		const mocks = this.current;
		if (!mocks || N8N_HOSTS.test(url.hostname))
			return void sendJson(response, 503, {
				message: 'no test case is running: requests to other services are not sent',
			});
		const headers = Object.fromEntries(
			Object.entries(request.headers).map(([name, value]) => [
				name,
				Array.isArray(value) ? value.join(', ') : String(value ?? ''),
			]),
		);
		const exchange: Exchange = {
			method: (request.method ?? 'GET').toUpperCase(),
			url: url.href,
			host: url.host,
			path: url.pathname,
			query: queryOf(url.searchParams),
			headers,
			body: parsedBody(headers['content-type'], body.toString('utf8')),
		};
		const answer = mocks.answer(exchange);
		if (answer?.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
		if (!answer)
			return void sendJson(response, 501, {
				message: `${NO_MOCK} ${exchange.method} ${masked(exchange, mocks.secrets).url}: add one to the test file's mocks`,
			});
		if ('drop' in answer) return void request.socket.destroy();
		if ('never' in answer) {
			// The client's time-out passes at once (it has gone when this resolves); one with no
			// time-out would wait forever, which the case fails on: both connections are closed.
			exchange.timedOut = (await this.timeOut(exchange)) > 0;
			return void request.socket.destroy();
		}
		// Its length said, as services do (a test's own content-length, or transfer-encoding, kept).
		const sentHeaders: OutgoingHttpHeaders = { ...answer.headers };
		const named = (name: string) => Object.keys(sentHeaders).some((h) => h.toLowerCase() === name);
		if (!named('content-length') && !named('transfer-encoding'))
			sentHeaders['content-length'] = answer.body?.length ?? 0;
		response.writeHead(answer.status, sentHeaders);
		response.end(answer.body);
	}
}

const sendJson = (response: ServerResponse, status: number, json: unknown): void => {
	response.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify(json));
};

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
	const chunks: Buffer[] = [];
	for await (const chunk of request) chunks.push(chunk as Buffer);
	return Buffer.concat(chunks);
}

/** A request body as sent before its content-encoding (a client may gzip what it sends). */
function decoded(body: Buffer, encoding: string | undefined): Buffer {
	try {
		if (encoding === 'gzip') return gunzipSync(body);
		if (encoding === 'deflate') return inflateSync(body);
	} catch {
		// Not what it says it is: read as sent.
	}
	return body;
}
