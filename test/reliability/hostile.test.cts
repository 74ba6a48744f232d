import net from 'node:net';
import { startServer, type TestServer } from '../helpers/server.cjs';
import { WAIT_MS, waitUntil } from '../helpers/wait.cjs';

/**
 * Clients that do not play by HTTP's expectations: a body trickled a byte at a time, a body far
 * larger than it said, headers that never end. Each gets a clear answer or a closed connection in
 * bounded time, and the server keeps answering everyone else. (Deep JSON: foundation.test.cts;
 * outbound connections: inboxes/connection-test.test.cts.)
 */
describe('hostile clients', () => {
	let server: TestServer;
	let port: number;
	beforeAll(async () => {
		server = await startServer({ log: false, requestTimeout: 2000 });
		port = Number(new URL(server.url).port);
	});
	afterAll(() => server.close());

	/** Opens a raw connection, writes `head`, then one byte every `everyMs`; resolves on close. */
	function trickle(head: string, everyMs: number, onSocket?: (socket: net.Socket) => void) {
		return new Promise<{ answer: string; heldMs: number }>((resolve) => {
			const started = performance.now();
			const socket = net.connect(port, '127.0.0.1');
			onSocket?.(socket);
			let answer = '';
			socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
			socket.on('error', () => undefined);
			socket.write(head);
			const timer = setInterval(() => socket.writable && socket.write(' '), everyMs);
			socket.on('close', () => {
				clearInterval(timer);
				resolve({ answer, heldMs: Math.round(performance.now() - started) });
			});
		});
	}

	it('answers a body sent one byte at a time with 408 in the decided body, and closes', async () => {
		const { answer, heldMs } = await trickle(
			`POST /api/v1/niche-finder-leads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.devKey}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
			200,
		);
		process.stdout.write(`slow body held open ${heldMs} ms with --request-timeout 2000\n`);
		expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
		expect(JSON.parse(answer.split('\r\n\r\n')[1])).toEqual({
			error:
				'The request was not received within 2 s; send the headers and the whole body at once.',
		});
	});

	it('closes a connection whose headers never end', async () => {
		const { answer } = await trickle('GET /api/v1/pools HTTP/1.1\r\nHost: x\r\nX-Slow: a', 200);
		expect(answer).toMatch(/^HTTP\/1\.1 408 /);
	});

	/** Writes `head` on a raw connection, then `body` chunks while it stays open; resolves on close. */
	function send(head: string, chunks: Iterable<string>) {
		return new Promise<string>((resolve) => {
			const socket = net.connect(port, '127.0.0.1');
			let answer = '';
			socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
			socket.on('error', () => undefined);
			socket.on('close', () => resolve(answer));
			socket.write(head);
			const iterator = chunks[Symbol.iterator]();
			const pump = () => {
				for (;;) {
					if (socket.destroyed || answer) return;
					const next = iterator.next();
					if (next.done) return;
					if (!socket.write(next.value)) return void socket.once('drain', pump);
				}
			};
			pump();
		});
	}

	it('answers 413 at once when Content-Length says more than the limit, before any body', async () => {
		const answer = await send(
			`POST /api/v1/niche-finder-leads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.devKey}\r\nContent-Type: application/json\r\nContent-Length: ${64 * 1024 * 1024}\r\n\r\n`,
			['{"niche":"'],
		);
		expect(answer).toMatch(/^HTTP\/1\.1 413 /);
		expect(JSON.parse(answer.split('\r\n\r\n')[1]).error).toMatch(/larger than \d+ MiB/);
	});

	it('answers 413 to a body sent chunked, with no Content-Length, once it passes the limit', async () => {
		// An endless chunked body: the server must stop reading it, not wait for its end.
		function* endless() {
			yield '10000\r\n{"niche":"' + 'x'.repeat(0x10000 - 10) + '\r\n';
			for (;;) yield '10000\r\n' + 'x'.repeat(0x10000) + '\r\n';
		}
		const answer = await send(
			`POST /api/v1/niche-finder-leads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.devKey}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
			endless(),
		);
		expect(answer).toMatch(/^HTTP\/1\.1 413 /);
		expect(JSON.parse(answer.split('\r\n\r\n')[1]).error).toMatch(/larger than 1 MiB/);
	});

	it('keeps answering other clients while slow ones are held', async () => {
		// The server has read the headers of every slow client (its 'request' event) and waits on
		// their bodies: only then is the probe sent.
		const held = new Set<number>();
		const onRequest = (request: { socket: net.Socket }) => held.add(request.socket.remotePort!);
		server.app.server.on('request', onRequest);
		const ports: number[] = [];
		const slow = Array.from({ length: 20 }, () =>
			trickle(
				'POST /api/v1/inboxes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n[',
				300,
				(socket) => socket.once('connect', () => ports.push(socket.localPort!)),
			),
		);
		await waitUntil(
			() => ports.length === 20 && ports.every((p) => held.has(p)),
			WAIT_MS,
			'the server to read the headers of the 20 slow clients',
			10,
		);
		server.app.server.off('request', onRequest);
		const pools = await server.call('GET', '/api/v1/pools');
		expect(pools.status).toBe(200);
		const closed = await Promise.all(slow);
		expect(closed.map((c) => c.answer.slice(0, 13))).toEqual(Array(20).fill('HTTP/1.1 408 '));
	});
});
