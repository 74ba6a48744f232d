import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/*
 * "Another service": a small server that answers the two APIs the way a test tells it to, in any
 * form the specs allow (or that real services behind gateways and proxies commonly use), so the
 * nodes are tried against answers our reference server never gives. It is not the reference
 * server and knows no rules; every answer is scripted by the test. Loopback only.
 */

export interface Reply {
	status?: number;
	headers?: Record<string, string>;
	/** Sent as application/json. */
	json?: unknown;
	/** Sent as is, text/plain unless headers say otherwise. */
	text?: string;
	/** Sent as text/html. */
	html?: string;
	/** Never answer (the request stays open until the client gives up). */
	stall?: boolean;
	/** Close the connection without answering, once the request was read. */
	drop?: boolean;
}

export interface Received {
	method: string;
	path: string;
	query: URLSearchParams;
	headers: IncomingMessage['headers'];
	/** The parsed JSON body, undefined when there was none. */
	body: unknown;
}

export type Handler = (request: Received, seen: number) => Reply | Promise<Reply>;

export interface OtherService {
	url: string;
	credentials: (apiKey?: string) => { apiKey: string; leadsBaseUrl: string; inboxBaseUrl: string };
	/** Answers `METHOD /path` (path without query) with a reply, or a function of the request. */
	on: (route: string, reply: Reply | Handler) => void;
	/** Forgets every route and every request seen. */
	reset: () => void;
	requests: Received[];
	close: () => Promise<void>;
}

const API_KEY = 'other-service-key-123';

/** An unknown path answers as Express does by default: an HTML page. */
const NO_ROUTE = (request: Received): Reply => ({
	status: 404,
	html: `<!DOCTYPE html><html><head><title>Error</title></head><body><pre>Cannot ${request.method} ${request.path}</pre></body></html>`,
});

export async function startOtherService(): Promise<OtherService> {
	const routes = new Map<string, Handler>();
	const counts = new Map<string, number>();
	const requests: Received[] = [];
	const sockets = new Set<Socket>();

	const send = (res: ServerResponse, reply: Reply) => {
		if (reply.drop) {
			res.socket?.destroy();
			return;
		}
		if (reply.stall) return;
		const headers: Record<string, string> = { ...(reply.headers ?? {}) };
		let body = '';
		if (reply.json !== undefined) {
			headers['content-type'] ??= 'application/json';
			body = JSON.stringify(reply.json);
		} else if (reply.html !== undefined) {
			headers['content-type'] ??= 'text/html; charset=utf-8';
			body = reply.html;
		} else if (reply.text !== undefined) {
			headers['content-type'] ??= 'text/plain; charset=utf-8';
			body = reply.text;
		}
		res.writeHead(reply.status ?? 200, headers);
		res.end(body);
	};

	const server: Server = createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => void answer());
		const answer = async () => {
			const url = new URL(req.url ?? '/', 'http://127.0.0.1');
			const text = Buffer.concat(chunks).toString('utf8');
			let body: unknown;
			try {
				body = text ? JSON.parse(text) : undefined;
			} catch {
				body = text;
			}
			const received: Received = {
				method: req.method ?? 'GET',
				path: url.pathname,
				query: url.searchParams,
				headers: req.headers,
				body,
			};
			requests.push(received);
			const route = `${received.method} ${received.path}`;
			const seen = counts.get(route) ?? 0;
			counts.set(route, seen + 1);
			const handler = routes.get(route);
			try {
				send(res, handler ? await handler(received, seen) : NO_ROUTE(received));
			} catch (error) {
				send(res, { status: 599, text: `test handler failed: ${(error as Error).message}` });
			}
		};
	});
	server.on('connection', (socket) => {
		sockets.add(socket);
		socket.on('close', () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		url,
		credentials: (apiKey = API_KEY) => ({
			apiKey,
			leadsBaseUrl: url,
			inboxBaseUrl: `${url}/api/v1`,
		}),
		on: (route, reply) => routes.set(route, typeof reply === 'function' ? reply : () => reply),
		reset: () => {
			routes.clear();
			counts.clear();
			requests.length = 0;
		},
		requests,
		close: async () => {
			for (const socket of sockets) socket.destroy();
			await new Promise<void>((resolve) => server.close(() => resolve()));
		},
	};
}
