import { checkService, type ServiceView } from '../../mock-server/src/workflow-tests/expect.cjs';
import { checkDistinct, checkRun, type RunView } from '../../n8n-testkit/src/expect/check.cjs';
import type { NodeRun } from '../../n8n-testkit/src/n8n/executions.cjs';

/**
 * A failed expectation says where it is in the case, what was expected, what came, and the
 * nearest item (or request): what a user reads to fix a workflow without opening n8n.
 */
const ran = (...outputs: Record<string, unknown>[][]): NodeRun[] => [{ outputs, hints: [] }];
const view = (nodes: Record<string, NodeRun[]>, more: Partial<RunView> = {}): RunView => ({
	status: 'success',
	nodes,
	outputIndex: (_node, output) =>
		typeof output === 'number'
			? output
			: output === 'Failed'
				? 1
				: output === 'Created'
					? 0
					: output === 'error'
						? 'error'
						: `node "${_node}" has no output named "${output}"`,
	...more,
});
const leads = [
	{ email: 'a@dentist.test', runsMetaAds: true, address: { city: 'Denver' } },
	{ email: '', runsMetaAds: false, address: { city: 'Denver' } },
];

describe('expectations on a run', () => {
	it('passes what holds: counts, every/some/none with values and /regular expressions/, dot paths', () => {
		const run = view({ 'Fetch Leads': ran(leads) });
		expect(
			checkRun(
				{
					status: 'success',
					nodes: {
						'Fetch Leads': {
							ran: true,
							items: { atLeast: 2, atMost: 2 },
							every: { 'address.city': 'Denver' },
							some: { email: '/@dentist\\.test$/', runsMetaAds: true },
							none: { email: '/@gmail/' },
						},
					},
				},
				run,
				'expect',
			),
		).toEqual([]);
	});

	it('says what was expected, what came and the nearest item', () => {
		const run = view({ 'Fetch Leads': ran(leads), HubSpot: ran([]) });
		expect(
			checkRun(
				{
					nodes: {
						'Fetch Leads': { items: 3, every: { email: '/@/', runsMetaAds: true } },
						HubSpot: { some: { email: '/@/' } },
					},
				},
				run,
				'expect',
			),
		).toEqual([
			{ at: 'expect.nodes.Fetch Leads.items', message: 'expected exactly 3 item(s), got 2' },
			{
				at: 'expect.nodes.Fetch Leads.every.email',
				message:
					'expected every item to have email = "/@/"; item 2 of 2 has "" (item: {"email":"","runsMetaAds":false,"address":{"city":"Denver"}})',
			},
			{
				at: 'expect.nodes.Fetch Leads.every.runsMetaAds',
				message: expect.stringContaining('item 2 of 2 has false'),
			},
			{
				at: 'expect.nodes.HubSpot.some.email',
				message: 'expected at least one item with email = "/@/"; none of 0 has it',
			},
		]);
	});

	it('a node that did not run says why the run stopped', () => {
		const run = view(
			{
				'Fetch Leads': [
					{ outputs: [], hints: [], error: { message: 'The service is unavailable (HTTP 503)' } },
				],
			},
			{
				status: 'error',
				error: { node: 'Fetch Leads', message: 'The service is unavailable (HTTP 503)' },
			},
		);
		expect(
			checkRun({ status: 'success', nodes: { HubSpot: { items: { atLeast: 8 } } } }, run, 'expect'),
		).toEqual([
			{
				at: 'expect.status',
				message:
					'expected success, got error (node "Fetch Leads": The service is unavailable (HTTP 503))',
			},
			{
				at: 'expect.nodes.HubSpot.items',
				message:
					'expected at least 8 item(s), got 0 (the node did not run; the run failed at "Fetch Leads": The service is unavailable (HTTP 503))',
			},
		]);
		expect(
			checkRun(
				{
					error: { node: 'HubSpot', message: '/503/' },
					nodes: { 'Fetch Leads': { error: '/unavailable/' } },
				},
				run,
				'expect',
			),
		).toEqual([
			{
				at: 'expect.error.node',
				message:
					'expected it to fail at "HubSpot", it failed at "Fetch Leads": The service is unavailable (HTTP 503)',
			},
		]);
	});

	it("what a Webhook's caller got: status, headers by any case, the body as a JSON subset or text", () => {
		const answered = view(
			{},
			{
				response: {
					status: 200,
					headers: { 'content-type': 'application/json; charset=utf-8' },
					body: { added: 5, emails: ['a@x.test', 'b@x.test'] },
				},
			},
		);
		expect(
			checkRun(
				{
					response: {
						status: 200,
						headers: { 'Content-Type': '/json/' },
						body: { added: 5, emails: ['/@/', 'b@x.test'] },
					},
				},
				answered,
				'expect',
			),
		).toEqual([]);
		expect(
			checkRun(
				{ response: { status: 201, body: { added: 4, emails: ['a@x.test'] } } },
				answered,
				'expect',
			),
		).toEqual([
			{
				at: 'expect.response.status',
				message:
					'expected 201, got 200 (the answer: 200 {"added":5,"emails":["a@x.test","b@x.test"]})',
			},
			{
				at: 'expect.response.body',
				message:
					'expected a body holding {"added":4,"emails":["a@x.test"]}, got {"added":5,"emails":["a@x.test","b@x.test"]}',
			},
		]);
		const text = view({}, { response: { status: 200, headers: {}, body: 'Thanks, 5 leads' } });
		expect(checkRun({ response: { body: '/^Thanks, \\d+ leads$/' } }, text, 'expect')).toEqual([]);
	});

	it('what a stubbed node would have sent: its resolved parameters, and the expressions n8n could not resolve', () => {
		const sent = view(
			{ HubSpot: ran([{ email: 'a@x.test' }, { email: 'b@x.test' }]) },
			{
				sent: {
					HubSpot: {
						items: [
							{ email: 'a@x.test', additionalFields: { companyName: 'A' } },
							{ email: null, additionalFields: { companyName: '={{ $json.company }}' } },
						],
						errors: [{ item: 1, parameter: 'additionalFields.companyName', message: 'boom' }],
					},
				},
			},
		);
		expect(
			checkRun(
				{ nodes: { HubSpot: { items: 2, sent: { items: 2, every: { email: '/@/' } } } } },
				sent,
				'expect',
			),
		).toEqual([
			{
				at: 'expect.nodes.HubSpot.sent',
				message:
					'n8n could not resolve parameter "additionalFields.companyName" of "HubSpot" (for 1 of 2 item(s), the first item 2): boom',
			},
			{
				at: 'expect.nodes.HubSpot.sent.every.email',
				message:
					'expected every item sent to have email = "/@/"; item 2 of 2 has null (item: {"email":null,"additionalFields":{"companyName":"={{ $json.company }}"}})',
			},
		]);
	});

	it("reads a named output (Create Inboxes' Failed) and says when a node has no such output", () => {
		const run = view({
			'Create Inboxes': ran(
				[{ emailAddress: 'a@gmail.com' }],
				[{ emailAddress: 'b@gmial.com', code: 'unknown_provider' }],
			),
		});
		expect(
			checkRun(
				{
					nodes: {
						'Create Inboxes': [
							{ output: 'Created', items: 1 },
							{ output: 'Failed', items: 1, every: { code: 'unknown_provider' } },
						],
					},
				},
				run,
				'expect',
			),
		).toEqual([]);
		expect(
			checkRun(
				{
					nodes: {
						'Create Inboxes': [
							{ output: 'Failed', items: 0 },
							{ output: 'Skipped', items: 0 },
						],
					},
				},
				run,
				'expect',
			),
		).toEqual([
			{
				at: 'expect.nodes.Create Inboxes.0.items',
				message: 'expected exactly 0 item(s) on output "Failed", got 1',
			},
			{
				at: 'expect.nodes.Create Inboxes.1.output',
				message: 'node "Create Inboxes" has no output named "Skipped"',
			},
		]);
	});

	it('values distinct across runs: a value that comes twice is named with its runs', () => {
		const runs = [
			view({ HubSpot: ran([{ email: 'a@x.test' }, { email: 'b@x.test' }]) }),
			view({ HubSpot: ran([{ email: 'c@x.test' }, { email: 'a@x.test' }]) }),
		];
		expect(
			checkDistinct({ node: 'HubSpot', field: 'email', count: 4 }, runs, 'expect.distinct'),
		).toEqual([
			{
				at: 'expect.distinct',
				message: 'email "a@x.test" came twice: in run 1 and run 2 (item: {"email":"a@x.test"})',
			},
			{
				at: 'expect.distinct.count',
				message: 'expected exactly 4 distinct email value(s) from "HubSpot" over 2 run(s), got 3',
			},
		]);
		// An item without the field is not a value: the count says how many there were.
		const withEmpty = [view({ HubSpot: ran([{ email: 'a@x.test' }, { email: null }, {}]) })];
		expect(
			checkDistinct({ node: 'HubSpot', field: 'email', count: 3 }, withEmpty, 'expect.distinct'),
		).toEqual([
			{
				at: 'expect.distinct.count',
				message:
					'expected exactly 3 distinct email value(s) from "HubSpot" over 1 run(s), got 1 (2 item(s) had no email: not counted)',
			},
		]);
	});
});

