import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	assertHarmless,
	type ProbeRequest,
	runProbe,
	UnsafeProbeRequest,
} from '../../mock-server/src/proxy/index.cjs';
import { type OtherService, startOtherService } from '../helpers/other-service.cjs';
import { startServer } from '../helpers/server.cjs';
import { withTempDir } from '../helpers/temp-dir.cjs';

/*
 * The divergence report for CI: written on SIGTERM as JSON and Markdown, the exit status set by
 * --fail-on; and the probe, which asks a real account only what charges nothing and changes
 * nothing, whatever the service does with it.
 */

const CLI = join(__dirname, '../../mock-server/src/cli.cts');

interface Ran {
	code: number | null;
	stdout: string;
	stderr: string;
}

/** The CLI as a process of its own; `whenReady` is called once with what it printed. */
function cli(
	args: string[],
	env: NodeJS.ProcessEnv = {},
	whenReady?: (stdout: string, stop: () => void) => void,
) {
	return new Promise<Ran>((resolve) => {
		const child = spawn(process.execPath, ['--import', 'tsx', CLI, ...args], {
			stdio: ['ignore', 'pipe', 'pipe'],
			env: { ...process.env, LEAD_INBOX_API_KEY: '', ...env },
		});
		let stdout = '';
		let stderr = '';
		let told = false;
		child.stdout.on('data', (chunk) => {
			stdout += chunk;
			if (!told && whenReady && stdout.includes('admin token:')) {
				told = true;
				whenReady(stdout, () => child.kill('SIGTERM'));
			}
		});
		child.stderr.on('data', (chunk) => (stderr += chunk));
		child.on('exit', (code) => resolve({ code, stdout, stderr }));
	});
}

const urlOf = (banner: string) => /listening on (http:\/\/\S+)/.exec(banner)![1];

let service: OtherService;
beforeAll(async () => {
	service = await startOtherService();
});
afterEach(() => service.reset());
afterAll(() => service.close());

/** A stand-in whose pools break the spec (inboxCount as text) and whose 401 has no challenge. */
function answerWithDivergences(kind: 'breaks' | 'open') {
	service.on('GET /api/v1/pools', (request) =>
		request.headers.authorization === 'Bearer stand-in-key-123456'
			? {
					json: {
						pools: [
							{
								id: 'p1',
								name: 'A',
								inboxCount: kind === 'breaks' ? '3' : 3,
								createdAt: '2026-11-01T00:00:00Z',
							},
						],
					},
				}
			: { status: 401, json: { error: 'Invalid API key' } },
	);
}

/** Every service the probes meet here answers: their time-out only bounds a hang, on a loaded machine. */
const ANSWERS_MS = 2 * 60_000;

