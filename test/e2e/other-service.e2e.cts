import { startOtherService, type OtherService } from '../helpers/other-service.cjs';
import { ALL_LINES } from './n8n-app.cjs';
import { type Stack, startStack } from './support.cjs';

/*
 * A sample of the answers the specs allow but the reference server never gives (the whole set runs
 * in-process in test/nodes/other-services.test.cts), through the real n8n apps: the packed
 * package, `n8n execute`, and n8n's own credential tester.
 */

const CREDENTIAL = { id: 'otherService00001', name: 'Another service' };

/** A workflow: a Code node emitting `items`, then one node of the package. */
function workflow(id: string, node: { type: string; parameters: object }, items: object[]) {
	return {
		id,
		name: id,
		nodes: [
			{
				id: 'trigger',
				name: 'Start',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: 'input',
				name: 'Input',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [200, 0],
				parameters: { jsCode: `return ${JSON.stringify(items.map((json) => ({ json })))};` },
			},
			{
				id: 'node',
				name: 'Node',
				type: `n8n-nodes-lead-inbox.${node.type}`,
				typeVersion: 1,
				position: [400, 0],
				parameters: node.parameters,
				credentials: { leadInboxApi: CREDENTIAL },
			},
		],
		connections: {
			Start: { main: [[{ node: 'Input', type: 'main', index: 0 }]] },
			Input: { main: [[{ node: 'Node', type: 'main', index: 0 }]] },
		},
		settings: {},
	};
}

describe.each(ALL_LINES)('the nodes against another service in n8n $version', (target) => {
	let stack: Stack;
	let service: OtherService;
	const run = async (flow: ReturnType<typeof workflow>) => {
		await stack.app.importWorkflow(flow);
		return await stack.app.execute(flow.id);
	};
	const fetchLeads = (id: string) =>
		workflow(
			id,
			{
				type: 'fetchLeads',
				parameters: { niche: 'plumber', city: 'Springfield', count: 5, options: {} },
			},
			[{}],
		);

	beforeAll(async () => {
		service = await startOtherService();
		stack = await startStack(target, { credential: false });
		await stack.app.importCredentials([
			{ ...CREDENTIAL, type: 'leadInboxApi', data: service.credentials() },
		]);
	});
	afterEach(() => service.reset());
	afterAll(async () => {
		await stack?.app.stop();
		await stack?.server.close();
		await service?.close();
	});

	it('Fetch Leads: a 404 in other words is "nothing found", a problem+json 400 shows its detail, a 301 is not followed', async () => {
		service.on('POST /api/v1/niche-finder-leads', {
			status: 404,
			json: { message: 'No results for this search' },
		});
		const empty = await run(fetchLeads('otherLeads404'));
		expect(empty.status).toBe('success');
		expect(empty.output('Node')).toEqual([]);

		service.on('POST /api/v1/niche-finder-leads', {
			status: 400,
			json: { title: 'Invalid request', detail: 'count must be at most 1000' },
		});
		expect((await run(fetchLeads('otherLeads400'))).error?.message).toBe(
			'Invalid request: count must be at most 1000 (HTTP 400 from the lead search service)',
		);

		service.on('POST /api/v1/niche-finder-leads', {
			status: 301,
			headers: { location: 'https://leads.example.test/api/v1/niche-finder-leads' },
		});
		const moved = await run(fetchLeads('otherLeads301'));
		expect(moved.error?.message).toMatch(/redirected POST .* to https:\/\/leads\.example\.test/);
		expect(moved.error?.description).toMatch(
			/Set the credential's Lead Search Base URL to https:\/\/leads\.example\.test\./,
		);
	});

	it('Create Inboxes: results of a 207 in another order are paired by address, the pool found under another name', async () => {
		service.on('POST /api/v1/inboxes', (request) => ({
			status: 207,
			json: {
				createdPool: { id: 'pool_n', name: 'Pool N' },
				results: (request.body as { emailAddress: string }[])
					.map((e, k) => ({ emailAddress: e.emailAddress, success: true, inboxId: `in_${k}` }))
					.reverse(),
			},
		}));
		const result = await run(
			workflow(
				'otherCreate207',
				{
					type: 'createInboxes',
					parameters: {
						emailAddress: '={{ $json.email }}',
						imapPassword: 'app-password',
						poolMode: 'new',
						additionalFields: {},
						options: {},
					},
				},
				[{ email: 'a@example.test' }, { email: 'b@example.test' }],
			),
		);
		expect(result.status).toBe('success');
		expect(
			result.output('Node').map((i) => [i.pairedItem, i.json.inboxId, i.json.poolName]),
		).toEqual([
			[{ item: 0 }, 'in_0', 'Pool N'],
			[{ item: 1 }, 'in_1', 'Pool N'],
		]);
	});

	it('List Inboxes: a service that ignores skip ends with a clear error, not an endless loop', async () => {
		service.on('GET /api/v1/inboxes', {
			json: {
				inboxes: [{ id: 'i1', emailAddress: 'a@example.test' }],
				pagination: { hasMore: true },
			},
		});
		const result = await run(
			workflow(
				'otherListSkip',
				{
					type: 'listInboxes',
					parameters: {
						poolId: { __rl: true, mode: 'list', value: '' },
						status: 'any',
						returnAll: true,
						options: {},
					},
				},
				[{}],
			),
		);
		expect(result.error?.message).toBe(
			'The inbox service answered the same inboxes again for skip=1 (page 2)',
		);
	});

	it("n8n's credential tester runs the nodes' test: a wrong Lead Search Base URL is named", async () => {
		service.on('GET /api/v1/pools', { json: { pools: [] } });
		service.on('GET /api/v1/inboxes', { json: { inboxes: [] } });
		service.on('POST /api/v1/inboxes', { status: 400, json: { error: 'Send 1 to 100 entries' } });
		await stack.app.start();
		const rest = await stack.app.signInOwner({
			email: 'owner@lead-inbox.test',
			password: 'Lead-Inbox-e2e-1',
		});
		const credential = {
			name: 'Another service, wrong leads URL',
			type: 'leadInboxApi',
			data: { ...service.credentials(), leadsBaseUrl: `${service.url}/leads` },
		};
		const saved = await rest('POST', '/credentials', credential);
		const tested = await rest('POST', '/credentials/test', {
			credentials: { ...credential, id: saved.body.data.id },
		});
		expect(tested.body.data).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				/^Lead Search Base URL: POST http:\/\/127\.0\.0\.1:\d+\/leads\/api\/v1\/niche-finder-leads answered HTTP 404 with an HTML page/,
			),
		});
	});
});
