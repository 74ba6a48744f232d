import { freePort } from '../helpers/ports.cjs';
import type { TestServer } from '../helpers/server.cjs';
import { type N8nApp, type N8nProcess, pinnedLine } from './n8n-app.cjs';
import { startPostgres, startRedis, type Service } from './queue-services.cjs';
import { CREDENTIAL, startStack } from './support.cjs';

/**
 * The nodes under n8n's queue mode, as teams run it at scale: Redis and PostgreSQL, one main
 * instance taking the webhook calls and two workers running the executions, all n8n 2.8.4 with
 * the packed package installed once in their shared user folder. What matters when executions
 * run side by side on different workers: Fetch Leads charging one account from many executions
 * at once, and Create Inboxes waiting out the hourly limit on a worker while the others go on.
 */
const { target, describe } = pinnedLine('2.8.4');
const credential = { leadInboxApi: CREDENTIAL };

const webhook = (path: string, id: string) => ({
	parameters: {
		httpMethod: 'POST',
		path,
		responseMode: 'lastNode',
		responseData: 'allEntries',
		options: {},
	},
	id: `${id}-webhook`,
	name: 'Webhook',
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	position: [0, 0],
	webhookId: `0b5e7c1a-0000-4000-8000-${id.padStart(12, '0')}`,
});

const workflow = (id: string, name: string, nodes: any[]) => ({
	id,
	name,
	active: false,
	settings: { executionOrder: 'v1' },
	nodes,
	connections: Object.fromEntries(
		nodes
			.slice(0, -1)
			.map((node, i) => [
				node.name,
				{ main: [[{ node: nodes[i + 1].name, type: 'main', index: 0 }]] },
			]),
	),
});

const LEADS = workflow('QueueLeads000001', 'Queue: leads by webhook', [
	webhook('queue-leads', '1'),
	{
		parameters: {
			niche: '={{ $json.body.niche }}',
			city: '={{ $json.body.city }}',
			count: '={{ $json.body.count }}',
			output: 'response',
			options: {},
		},
		id: 'queue-leads-fetch',
		name: 'Fetch Leads',
		type: 'n8n-nodes-lead-inbox.fetchLeads',
		typeVersion: 1,
		position: [220, 0],
		credentials: credential,
	},
]);

const INBOXES = workflow('QueueInboxes0001', 'Queue: inboxes by webhook', [
	webhook('queue-inboxes', '2'),
	{
		parameters: { fieldToSplitOut: 'body.inboxes', options: {} },
		id: 'queue-inboxes-split',
		name: 'Split Out',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: [220, 0],
	},
	{
		parameters: {
			emailAddress: '={{ $json.email }}',
			imapPassword: 'app-password',
			poolMode: 'new',
			newPoolName: 'Queue mode',
			additionalFields: { skipConnectionTest: true },
			options: { maxRateLimitWait: 300 },
		},
		id: 'queue-inboxes-create',
		name: 'Create Inboxes',
		type: 'n8n-nodes-lead-inbox.createInboxes',
		typeVersion: 1,
		position: [440, 0],
		credentials: credential,
	},
]);

/** Execution ids a worker started, from its log ("Worker started execution 12 (job 7)"). */
const startedBy = (worker: N8nProcess) =>
	[...worker.log.matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]);

/** n8n's own lines about trouble (errors, failed or stalled jobs), the last of each process. */
const troubleLines = (processes: Record<string, N8nProcess>) =>
	Object.entries(processes)
		.map(([name, p]) => {
			const lines = p.log.split('\n').filter((l) => /error|fail|stall|warn/i.test(l));
			return `${name}:\n${lines.slice(-20).join('\n') || '(nothing)'}`;
		})
		.join('\n');

/**
 * The webhook calls, answered when their executions end (a few seconds here, 25 s for the
 * rate-limited ones). One not answered in two minutes, or answered with anything but 200, fails
 * the test with what n8n's processes said about it: an execution that never ends would otherwise
 * show only as undici's five-minute header time-out.
 */
