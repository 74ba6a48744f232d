import { join } from 'node:path';
import { timeTwoCases } from './two-cases.cjs';

/**
 * What running nodes for real against HTTP mocks costs a case: the project's morning pull
 * (Schedule, Fetch Leads, an HTTP Request with Header Auth and Retry On Fail, Aggregate, Slack)
 * with its HTTP Request and Slack nodes real, their requests answered by the test's mocks
 * through the runner's proxy, and the same case with both nodes stubbed. Both on one warm n8n,
 * alternated so drift falls on both; the median of each, their ratio (the target: at most 1.2),
 * and the n8n's peak RSS.
 */
const ROOT = join(__dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const LINES = (process.env.BENCH_N8N_LINES ?? '2.40.7,2.8.4,1.123.81').split(',');
const WORKFLOW = join(
	ROOT,
	'test',
	'workflow-tests',
	'project',
	'workflows',
	'morning-leads-crm-slack.json',
);

const common = {
	workflow: WORKFLOW,
	clock: { nextFiringAfter: '2027-03-01T12:00:00Z' },
	seed: { accounts: [{ apiKey: 'lik_bench_mocks_0001', credits: 1_000_000 }] },
};
const expectIds = {
	status: 'success',
	nodes: { 'Collect ids': { every: { 'ids.length': 3 } } },
};

const real = {
	...common,
	credentials: { 'CRM key': { name: 'X-Api-Key', value: 'crm-bench-key' } },
	mocks: [
		{
			request: { method: 'POST', url: 'https://crm.example.test/api/v1/contacts' },
			answer: { status: 201, json: { id: 'c_{{request.body.name}}' } },
		},
		{ use: 'slack' },
	],
	cases: [{ name: 'real nodes against mocks', expect: expectIds }],
};
const stubbed = {
	...common,
	stubs: {
		'Push to CRM': { items: [{ id: 'c_1' }, { id: 'c_2' }, { id: 'c_3' }] },
		'Tell sales': 'passThrough',
	},
	cases: [{ name: 'the same nodes stubbed', expect: expectIds }],
};

export async function benchHttpMocks(): Promise<void> {
	console.log(
		`\nReal nodes against HTTP mocks: the morning pull with its HTTP Request and Slack nodes real, and stubbed (median of ${RUNS} each)`,
	);
	await timeTwoCases({
		lines: LINES,
		runs: RUNS,
		files: { 'stubbed.test.json': stubbed, 'real.test.json': real },
		cases: [
			{ file: 'stubbed.test.json', case: 0 },
			{ file: 'real.test.json', case: 0 },
		],
		report: (version, [stubs, mocks], peakMB) =>
			console.log(
				`  n8n ${version}: stubbed ${(stubs / 1000).toFixed(3)} s/case, real against mocks ${(mocks / 1000).toFixed(3)} s/case: ${(mocks / stubs).toFixed(2)}x; n8n peak RSS ${peakMB} MB`,
			),
	});
}

if (require.main === module)
	void benchHttpMocks().then(
		() => process.exit(0),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
