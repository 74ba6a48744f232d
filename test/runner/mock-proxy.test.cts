import { readFileSync, mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { gzipSync } from 'node:zlib';
import type { MockSpec } from '../../n8n-testkit/src/file/schema.cjs';
import { MockSet } from '../../n8n-testkit/src/http-mocks/mock-set.cjs';
import { MockProxy } from '../../n8n-testkit/src/http-mocks/proxy.cjs';

/**
 * The proxy n8n's requests go through, driven the way n8n's HTTP clients drive it: a plain request
 * with its full URL, and HTTPS through a CONNECT tunnel, trusted only by the run's own authority.
 * Each is answered by the running case's mocks and kept in its journal as sent; nothing is
 * answered between cases; a request no mock answers gets the 501 a node's error shows.
 */
interface Answered {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: string;
}

/** A plain request through the proxy, as a client honouring HTTP_PROXY sends it. */
function viaProxy(
	proxy: string,
	url: string,
	options: { method?: string; headers?: Record<string, string>; body?: Buffer | string } = {},
): Promise<Answered> {
	const { hostname, port } = new URL(proxy);
	return new Promise((resolve, reject) => {
		const req = httpRequest(
			{
				host: hostname,
				port,
				path: url,
				method: options.method ?? 'GET',
				headers: options.headers,
			},
			(res) => {
				let body = '';
				res.on('data', (c: Buffer) => (body += c.toString()));
				res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
			},
		);
		req.on('error', reject);
		req.end(options.body);
	});
}

/** An HTTPS request through a CONNECT tunnel, trusting only the given authority. */
function viaTunnel(proxy: string, url: string, ca: string, body?: string): Promise<Answered> {
	const { hostname, port } = new URL(proxy);
	const target = new URL(url);
	return new Promise((resolve, reject) => {
		const tunnel = httpRequest({
			host: hostname,
			port,
			method: 'CONNECT',
			path: `${target.hostname}:443`,
		});
		tunnel.on('connect', (res, socket) => {
			if (res.statusCode !== 200) return reject(new Error(`CONNECT ${res.statusCode}`));
			const secure = connect({ socket, servername: target.hostname, ca }, () => {
				const lines = [
					`${body ? 'POST' : 'GET'} ${target.pathname}${target.search} HTTP/1.1`,
					`Host: ${target.hostname}`,
					'Connection: close',
					...(body
						? ['Content-Type: application/json', `Content-Length: ${Buffer.byteLength(body)}`]
						: []),
					'',
					body ?? '',
				];
				secure.write(lines.join('\r\n'));
			});
			let raw = '';
			secure.on('data', (c: Buffer) => (raw += c.toString()));
			secure.on('end', () => {
				const [head, ...rest] = raw.split('\r\n\r\n');
				resolve({ status: Number(head.split(' ')[1]), headers: {}, body: rest.join('\r\n\r\n') });
			});
			secure.on('error', reject);
		});
		tunnel.on('error', reject);
		tunnel.end();
	});
}

describe('the proxy real nodes send their requests through', () => {
	let proxy: MockProxy;
	let url: string;
	let ca: string;
	beforeAll(async () => {
		proxy = await MockProxy.start(mkdtempSync(join(tmpdir(), 'mock-proxy-')));
		url = proxy.n8nEnv.HTTPS_PROXY;
		ca = readFileSync(proxy.n8nEnv.NODE_EXTRA_CA_CERTS, 'utf8');
	});
	afterAll(() => proxy.close());

	const mocks = (...specs: MockSpec[]) =>
		new MockSet(specs.map((spec, i) => ({ spec, at: `mocks.${i}` })));

	it('listens on loopback only, and answers nothing between cases', async () => {
		expect(new URL(url).hostname).toBe('127.0.0.1');
		proxy.use(undefined);
		const answered = await viaProxy(url, 'http://crm.example.test/api/v1/contacts');
		expect(answered.status).toBe(503);
	});

	it('answers a plain request and an HTTPS one from the case mocks, keeping each as sent', async () => {
		const set = mocks({
			request: { method: 'POST', url: '/crm\\.example\\.test\\/api\\/v1\\/contacts$/' },
			answer: {
				status: 201,
				json: { id: 'crm:{{request.body.email}}' },
				headers: { 'x-trace': 't1' },
			},
		});
		proxy.use(set);
		const plain = await viaProxy(url, 'http://crm.example.test/api/v1/contacts', {
			method: 'POST',
			headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
			body: gzipSync(JSON.stringify({ email: 'a@b.test' })),
		});
		expect(plain).toMatchObject({ status: 201, headers: { 'x-trace': 't1' } });
		expect(JSON.parse(plain.body)).toEqual({ id: 'crm:a@b.test' });
		// HTTPS: the tunnel is opened with a certificate for the host, signed by the run's authority.
		const secure = await viaTunnel(
			url,
			'https://crm.example.test/api/v1/contacts',
			ca,
			JSON.stringify({ email: 'c@d.test' }),
		);
		expect(secure.status).toBe(201);
		expect(JSON.parse(secure.body)).toEqual({ id: 'crm:c@d.test' });
		expect(set.journal.map((e) => [e.method, e.url, e.body, e.status])).toEqual([
			['POST', 'http://crm.example.test/api/v1/contacts', { email: 'a@b.test' }, 201],
			['POST', 'https://crm.example.test/api/v1/contacts', { email: 'c@d.test' }, 201],
		]);
	});

	it("refuses a tunnel the client does not trust: the authority is the run's own", async () => {
		proxy.use(mocks({ request: { url: 'https://crm.example.test/x' }, answer: { status: 204 } }));
		const other = await MockProxy.start(mkdtempSync(join(tmpdir(), 'mock-proxy-')));
		const otherCa = readFileSync(other.n8nEnv.NODE_EXTRA_CA_CERTS, 'utf8');
		await other.close();
		await expect(viaTunnel(url, 'https://crm.example.test/x', otherCa)).rejects.toThrow(
			/certificate/,
		);
	});

	it('answers 501 naming the request no mock answers, its secrets masked; never times the client out', async () => {
		const set = mocks({
			request: { url: 'http://slow.example.test/score' },
			answer: { never: true },
		});
		set.secrets = ['tok-123456'];
		proxy.use(set);
		const missed = await viaProxy(url, 'http://api.example.test/bottok-123456/send?key=tok-123456');
		expect(missed.status).toBe(501);
		expect(JSON.parse(missed.body).message).toBe(
			"No mock of the workflow test answers GET http://api.example.test/bot***/send?key=***: add one to the test file's mocks",
		);
		// A mock that never answers asks n8n's clock to time the waiting client out, then closes.
		const asked: string[] = [];
		proxy.timeOut = async (exchange) => (asked.push(exchange.url), 1);
		await expect(viaProxy(url, 'http://slow.example.test/score')).rejects.toThrow(/socket hang up/);
		expect(asked).toEqual(['http://slow.example.test/score']);
		expect(set.journal[1]).toMatchObject({ never: true, timedOut: true });
	});
});