describe('--divergence-report and --fail-on', () => {
	const proxied = (args: string[], request: (url: string) => Promise<unknown>) =>
		cli(
			[
				'--db',
				':memory:',
				'--log',
				'off',
				'--port',
				'0',
				'--proxy-inboxes',
				`${service.url}/api/v1`,
				...args,
			],
			{},
			(stdout, stop) => void request(urlOf(stdout)).then(stop),
		);
	const pools = (key: string) => async (url: string) =>
		(await fetch(`${url}/api/v1/pools`, { headers: { authorization: `Bearer ${key}` } })).text();

	it('writes the report as JSON and Markdown on SIGTERM, and exits 3 when --fail-on breaks-spec is met', () =>
		withTempDir('divergence-report-', async (dir) => {
			answerWithDivergences('breaks');
			const file = join(dir, 'divergences.json');
			const ran = await proxied(
				['--divergence-report', file, '--fail-on', 'breaks-spec'],
				pools('stand-in-key-123456'),
			);
			expect([ran.code, ran.stderr]).toEqual([3, '']);
			expect(ran.stdout).toContain('SIGTERM received');
			expect(ran.stdout).toContain(`Divergence report written to ${file}`);
			const report = JSON.parse(readFileSync(file, 'utf8'));
			expect(report).toMatchObject({
				exchanges: 1,
				counts: { 'breaks-spec': 1, 'open-point': 0, 'beyond-spec': 0 },
				divergences: [{ class: 'breaks-spec', kind: 'number-as-text', seen: '"3" (text)' }],
			});
			const markdown = readFileSync(join(dir, 'divergences.md'), 'utf8');
			expect(markdown).toMatch(/^# Divergences from the specs/);
			expect(markdown).toContain(
				'| 1 | breaks-spec | `GET /api/v1/pools` | number sent as text | "3" (text) | 1 | handled |',
			);
		}));

	it('exits 0 under --fail-on breaks-spec when only an open point was seen, and 3 under --fail-on open-point', async () => {
		answerWithDivergences('open');
		const wrongKey = pools('lik_wrong_key_0000000000');
		const lenient = await proxied(['--fail-on', 'breaks-spec'], wrongKey);
		expect(lenient.code).toBe(0);
		expect(lenient.stdout).toMatch(/\[open-point\] GET \/api\/v1\/pools: WWW-Authenticate: absent/);
		const strict = await proxied(['--fail-on', 'open-point'], wrongKey);
		expect(strict.code).toBe(3);
		expect(strict.stdout).toContain(
			'Exit status 3: a divergence of class open-point or worse was seen (--fail-on).',
		);
	});

	it('refuses the report options without a proxy, and a folder that does not exist, before starting', async () => {
		const alone = await cli(['--db', ':memory:', '--fail-on', 'breaks-spec']);
		expect([alone.code, alone.stderr]).toEqual([
			2,
			expect.stringContaining('--fail-on reports on the answers of proxied services'),
		]);
		const nowhere = await cli([
			'--db',
			':memory:',
			'--proxy-inboxes',
			`${service.url}/api/v1`,
			'--divergence-report',
			'/nonexistent-folder/report.json',
		]);
		expect([nowhere.code, nowhere.stderr]).toEqual([
			2,
			expect.stringContaining('the folder of /nonexistent-folder/report.json does not exist'),
		]);
	});
});

describe('the probe', () => {
	const isLeadSearch = (r: { method: string; path: string }) =>
		r.method === 'POST' && r.path === '/api/v1/niche-finder-leads';
	const isCreation = (r: { method: string; path: string }) =>
		r.method === 'POST' && r.path === '/api/v1/inboxes';
	/** A request that could run a search or create an inbox or a pool, on any service. */
	const couldChargeOrCreate = (r: { method: string; path: string; body: unknown }) => {
		if (isLeadSearch(r)) {
			const body = r.body as Record<string, unknown> | undefined;
			return !body || body.niche !== undefined || body.city !== undefined;
		}
		if (isCreation(r)) {
			// No body, or text that is not JSON: nothing a service could create from.
			if (r.body === undefined || typeof r.body === 'string') return false;
			const entries = Array.isArray(r.body) ? r.body : [r.body];
			return (
				entries.length === 0 ||
				entries.some(
					(e) =>
						!e ||
						JSON.stringify(e).includes('@') ||
						typeof (e as { poolId?: unknown }).poolId !== 'string',
				)
			);
		}
		return r.method !== 'GET';
	};

	it('sends nothing that could charge or create, even to a service that says yes to everything', async () => {
		// The most lenient service there is: every request succeeds, every search finds, every batch creates.
		for (const route of ['POST /api/v1/niche-finder-leads', 'POST /api/v1/inboxes'])
			service.on(route, { json: { contacts: [], chargedCredits: 0, success: true, results: [] } });
		service.on('GET /api/v1/pools', {
			json: { pools: [{ id: 'p1', name: 'A', inboxCount: 9, createdAt: '2026-11-01T00:00:00Z' }] },
		});
		service.on('GET /api/v1/inboxes', {
			json: { inboxes: [{ id: 'i1' }], pagination: { total: 9, limit: 1, skip: 0, hasMore: true } },
		});
		const { sent } = await runProbe({
			leads: service.url,
			inboxes: `${service.url}/api/v1`,
			apiKey: 'stand-in-key-123456',
			timeoutMs: ANSWERS_MS,
		});
		expect(service.requests.length).toBe(sent.length);
		expect(service.requests.filter(isLeadSearch).length).toBeGreaterThan(0);
		expect(service.requests.filter(isCreation).length).toBeGreaterThan(0);
		expect(service.requests.filter(couldChargeOrCreate)).toEqual([]);
		// No entry at all by default: the first creation request (no body) was accepted by this
		// service, and was the last one sent.
		expect(service.requests.filter(isCreation).map((r) => r.body)).toEqual([undefined]);
		// Walks and out-of-range values among the reads; a wrong key on each service.
		const queries = service.requests.map((r) => `${r.method} ${r.path}?${r.query.toString()}`);
		expect(queries).toEqual(
			expect.arrayContaining([
				'GET /api/v1/inboxes?limit=1&skip=0',
				'GET /api/v1/inboxes?limit=1&skip=1',
				'GET /api/v1/inboxes?limit=1001',
				'GET /api/v1/inboxes?status=paused&limit=5',
			]),
		);
		expect(
			service.requests
				.filter((r) => r.headers.authorization !== 'Bearer stand-in-key-123456')
				.map((r) => r.path),
		).toEqual(expect.arrayContaining(['/api/v1/pools', '/api/v1/niche-finder-leads']));
	});

	it('by default sends no entry at all, and says which checks it skipped and why', async () => {
		service.on('GET /api/v1/pools', { json: { pools: [] } });
		service.on('GET /api/v1/inboxes', {
			json: { inboxes: [], pagination: { total: 0, limit: 5, skip: 0, hasMore: false } },
		});
		service.on('POST /api/v1/inboxes', { status: 400, json: { error: 'Send a JSON body.' } });
		service.on('POST /api/v1/niche-finder-leads', { status: 400, json: { error: 'niche' } });
		const { skipped } = await runProbe({
			leads: service.url,
			inboxes: `${service.url}/api/v1`,
			apiKey: 'stand-in-key-123456',
			timeoutMs: ANSWERS_MS,
		});
		expect(
			service.requests.filter(isCreation).map((r) => [r.body, r.headers['content-type']]),
		).toEqual([
			[undefined, undefined],
			['this body is not JSON: lead-inbox probe', 'application/json'],
			[undefined, undefined],
		]);
		expect(skipped).toEqual([
			expect.stringMatching(
				/^Skipped: inbox entries without an email address .* --creation-checks-pool POOL_ID\.$/,
			),
		]);
	});

	it('creates nothing on a service that accepts entries without an address, and says it stopped', async () => {
		// Lenient in the worst way: each entry becomes a blank inbox in the pool it names, if the
		// account has that pool.
		const pools = new Map([['p1', 0]]);
		service.on('GET /api/v1/pools', () => ({
			json: {
				pools: [...pools].map(([id, inboxCount]) => ({
					id,
					name: 'Warm-up',
					inboxCount,
					createdAt: '2026-11-01T00:00:00Z',
				})),
			},
		}));
		service.on('GET /api/v1/inboxes', {
			json: { inboxes: [], pagination: { total: 0, limit: 5, skip: 0, hasMore: false } },
		});
		service.on('POST /api/v1/inboxes', (request) => {
			if (request.body === undefined || typeof request.body === 'string')
				return { status: 400, json: { error: 'Send a JSON body.' } };
			const entries = (Array.isArray(request.body) ? request.body : [request.body]) as {
				poolId?: string;
			}[];
			for (const entry of entries)
				if (entry.poolId && pools.has(entry.poolId))
					pools.set(entry.poolId, pools.get(entry.poolId)! + 1);
			return {
				json: {
					success: true,
					summary: { total: entries.length, created: 0, failed: 0 },
					results: [],
				},
			};
		});
		service.on('POST /api/v1/niche-finder-leads', {
			status: 400,
			json: { error: 'niche is required' },
		});
		const probe = (creationPool?: string) =>
			runProbe({
				leads: service.url,
				inboxes: `${service.url}/api/v1`,
				apiKey: 'stand-in-key-123456',
				timeoutMs: ANSWERS_MS,
				creationPool,
			});
		// By default: no entry is sent, so nothing lands anywhere.
		const safe = await probe();
		expect([...pools.values()]).toEqual([0]);
		expect(safe.stoppedCreating).toBeUndefined();
		expect(service.requests.filter(couldChargeOrCreate)).toEqual([]);
		// With the creation checks in p1, as the option's help warns: at most one inbox, there.
		service.requests.length = 0;
		const result = await probe('p1');
		expect([...pools.values()]).toEqual([1]);
		expect(service.requests.filter((r) => isCreation(r) && typeof r.body === 'object')).toEqual([
			expect.objectContaining({ body: [{ poolId: 'p1' }] }),
		]);
		expect(result.skipped).toEqual([]);
		expect(result.stoppedCreating).toMatch(
			/^POST http:\/\/127\.0\.0\.1:\d+\/api\/v1\/inboxes \(.*\) was accepted with HTTP 200: no further creation request was sent/,
		);
	});

	it.each<[string, ProbeRequest]>([
		[
			'a search with a niche and a city',
			{ operation: 'leads', body: { niche: 'dentist', city: 'Austin' }, purpose: '' },
		],
		['a search with a city only', { operation: 'leads', body: { city: 'Austin' }, purpose: '' }],
		[
			'an entry with an address',
			{ operation: 'create', body: [{ emailAddress: 'a@b.test', poolId: 'p1' }], purpose: '' },
		],
		[
			'an address in another field',
			{ operation: 'create', body: { imapUsername: 'a@b.test', poolId: 'p1' }, purpose: '' },
		],
		[
			'an entry without poolId (would make a pool)',
			{ operation: 'create', body: [{}], purpose: '' },
		],
		[
			"an entry in a pool of the account's (a lenient service could fill it)",
			{ operation: 'create', body: [{ poolId: 'p1' }], purpose: '' },
		],
		['an empty batch', { operation: 'create', body: [], purpose: '' }],
		['a raw body that is JSON', { operation: 'create', rawBody: '[{}]', purpose: '' }],
		// An operation the probe does not know (POST /pools), as a caller outside the types could send.
		['another request', { operation: 'POST /api/v1/pools' as never, body: {}, purpose: '' }],
	])('refuses to send %s', (_, request) => {
		expect(() => assertHarmless(request)).toThrow(UnsafeProbeRequest);
	});

	it('sends an entry without an address only into the pool named for the creation checks', () => {
		const entry: ProbeRequest = { operation: 'create', body: [{ poolId: 'p1' }], purpose: '' };
		expect(() => assertHarmless(entry, 'p1')).not.toThrow();
		expect(() => assertHarmless(entry, 'p2')).toThrow(UnsafeProbeRequest);
		expect(() => assertHarmless({ operation: 'create', body: [{}], purpose: '' }, 'p1')).toThrow(
			UnsafeProbeRequest,
		);
		expect(() => assertHarmless({ operation: 'create', purpose: '' })).not.toThrow();
		expect(() =>
			assertHarmless({ operation: 'create', rawBody: 'not json', purpose: '' }),
		).not.toThrow();
	});

	it('finds nothing in front of the reference server, and leaves its account as it was', async () => {
		const server = await startServer();
		try {
			const { apiKey, accountId } = await server.newAccount({ credits: 50 });
			await server.fillInboxes(apiKey, 4, 'probe');
			const state = async () => {
				const account = (await server.admin('GET', `/accounts/${accountId}`)).body;
				const pools = (await server.call('GET', '/api/v1/pools', { key: apiKey })).body.pools;
				const inboxes = (await server.call('GET', '/api/v1/inboxes', { key: apiKey })).body
					.pagination.total;
				return { credits: account.credits, contacts: account.contactCount, pools, inboxes };
			};
			const before = await state();
			const { report, sent, unreachable } = await runProbe({
				leads: server.url,
				inboxes: `${server.url}/api/v1`,
				apiKey,
				timeoutMs: ANSWERS_MS,
			});
			expect([unreachable, report.list()]).toEqual([0, []]);
			expect(sent.length).toBeGreaterThanOrEqual(20);
			expect(await state()).toEqual(before);
		} finally {
			await server.close();
		}
	});

	it('from the command line: the key from LEAD_INBOX_API_KEY only, the table or JSON, --fail-on', async () => {
		answerWithDivergences('breaks');
		const args = ['probe', '--inboxes', `${service.url}/api/v1`];
		const noKey = await cli(args);
		expect([noKey.code, noKey.stderr]).toEqual([
			2,
			expect.stringContaining('set LEAD_INBOX_API_KEY'),
		]);
		const flagKey = await cli([...args, '--key', 'stand-in-key-123456']);
		expect([flagKey.code, flagKey.stderr]).toEqual([
			2,
			expect.stringContaining('The key is read from LEAD_INBOX_API_KEY only'),
		]);

		const env = { LEAD_INBOX_API_KEY: 'stand-in-key-123456' };
		const table = await cli(args, env);
		expect(table.code).toBe(0);
		expect(table.stdout).toMatch(/^Sent \d+ requests that charge nothing and can create nothing:/);
		expect(table.stdout).toContain('Skipped: inbox entries without an email address');
		expect(table.stdout).toContain(
			'[breaks-spec] GET /api/v1/pools: number sent as text: "3" (text)',
		);
		expect(table.stdout).not.toContain('stand-in-key-123456');
		const json = JSON.parse((await cli([...args, '--json'], env)).stdout);
		expect(json.divergences.map((d: { kind: string }) => d.kind)).toContain('number-as-text');
		expect(json.sent.length).toBeGreaterThan(10);
		expect((await cli([...args, '--fail-on', 'breaks-spec'], env)).code).toBe(3);
		const unreachable = await cli(
			['probe', '--inboxes', 'http://127.0.0.1:9/api/v1', '--timeout', '2000'],
			env,
		);
		expect([unreachable.code, unreachable.stderr]).toEqual([
			1,
			expect.stringContaining('got no answer'),
		]);
		expect(existsSync(CLI)).toBe(true);
	});
});
