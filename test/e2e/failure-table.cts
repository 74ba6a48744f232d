import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

/**
 * Every failure reaches the user, in real n8n: a test project of one workflow per node of the
 * package and On Error setting, and a case per failure kind (the service refusing, the key
 * refused, credits short, rate-limited past the retries, a server error, a dropped connection),
 * armed as route faults. Stop Workflow must fail the run naming the cause; the Continue settings
 * must put it on an error item, the error output, or (Create Inboxes) its Failed output. Run with
 * `lead-inbox-mock-server test` on each supported line.
 */

type OnError = 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
const SETTINGS: OnError[] = ['stopWorkflow', 'continueRegularOutput', 'continueErrorOutput'];

interface NodeUnderTest {
	/** The file name's stem. */
	id: string;
	name: string;
	type: string;
	typeVersion: number;
	parameters: Record<string, unknown>;
	route: string;
	/** Faults armed before the failing one: answers that come first (a climb's, a page's). */
	before?: Record<string, unknown>[];
	/** Failures that do not apply (a 402 only where credits are spent). */
	skip?: string[];
	/** Where a Continue setting puts the failure: an error item, or the node's own Failed output. */
	failedOutput?: string;
}

const NODES: NodeUnderTest[] = [
	{
		id: 'fetch-leads',
		name: 'Fetch Leads',
		type: 'n8n-nodes-lead-inbox.fetchLeads',
		typeVersion: 1.2,
		parameters: { niche: 'dentist', city: 'Austin, TX', count: 3, spendOutput: false },
		route: 'POST /api/v1/niche-finder-leads',
	},
	{
		// The climb's second request fails after the first brought nothing new: nothing gained.
		id: 'fetch-leads-climb',
		name: 'Fetch Leads',
		type: 'n8n-nodes-lead-inbox.fetchLeads',
		typeVersion: 1.2,
		parameters: {
			niche: 'dentist',
			city: 'Austin, TX',
			countMode: 'newLeads',
			count: 5,
			spendOutput: false,
		},
		route: 'POST /api/v1/niche-finder-leads',
		before: [{ status: 200, body: { contacts: [], chargedCredits: 0 }, times: 1 }],
	},
	{
		id: 'list-pools',
		name: 'List Pools',
		type: 'n8n-nodes-lead-inbox.listPools',
		typeVersion: 1,
		parameters: {},
		route: 'GET /api/v1/pools',
		skip: ['402'],
	},
	{
		// Return All: the second page fails after the first came.
		id: 'list-inboxes-pages',
		name: 'List Inboxes',
		type: 'n8n-nodes-lead-inbox.listInboxes',
		typeVersion: 1,
		parameters: { returnAll: true },
		route: 'GET /api/v1/inboxes',
		before: [
			{
				status: 200,
				body: {
					inboxes: [
						{
							id: 'inb_page_one',
							emailAddress: 'first@gmail.com',
							status: 'active',
							poolId: 'pool_one',
							dailySendingLimit: 2,
							createdAt: '2026-11-01T00:00:00.000Z',
						},
					],
					pagination: { total: 2, limit: 1000, skip: 0, hasMore: true },
				},
				times: 1,
			},
		],
		skip: ['402'],
	},
	{
		id: 'create-inboxes',
		name: 'Create Inboxes',
		type: 'n8n-nodes-lead-inbox.createInboxes',
		typeVersion: 1,
		parameters: {
			emailAddress: 'new.sender@gmail.com',
			imapPassword: 'an-app-password',
			poolMode: 'new',
			options: { maxRateLimitWait: 0 },
		},
		route: 'POST /api/v1/inboxes',
		skip: ['402'],
		failedOutput: 'Failed',
	},
];

/** A failure as a route fault, and a pattern of the cause the user must be told. */
const FAILURES: Record<string, { fault: Record<string, unknown>; cause: string }> = {
	'400': {
		fault: { status: 400, body: { error: 'Refused on purpose: count is out of range' } },
		cause: 'Refused on purpose: count is out of range',
	},
	'401': { fault: { status: 401, body: { error: 'Invalid API key' } }, cause: 'Invalid API key' },
	'402': {
		fault: { status: 402, body: { error: 'Not enough credits: 0 available' } },
		cause: 'Not enough credits: 0 available',
	},
	'429': { fault: { status: 429, retryAfter: 1 }, cause: 'HTTP 429' },
	'503': { fault: { status: 503 }, cause: 'HTTP 503' },
	'a dropped connection': { fault: { drop: true }, cause: 'broke before it answered' },
};

function workflow(node: NodeUnderTest, onError: OnError) {
	const start = 'Run the table';
	const under = {
		id: randomUUID(),
		name: node.name,
		type: node.type,
		typeVersion: node.typeVersion,
	};
	return {
		id: `failureTable${node.id.replace(/-/g, '')}${SETTINGS.indexOf(onError)}`.slice(0, 30),
		name: `Failure table: ${node.id}, ${onError}`,
		nodes: [
			{
				id: randomUUID(),
				name: start,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{ ...under, position: [220, 0], parameters: node.parameters, onError },
			{
				id: randomUUID(),
				name: 'Next',
				type: 'n8n-nodes-base.noOp',
				typeVersion: 1,
				position: [440, 0],
				parameters: {},
			},
		],
		connections: { [start]: { main: [[{ node: node.name, type: 'main', index: 0 }]] } },
		settings: {},
	};
}

/** What the case expects of a failure under the setting. */
function expectation(node: NodeUnderTest, onError: OnError, cause: string) {
	const pattern = `/${cause.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}/`;
	if (onError === 'stopWorkflow')
		return { status: 'error', error: { node: node.name, message: pattern } };
	if (node.failedOutput)
		return {
			status: 'success',
			nodes: { [node.name]: { output: node.failedOutput, items: 1, every: { reason: pattern } } },
		};
	return {
		status: 'success',
		nodes: {
			[node.name]:
				onError === 'continueErrorOutput'
					? [
							{ output: 0, items: 0 },
							{ output: 'error', items: 1, every: { error: pattern } },
						]
					: { items: 1, every: { error: pattern } },
		},
	};
}

/** Writes the table into `dir`: the workflows and a test file each; returns how many cases. */
export function writeFailureTable(dir: string): number {
	mkdirSync(dir, { recursive: true });
	let cases = 0;
	for (const node of NODES)
		for (const onError of SETTINGS) {
			const stem = `${node.id}.${onError}`;
			writeFileSync(join(dir, `${stem}.json`), JSON.stringify(workflow(node, onError), null, 1));
			const table = Object.entries(FAILURES).filter(([kind]) => !node.skip?.includes(kind));
			cases += table.length;
			writeFileSync(
				join(dir, `${stem}.test.yaml`),
				stringify({
					workflow: `./${stem}.json`,
					seed: { accounts: [{ apiKey: 'lik_failure_table_0001', credits: 100 }] },
					cases: table.map(([kind, { fault, cause }]) => ({
						name: `${kind} reaches the user (${onError})`,
						faults: [
							...(node.before ?? []).map((f) => ({ route: node.route, ...f })),
							{ route: node.route, times: 50, ...fault },
						],
						expect: expectation(node, onError, cause),
					})),
				}),
			);
		}
	return cases;
}
