import { join } from 'node:path';
import { timeTwoCases } from './two-cases.cjs';

/**
 * What `sent` and `response` expectations cost: the project's Webhook intake (a real request to
 * the workflow's Webhook, Fetch Leads, a Google Sheets node stubbed, Respond to Webhook), one case
 * checking only the run's status and item counts, and the same case also checking what the sheet
 * would have been sent (a recorder per expression of the stubbed node, run by n8n beside it) and
 * the caller's answer. Both on one warm n8n and one server, alternated so drift falls on both; the
 * median of each, their ratio, and the n8n's peak RSS.
 */
const ROOT = join(__dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const LINES = (process.env.BENCH_N8N_LINES ?? '2.40.7').split(',');
const WORKFLOW = join(
	ROOT,
	'test',
	'workflow-tests',
	'project',
	'workflows',
	'lead-request-webhook.json',
);

const request = { method: 'POST', body: { niche: 'dentist', city: 'Austin, TX', count: 5 } };
const counts = {
	'Lead request': { items: 1 },
	'Fetch Leads': { items: 5 },
	'Add to sheet': { items: 5 },
};
const FILE = {
	workflow: WORKFLOW,
	seed: { accounts: [{ apiKey: 'lik_bench_expectations_01', credits: 100_000 }] },
	stubs: { 'Add to sheet': 'passThrough' },
	cases: [
		{ name: 'without', request, expect: { status: 'success', nodes: counts } },
		{
			name: 'with sent and response',
			request,
			expect: {
				status: 'success',
				response: { status: 200, headers: { 'content-type': '/json/' }, body: { added: 5 } },
				nodes: {
					...counts,
					'Add to sheet': {
						items: 5,
						sent: {
							items: 5,
							every: {
								operation: 'append',
								'columns.value.Email': '/@/',
								'columns.value.Company': '/\\w/',
							},
						},
					},
				},
			},
		},
	],
};

export async function benchWorkflowExpectations(): Promise<void> {
	console.log(
		`\nsent and response expectations: the Webhook intake case without and with them (median of ${RUNS} each)`,
	);
	await timeTwoCases({
		lines: LINES,
		runs: RUNS,
		files: { 'intake.test.json': FILE },
		cases: [
			{ file: 'intake.test.json', case: 0 },
			{ file: 'intake.test.json', case: 1 },
		],
		report: (version, [without, withThem], peakMB) =>
			console.log(
				`  n8n ${version}: without ${(without / 1000).toFixed(3)} s/case, with sent and response ${(withThem / 1000).toFixed(3)} s/case: ${withThem >= without ? '+' : ''}${((withThem / without - 1) * 100).toFixed(1)} %; n8n peak RSS ${peakMB} MB`,
			),
	});
}

if (require.main === module)
	void benchWorkflowExpectations().then(
		() => process.exit(0),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
