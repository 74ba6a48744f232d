import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { timeTwoCases } from './two-cases.cjs';

/**
 * What a Wait of three days costs a case: the follow-up example (examples/follow-up-after-3-days:
 * Fetch Leads, Set, Gmail stubbed, Wait 3 days, Code, If, Gmail stubbed) as it is, and the same
 * workflow with its Wait taken out (Send first email wired straight to the Code node), one case
 * each on a fixed clock. Both on one warm n8n, alternated so drift falls on both; the median of
 * each, their difference (the target: at most 1 s), and the n8n's peak RSS.
 */
const ROOT = join(__dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const LINES = (process.env.BENCH_N8N_LINES ?? '2.40.7,2.8.4,1.123.81').split(',');
const EXAMPLE = join(ROOT, 'examples', 'follow-up-after-3-days.json');

/** The example without its Wait: the node before it wired to the node after it. */
function withoutTheWait(): object {
	const workflow = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as {
		nodes: { name: string }[];
		connections: Record<string, { main: { node: string }[][] }>;
	};
	workflow.nodes = workflow.nodes.filter((n) => n.name !== 'Wait 3 days');
	workflow.connections['Send first email'] = workflow.connections['Wait 3 days'];
	delete workflow.connections['Wait 3 days'];
	return workflow;
}

const file = (workflow: string) => ({
	workflow,
	clock: '2027-03-01T09:00:00Z',
	seed: { accounts: [{ apiKey: 'lik_bench_waits_0001', credits: 1_000_000 }] },
	stubs: { 'Send first email': 'passThrough', 'Send follow-up': 'passThrough' },
	cases: [
		{ name: 'one run', expect: { status: 'success', nodes: { 'Fetch Leads': { items: 5 } } } },
	],
});

export async function benchWaits(): Promise<void> {
	console.log(
		`\nA Wait of 3 days: the follow-up example with and without its Wait (median of ${RUNS} each)`,
	);
	await timeTwoCases({
		lines: LINES,
		runs: RUNS,
		files: {
			'without.json': withoutTheWait(),
			'with.test.json': file(EXAMPLE),
			'without.test.json': file('without.json'),
		},
		cases: [
			{ file: 'without.test.json', case: 0 },
			{ file: 'with.test.json', case: 0 },
		],
		report: (version, [without, withIt], peakMB) =>
			console.log(
				`  n8n ${version}: without the Wait ${(without / 1000).toFixed(3)} s/case, with a Wait of 3 days ${(withIt / 1000).toFixed(3)} s/case: ${withIt >= without ? '+' : ''}${((withIt - without) / 1000).toFixed(3)} s; n8n peak RSS ${peakMB} MB`,
			),
	});
}

if (require.main === module)
	void benchWaits().then(
		() => process.exit(0),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
