import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { n8nFetch } from '../../n8n-testkit/src/n8n/rest.cjs';

/**
 * n8n answers any request 503 "Database is not ready!" while its last database ping failed (a
 * busy machine makes one time out), before any route: the runner sends the request again, body
 * and all, and hands on the first other answer. Any other 503 is n8n's or the workflow's answer.
 */
describe("the runner's requests to n8n, past its database hiccups", () => {
	let server: Server;
	let url: string;
	const received: string[] = [];
	let notReady = 0;
	let otherAnswer: { status: number; body: string } | undefined;
	let resets = 0;

	beforeAll(async () => {
		server = createServer((req, res) => {
			let body = '';
			req.on('data', (chunk: Buffer) => (body += chunk.toString()));
			req.on('end', () => {
				received.push(`${req.method} ${body}`);
				if (resets > 0) {
					resets--;
					req.socket.destroy();
				} else if (notReady > 0) {
					notReady--;
					res.writeHead(503, { 'content-type': 'application/json' });
					res.end(JSON.stringify({ code: 503, message: 'Database is not ready!' }));
				} else if (otherAnswer) {
					res.writeHead(otherAnswer.status, { 'content-type': 'application/json' });
					res.end(otherAnswer.body);
				} else {
					res.writeHead(200, { 'content-type': 'application/json' });
					res.end(JSON.stringify({ data: { got: body } }));
				}
			});
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rest/workflows`;
	});
	afterAll(() => new Promise((resolve) => server.close(resolve)));
	beforeEach(() => {
		received.length = 0;
		notReady = 0;
		otherAnswer = undefined;
		resets = 0;
	});

	const post = () => n8nFetch(url, { method: 'POST', body: '{"name":"Dentists"}' });

	it('sends a request again, body and all, until n8n answers otherwise, and hands on that answer', async () => {
		notReady = 2;
		const answer = await post();
		expect(answer.status).toBe(200);
		expect(await answer.json()).toEqual({ data: { got: '{"name":"Dentists"}' } });
		expect(received).toEqual(Array(3).fill('POST {"name":"Dentists"}'));
	});

	it('hands on any other 503 at once, body unread', async () => {
		otherAnswer = { status: 503, body: '{"message":"The workflow answered 503"}' };
		const answer = await post();
		expect(answer.status).toBe(503);
		expect(await answer.text()).toBe('{"message":"The workflow answered 503"}');
		expect(received).toHaveLength(1);
	});

	it('sends a GET again when the connection is reset before an answer, never a POST', async () => {
		resets = 1;
		const answer = await n8nFetch(url);
		expect(answer.status).toBe(200);
		expect(received).toEqual(['GET ', 'GET ']);
		received.length = 0;
		resets = 1;
		await expect(post()).rejects.toThrow('fetch failed');
		expect(received).toEqual(['POST {"name":"Dentists"}']);
	});
});
