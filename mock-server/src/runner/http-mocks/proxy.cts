/**
 * The proxy every request of a worker's n8n to another host goes through (HTTP_PROXY and
 * HTTPS_PROXY), in place of a closed port: HTTPS is opened with a certificate authority made for
 * this run only, which that n8n alone trusts (NODE_EXTRA_CA_CERTS), so a real node's request is
 * read and answered by the running case's mocks, and nothing leaves the machine. Built on mockttp
 * (HTTP Toolkit's interception library): it makes the authority and the hosts' certificates and
 * speaks HTTP/1 and HTTP/2 through CONNECT; the answering is the runner's (MockSet).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CompletedRequest } from 'mockttp';
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

	private constructor(
		private readonly server: import('mockttp').Mockttp,
		private readonly caFile: string,
	) {}

	static async start(dir: string): Promise<MockProxy> {
		const mockttp = await import('mockttp');
		const ca = await mockttp.generateCACertificate({
			subject: { commonName: 'n8n workflow tests (this run only)' },
		});
		const caFile = join(dir, 'mock-proxy-ca.pem');
		writeFileSync(caFile, ca.cert);
		const server = mockttp.getLocal({ https: { key: ca.key, cert: ca.cert }, cors: false });
		await server.start();
		const proxy = new MockProxy(server, caFile);
		await server.forAnyRequest().thenCallback((request) => proxy.handle(request));
		return proxy;
	}

	/** What n8n is started with: every outside request through the proxy, its authority trusted. */
	get n8nEnv(): Record<string, string> {
		const url = `http://127.0.0.1:${this.server.port}`;
		return {
			HTTP_PROXY: url,
			HTTPS_PROXY: url,
			http_proxy: url,
			https_proxy: url,
			NO_PROXY: '127.0.0.1,localhost,::1',
			no_proxy: '127.0.0.1,localhost,::1',
			NODE_EXTRA_CA_CERTS: this.caFile,
		};
	}

	/** The case's mocks answer from now on (undefined: none, between cases). */
	use(mocks: MockSet | undefined): void {
		this.current = mocks;
	}

	async close(): Promise<void> {
		await this.server.stop();
	}

	private async handle(request: CompletedRequest) {
		const url = new URL(request.url);
		const mocks = this.current;
		if (!mocks || N8N_HOSTS.test(url.hostname))
			return {
				statusCode: 503,
				json: { message: 'no test case is running: requests to other services are not sent' },
			};
		const text = (await request.body.getText()) ?? '';
		const headers = Object.fromEntries(
			Object.entries(request.headers).map(([name, value]) => [
				name.toLowerCase(),
				Array.isArray(value) ? value.join(', ') : String(value ?? ''),
			]),
		);
		const exchange: Exchange = {
			method: request.method.toUpperCase(),
			url: request.url,
			host: url.host,
			path: url.pathname,
			query: queryOf(url.searchParams),
			headers,
			body: parsedBody(headers['content-type'], text),
		};
		const answer = mocks.answer(exchange);
		if (answer?.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
		if (!answer)
			return {
				statusCode: 501,
				json: {
					message: `${NO_MOCK} ${exchange.method} ${masked(exchange, mocks.secrets).url}: add one to the test file's mocks`,
				},
			};
		if ('drop' in answer) return 'close' as const;
		if ('never' in answer) {
			// The client's time-out passes at once (it has gone when this resolves); one with no
			// time-out would wait forever, which the case fails on: both connections are closed.
			exchange.timedOut = (await this.timeOut(exchange)) > 0;
			return 'close' as const;
		}
		return { statusCode: answer.status, headers: answer.headers, rawBody: answer.body };
	}
}
