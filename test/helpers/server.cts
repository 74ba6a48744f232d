import { buildServer, type RunningServer, type ServerOptions } from '../../mock-server/src/app.cjs';
import { defaultConfig, type ServerConfig } from '../../mock-server/src/core/config.cjs';

export interface TestServer extends RunningServer {
	logs: string[];
	/** How many API requests with this method and path the server has logged so far. */
	requestCount(method: string, path: string): number;
	/** Calls the server; `key` becomes the bearer token (pass null for none). */
	call(
		method: string,
		path: string,
		options?: {
			key?: string | null;
			body?: unknown;
			rawBody?: string;
			headers?: Record<string, string>;
		},
	): Promise<{ status: number; headers: Headers; body: any }>;
	admin(
		method: string,
		path: string,
		body?: unknown,
	): Promise<{ status: number; headers: Headers; body: any }>;
	/** Creates `count` inboxes for the key (batches of 100, no connection test): uses its hourly quota. */
	fillInboxes(apiKey: string, count: number, prefix?: string): Promise<void>;
	newAccount(input?: {
		credits?: number;
		active?: boolean;
		permissions?: string[];
	}): Promise<{ accountId: string; apiKey: string }>;
}

/** The defaults a user gets, on a database in memory, a free port and two scanner threads. */
export const TEST_CONFIG: ServerConfig = {
	...defaultConfig(),
	port: 0,
	db: ':memory:',
	scanThreads: 2,
};

/** Starts the reference server in-process on a free loopback port, capturing its log lines. */
export async function startServer(
	config: Partial<ServerConfig> = {},
	options: ServerOptions = {},
): Promise<TestServer> {
	const logs: string[] = [];
	const running = await buildServer(
		{ ...TEST_CONFIG, ...config },
		{ logSink: (line) => logs.push(line), ...options },
	).listen();
	const call: TestServer['call'] = async (method, path, opts = {}) => {
		const headers: Record<string, string> = { ...(opts.headers ?? {}) };
		const key = opts.key === undefined ? running.devKey : opts.key;
		if (key !== null) headers.authorization ??= `Bearer ${key}`;
		let body: string | undefined = opts.rawBody;
		if (opts.body !== undefined) {
			body = JSON.stringify(opts.body);
			headers['content-type'] ??= 'application/json';
		}
		const response = await fetch(running.url + path, { method, headers, body });
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			// not JSON (docs page)
		}
		return { status: response.status, headers: response.headers, body: parsed };
	};
	const admin: TestServer['admin'] = (method, path, body) =>
		call(method, `/__admin${path}`, { key: running.adminToken, body });
	return {
		...running,
		logs,
		requestCount: (method, path) =>
			logs.filter((line) => line.includes(`"method":"${method}","path":"${path}"`)).length,
		call,
		admin,
		async fillInboxes(apiKey, count, prefix = 'fill') {
			for (let start = 0; start < count; start += 100) {
				const body = Array.from({ length: Math.min(100, count - start) }, (_, i) => ({
					emailAddress: `${prefix}${start + i}@gmail.com`,
					imapPassword: 'pw',
					skipConnectionTest: true,
				}));
				const res = await call('POST', '/api/v1/inboxes', { key: apiKey, body });
				if (res.status !== 200)
					throw new Error(`filling inboxes failed: ${JSON.stringify(res.body)}`);
			}
		},
		async newAccount(input = {}) {
			const res = await admin('POST', '/accounts', input);
			if (res.status !== 201)
				throw new Error(`account creation failed: ${JSON.stringify(res.body)}`);
			return res.body;
		},
	};
}

/**
 * The reference server as a proxy in front of `upstream` (a stand-in service), forwarding both
 * services with charges and changes allowed.
 */
export const startProxyFor = (upstream: string, config: Partial<ServerConfig> = {}) =>
	startServer({
		proxyLeads: upstream,
		proxyInboxes: `${upstream}/api/v1`,
		proxyAllowCharges: true,
		proxyAllowChanges: true,
		...config,
	});
