/**
 * The nodes and the reference server speak one contract: the zod schemas in mock-server/src/contract,
 * from which the server validates requests and generates its OpenAPI document. Here every request
 * the five nodes send (the four run as workflows, the trigger polled as n8n polls it) must pass
 * the schema of its operation, strict objects included (a field the contract does not know
 * fails), whatever the server answered (a request it refused is checked too), and the server's
 * answers to those same requests must have the shape the nodes read.
 */
import type { z } from 'zod';
import {
	creationResponse,
	inboxEntry,
	inboxesResponse,
	listInboxesQuery,
	poolsResponse,
} from '../../mock-server/src/contract/inboxes.cjs';
import { leadSearchRequest, leadSearchResponse } from '../../mock-server/src/contract/leads.cjs';
import { loadWorkflow, runWorkflow, stopEngineTimers, TriggerPoller } from '../helpers/n8n.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';

interface Operation {
	query?: z.ZodType;
	/** Each entry of a body (an inbox batch is checked entry by entry). */
	entry?: z.ZodType;
	answer: z.ZodType;
}

const OPERATIONS: Record<string, Operation> = {
	'POST /api/v1/niche-finder-leads': { entry: leadSearchRequest, answer: leadSearchResponse },
	'GET /api/v1/pools': { answer: poolsResponse },
	'GET /api/v1/inboxes': { query: listInboxesQuery, answer: inboxesResponse },
	'POST /api/v1/inboxes': { entry: inboxEntry, answer: creationResponse },
};

interface Logged {
	method: string;
	path: string;
	query: Record<string, string>;
	status: number;
	body?: unknown;
}

describe('the nodes and the server share one contract', () => {
	let server: TestServer;
	let key: string;

	beforeAll(async () => {
		server = await startServer();
		key = (await server.newAccount({ credits: 1000 })).apiKey;
	});
	afterAll(async () => {
		await server.close();
		stopEngineTimers();
	});

	it('every request of the four nodes is valid under its operation schema, and every answer fits the shape the nodes read', async () => {
		await server.admin('DELETE', '/requests');
		const credentials = {
			apiKey: key,
			leadsBaseUrl: server.url,
			inboxBaseUrl: `${server.url}/api/v1`,
		};
		for (const file of ['fetch-leads.json', 'create-inboxes.json', 'list-pools-and-inboxes.json']) {
			const result = await runWorkflow(loadWorkflow(file), { credentials });
			expect({ file, status: result.status }).toEqual({ file, status: 'success' });
		}
		// The trigger, each event: its first check, a check after a change, and Fetch Test Event.
		const pools = (await server.call('GET', '/api/v1/pools', { key })).body.pools as Array<{
			id: string;
		}>;
		expect(pools.length).toBeGreaterThan(0);
		for (const parameters of [
			{ event: 'inboxStatusChanged', statuses: ['error'], poolId: pools[0].id },
			{ event: 'newInbox' },
			{ event: 'newPool' },
		]) {
			const trigger = new TriggerPoller(parameters, credentials, { workflowId: parameters.event });
			expect(await trigger.poll()).toBeNull();
			await server.call('POST', '/api/v1/inboxes?poolName=Contract%20pool', {
				key,
				body: [{ emailAddress: `contract-${parameters.event}@gmail.com`, imapPassword: 'pw' }],
			});
			await trigger.poll();
			await trigger.poll('manual').catch(() => undefined); // an empty pool has no example
		}

		const logged = (await server.admin('GET', '/requests')).body.requests as Logged[];
		const seen = new Set<string>();
		expect(logged.length).toBeGreaterThan(10);
		// Refused ones too: a request the server refused may be one the nodes built wrong.
		for (const request of logged) {
			const route = `${request.method} ${request.path}`;
			const operation = OPERATIONS[route];
			expect({ route, known: operation !== undefined }).toEqual({ route, known: true });
			seen.add(route);
			if (operation.query) operation.query.parse(request.query);
			if (operation.entry) for (const entry of [request.body].flat()) operation.entry.parse(entry);
		}
		expect([...seen].sort()).toEqual(Object.keys(OPERATIONS).sort());

		// The answers, asked again the same way (reads) or with a fresh entry (writes).
		const answerOf = async (route: string, options: Parameters<TestServer['call']>[2]) => {
			const [method, path] = route.split(' ');
			const res = await server.call(method, path, { key, ...options });
			expect(res.status).toBe(200);
			return OPERATIONS[route.split('?')[0]].answer.parse(res.body);
		};
		await answerOf('POST /api/v1/niche-finder-leads', {
			body: { niche: 'plumber', city: 'Denver, CO', count: 3 },
		});
		await answerOf('GET /api/v1/pools', {});
		await answerOf('GET /api/v1/inboxes?limit=2', {});
		await answerOf('POST /api/v1/inboxes', {
			body: [
				{ emailAddress: 'contract-a@gmail.com', imapPassword: 'pw' },
				{ emailAddress: 'contract-b@gmail.com', imapPassword: 'invalid-pw' },
			],
		});
	});
});
