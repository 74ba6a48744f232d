import net from 'node:net';
import { startServer, type TestServer } from '../helpers/server.cjs';

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
	function trickle(head: string, everyMs: number) {
		return new Promise<{ answer: string; heldMs: number }>((resolve) => {
			const started = performance.now();
			const socket = net.connect(port, '127.0.0.1');
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

	it('answers a body larger than the limit with 413, whatever Content-Length claimed', async () => {
		const big = JSON.stringify({ niche: 'x'.repeat(12 * 1024 * 1024), city: 'Austin', count: 1 });
		const res = await server.call('POST', '/api/v1/niche-finder-leads', {
			rawBody: big,
			headers: { 'content-type': 'application/json' },
		});
		expect([res.status, res.body.error]).toEqual([
			413,
			expect.stringMatching(/larger than \d+ MiB/),
		]);
	});

	it('keeps answering other clients while slow ones are held', async () => {
		const slow = Array.from({ length: 20 }, () =>
			trickle(
				'POST /api/v1/inboxes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n[',
				300,
			),
		);
		const pools = await server.call('GET', '/api/v1/pools');
		expect(pools.status).toBe(200);
		const closed = await Promise.all(slow);
		expect(closed.every((c) => c.answer.startsWith('HTTP/1.1 408'))).toBe(true);
	});
});