const postAll = async (
	url: string,
	bodies: unknown[],
	processes: Record<string, N8nProcess>,
): Promise<any[]> => {
	const answers = await Promise.all(
		bodies.map(async (body) => {
			try {
				const res = await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(body),
					signal: AbortSignal.timeout(120_000),
				});
				const text = await res.text();
				return res.status === 200
					? { body: JSON.parse(text) }
					: { failed: `${res.status} ${text}` };
			} catch (error) {
				return { failed: (error as Error).message };
			}
		}),
	);
	const failed = answers.filter((a) => a.failed !== undefined);
	if (failed.length > 0)
		throw new Error(
			`${failed.length} of ${bodies.length} webhook calls failed: ${[...new Set(failed.map((a) => a.failed))].join('; ')}\n` +
				troubleLines(processes),
		);
	return answers.map((a) => a.body);
};

describe('n8n 2.8.4 in queue mode (Redis, PostgreSQL, a main instance and two workers)', () => {
	let server: TestServer;
	let redis: Service;
	let postgres: Service;
	let app: N8nApp;
	let workers: N8nProcess[];
	let processes: Record<string, N8nProcess>;
	let account: { accountId: string; apiKey: string };

	beforeAll(async () => {
		redis = await startRedis(await freePort());
		postgres = await startPostgres(await freePort());
		({ app, server, account } = await startStack(target, {
			credits: 5000,
			env: {
				EXECUTIONS_MODE: 'queue',
				QUEUE_BULL_REDIS_HOST: '127.0.0.1',
				QUEUE_BULL_REDIS_PORT: String(redis.port),
				DB_TYPE: 'postgresdb',
				DB_POSTGRESDB_HOST: '127.0.0.1',
				DB_POSTGRESDB_PORT: String(postgres.port),
				DB_POSTGRESDB_USER: 'n8n',
				DB_POSTGRESDB_DATABASE: 'postgres',
				DB_POSTGRESDB_PASSWORD: '',
			},
		}));
		for (const w of [LEADS, INBOXES]) {
			await app.importWorkflow(w);
			await app.cli(['publish:workflow', `--id=${w.id}`]);
		}
		const main = await app.start();
		workers = [];
		for (let worker = 0; worker < 2; worker++)
			workers.push(
				await app.startProcess(['worker', '--concurrency=10'], 'n8n worker is now ready', {
					N8N_RUNNERS_BROKER_PORT: String(await freePort()),
				}),
			);
		processes = { main, 'worker 1': workers[0], 'worker 2': workers[1] };
	});

	afterAll(async () => {
		await app?.stop();
		await Promise.all([redis?.stop(), postgres?.stop()]);
		await server?.close();
	});

	test('30 Fetch Leads executions at once: spread over both workers, one ledger, no contact twice', async () => {
		const started = Date.now();
		// Ten searches, each asked three times at once: the same businesses compete for the account.
		const searches = ['dentist', 'plumber', 'florist', 'bakery', 'barber'].flatMap((niche) =>
			['Austin, TX', 'Denver, CO'].map((city) => ({ niche, city, count: 15 })),
		);
		const calls = searches.flatMap((search) => [search, search, search]);
		const before = workers.map((w) => startedBy(w).length);
		const answers = await postAll(`${app.url}/webhook/queue-leads`, calls, processes);
		const wallMs = Date.now() - started;

		const results = answers.map((a) => a[0] as { contacts: any[]; chargedCredits: number });
		const perWorker = workers.map((w, i) => startedBy(w).length - before[i]);
		expect(perWorker.reduce((a, b) => a + b, 0)).toBe(30);
		for (const count of perWorker) expect(count).toBeGreaterThan(0);

		const charged = results.reduce((n, r) => n + r.chargedCredits, 0);
		const returned = results.flatMap((r) => r.contacts);
		expect(returned).toHaveLength(charged);
		const identity = (c: any) =>
			c.email ? c.email.toLowerCase() : `${c.businessName}|${c.address}`;
		expect(new Set(returned.map(identity)).size).toBe(returned.length);
		const stored = await server.admin('GET', `/accounts/${account.accountId}/contacts`);
		expect(stored.body.contacts).toHaveLength(charged);
		const balance = await server.admin('GET', `/accounts/${account.accountId}`);
		expect(balance.body.credits).toBe(5000 - charged);
		// The three calls of a search together got exactly what one call gets on a fresh account.
		const fresh = await server.newAccount({ credits: 5000 });
		const once = await Promise.all(
			searches.map((body) =>
				server.call('POST', '/api/v1/niche-finder-leads', { key: fresh.apiKey, body }),
			),
		);
		const expected = once.flatMap((r) => r.body.contacts as any[]);
		expect(new Set(returned.map(identity))).toEqual(new Set(expected.map(identity)));
		console.log(
			`queue mode, Fetch Leads x30: executions per worker ${perWorker.join(' / ')}, ` +
				`${charged} credits charged for ${returned.length} contacts, wall time ${wallMs} ms`,
		);
	});

	test('Create Inboxes at the hourly limit: executions wait out the 429 on their worker and finish', async () => {
		// 960 inboxes an hour ago, minus 25 s: 40 places now, the rest free again in 25 seconds.
		await server.fillInboxes(account.apiKey, 960, 'earlier');
		await server.admin('POST', '/clock', { advanceSeconds: 3600 - 25 });
		const started = Date.now();
		const batches = Array.from({ length: 6 }, (_, b) => ({
			inboxes: Array.from({ length: 10 }, (_, i) => ({ email: `queue${b}-${i}@gmail.com` })),
		}));
		const before = workers.map((w) => startedBy(w).length);
		const answers = await postAll(`${app.url}/webhook/queue-inboxes`, batches, processes);
		const wallMs = Date.now() - started;

		for (const answer of answers) expect(answer).toHaveLength(10);
		const perWorker = workers.map((w, i) => startedBy(w).length - before[i]);
		expect(perWorker.reduce((a, b) => a + b, 0)).toBe(6);

		// What the service saw: batches answered 201/200 until exactly the limit was used, then
		// 429s, then the waiting executions' batches once the earlier inboxes left the hour.
		const journal = (await server.admin('GET', '/requests?method=POST&path=/api/v1/inboxes')).body
			.requests as { status: number; response: { summary?: { created: number } } }[];
		const firstLimited = journal.findIndex((r) => r.status === 429);
		expect(firstLimited).toBeGreaterThan(0);
		const createdBefore = journal
			.slice(0, firstLimited)
			.reduce((n, r) => n + (r.response.summary?.created ?? 0), 0);
		expect(createdBefore).toBe(1000);
		const limited = journal.filter((r) => r.status === 429).length;

		const emails: string[] = [];
		for (const skip of [0, 1000]) {
			const page = await server.call('GET', `/api/v1/inboxes?limit=1000&skip=${skip}`, {
				key: account.apiKey,
			});
			emails.push(...page.body.inboxes.map((i: any) => i.emailAddress.toLowerCase()));
		}
		expect(emails).toHaveLength(1020);
		expect(new Set(emails).size).toBe(emails.length);
		const queued = emails.filter((e) => e.startsWith('queue'));
		expect(queued).toHaveLength(60);
		console.log(
			`queue mode, Create Inboxes x6 (60 inboxes, 40 places left in the hour): executions per worker ` +
				`${perWorker.join(' / ')}, ${createdBefore} created in the hour before the first 429, ` +
				`${limited} requests answered 429 and retried, ${queued.length} of 60 created, wall time ${wallMs} ms`,
		);
	});
});