describe('expectations on the service', () => {
	const service = (requests: { id: number; method: string; path: string }[]): ServiceView => ({
		creditsCharged: 12,
		credits: 188,
		contactsAdded: 10,
		contacts: 10,
		pools: [{ name: 'Sheet import', inboxes: { active: 2, paused: 0, deactivated: 0, error: 1 } }],
		requests: async (filter) => {
			const ids = requests
				.filter(
					(r) =>
						(!filter.method || r.method === filter.method) &&
						(!filter.path || r.path === filter.path),
				)
				.map((r) => r.id);
			return { ids, nearest: 'POST /api/v1/niche-finder-leads {} -> 200' };
		},
		allRequests: async () => requests.map((r) => ({ id: r.id, line: `${r.method} ${r.path}` })),
	});

	it('credits, contacts, pools and inboxes by pool and status', async () => {
		const failures = await checkService(
			{
				creditsCharged: { atMost: 10 },
				contactsAdded: 10,
				pools: 1,
				inboxes: { pool: 'Sheet import', count: 3, status: { active: 3, error: 0 } },
			},
			service([]),
			'expect.service',
		);
		expect(failures).toEqual([
			{
				at: 'expect.service.creditsCharged',
				message: 'expected at most 10 credit(s) charged, got 12',
			},
			{
				at: 'expect.service.inboxes.status.active',
				message: expect.stringMatching(
					/^expected exactly 3 active inbox\(es\) in pool "Sheet import", got 2/,
				),
			},
			{
				at: 'expect.service.inboxes.status.error',
				message: expect.stringMatching(
					/^expected exactly 0 error inbox\(es\) in pool "Sheet import", got 1/,
				),
			},
		]);
	});

	it('requests counted as requests.verify counts them, and nothing else called', async () => {
		const requests = [
			{ id: 1, method: 'POST', path: '/api/v1/niche-finder-leads' },
			{ id: 2, method: 'GET', path: '/api/v1/pools' },
		];
		expect(
			await checkService(
				{
					requests: [{ method: 'POST', path: '/api/v1/niche-finder-leads', times: 1 }],
					nothingElse: true,
				},
				service(requests),
				'expect.service',
			),
		).toEqual([
			{
				at: 'expect.service.nothingElse',
				message:
					'expected no request but those listed in requests; 1 other(s) came, the first: GET /api/v1/pools',
			},
		]);
		expect(
			await checkService(
				{ requests: [{ method: 'POST', path: '/api/v1/inboxes' }] },
				service(requests),
				'expect.service',
			),
		).toEqual([
			{
				at: 'expect.service.requests.0',
				message:
					'Expected at least 1 request(s) matching {"method":"POST","path":"/api/v1/inboxes"}, but 0 matched. The nearest recorded request: POST /api/v1/niche-finder-leads {} -> 200',
			},
		]);
	});
});
