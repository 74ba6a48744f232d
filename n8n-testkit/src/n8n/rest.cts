/*
 * n8n's REST API as its editor calls it, for a running n8n: the owner set up as on the first
 * visit, a session, calls with its cookie. The same calls on 1.123, 2.8 and 2.40.
 */

export interface Owner {
	email: string;
	password: string;
}

/**
 * A REST call. Its answer's body is n8n's JSON, whose shape differs between lines and endpoints:
 * each caller states the part it reads.
 */
export type Rest = (
	method: string,
	path: string,
	body?: unknown,
	// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
) => Promise<{ status: number; body: any }>;

const HEADERS = { 'content-type': 'application/json', 'browser-id': 'lead-inbox-runner' };

/** Resolves once `condition` holds, looking every `everyMs`; fails naming `what` after `withinMs`. */
export async function until(
	condition: () => boolean | Promise<boolean>,
	withinMs: number,
	what: string,
	everyMs = 20,
): Promise<void> {
	const deadline = Date.now() + withinMs;
	while (!(await condition())) {
		if (Date.now() > deadline)
			throw new Error(`timed out after ${withinMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, everyMs));
	}
}

/**
 * Methods sent again when n8n's end of the connection closed before it answered: a kept-alive
 * connection n8n let go as the request went out (a loaded machine runs the client's idle timer
 * late). Only these: a request that changes something may have reached n8n.
 */
const SAFE_METHODS = new Set(['GET', 'HEAD']);
const RESETS_RETRIED = 2;

const connectionReset = (error: unknown): boolean =>
	['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET'].includes(
		String((error as { cause?: { code?: unknown } }).cause?.code),
	);

/** How long a request is sent again while n8n says its database is not ready. */
const DB_NOT_READY_MS = 2 * 60_000;

/**
 * A request to n8n (its REST API, a webhook, a form): `fetch`, sent again while n8n answers 503
 * "Database is not ready!". n8n answers every request so, before any route, from a database ping
 * that failed (a 5 s time-out, which a busy machine reaches with SQLite on the same disk) until the
 * next one passes, 2 s later: the request reached no route, so sending it again is safe whatever
 * its method. The body must be one fetch can send twice (text, JSON, a form's fields). A GET whose
 * connection was reset before an answer is sent again too.
 */
export async function n8nFetch(url: string, init?: RequestInit): Promise<Response> {
	const deadline = Date.now() + DB_NOT_READY_MS;
	const safe = SAFE_METHODS.has((init?.method ?? 'GET').toUpperCase());
	for (let resets = 0; ; ) {
		let answer: Response;
		try {
			answer = await fetch(url, init);
		} catch (error) {
			if (!safe || resets++ === RESETS_RETRIED || !connectionReset(error)) throw error;
			continue;
		}
		if (answer.status !== 503 || Date.now() > deadline) return answer;
		if (!(await answer.clone().text()).includes('Database is not ready')) return answer;
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
}

/** What n8n's /rest/settings says, the part read here. */
interface Settings {
	data: { userManagement: { showSetupOnFirstLoad: boolean } };
}

/**
 * Waits until n8n's REST API answers, and returns its settings. A container's health check passes
 * once the database is ready, a few seconds before the API is up (until then the editor's page
 * answers every path).
 */
export async function n8nReady(url: string): Promise<Settings> {
	let settings: Settings | undefined;
	await until(
		async () => {
			const res = await fetch(`${url}/rest/settings`).catch(() => undefined);
			if (res?.status !== 200 || !(res.headers.get('content-type') ?? '').includes('json'))
				return false;
			settings = (await res.json()) as Settings;
			return true;
		},
		3 * 60_000,
		`n8n's REST API at ${url}`,
		500,
	);
	return settings!;
}

/** Sets up the owner account (what the first visit's form does). */
export async function setupOwner(url: string, owner: Owner): Promise<void> {
	const setup = await n8nFetch(`${url}/rest/owner/setup`, {
		method: 'POST',
		headers: HEADERS,
		body: JSON.stringify({ ...owner, firstName: 'Lead', lastName: 'Inbox' }),
	});
	if (setup.status !== 200) throw new Error(`owner setup failed: ${await setup.text()}`);
}

/**
 * Signs the owner in, setting the account up first when n8n still asks for one. Returns a caller
 * of `/rest${path}` (or of `path` itself outside the REST API: /types/nodes.json) that sends the
 * session cookie and the browser id n8n ties it to.
 */
export async function signInOwner(url: string, owner: Owner): Promise<Rest> {
	const settings = await n8nReady(url);
	if (settings.data.userManagement.showSetupOnFirstLoad) await setupOwner(url, owner);
	const login = await n8nFetch(`${url}/rest/login`, {
		method: 'POST',
		headers: HEADERS,
		body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
	});
	if (login.status !== 200) throw new Error(`login failed: ${await login.text()}`);
	const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
	return async (method, path, body) => {
		const address = path.startsWith('/types/') ? `${url}${path}` : `${url}/rest${path}`;
		const response = await n8nFetch(address, {
			method,
			headers: { ...HEADERS, cookie },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const text = await response.text();
		let parsed: unknown = text;
		try {
			parsed = text ? JSON.parse(text) : undefined;
		} catch {
			// An HTML error page (a proxy, n8n starting): kept as text for the caller's message.
		}
		return { status: response.status, body: parsed };
	};
}
