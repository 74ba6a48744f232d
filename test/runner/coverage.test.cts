import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import {
	addCase,
	addOutcomes,
	type CoverageFile,
	emptyCoverage,
	mergeCoverage,
	outputShape,
	type WorkflowCoverage,
} from '../../n8n-testkit/src/coverage/model.cjs';
import {
	belowThresholds,
	coverageLine,
	parseThresholds,
	readCoverage,
	writeCoverage,
} from '../../n8n-testkit/src/coverage/report.cjs';
import type { Workflow } from '../../n8n-testkit/src/workflow/workflow.cjs';
import { launchBrowser, newPage, screenshot } from '../helpers/browser.cjs';
import { withTempDir } from '../helpers/temp-dir.cjs';

/**
 * Workflow coverage from what cases did: nodes that ran, outputs items crossed (an If's false
 * branch no case took is named), coverage of two runs merged is their union, thresholds fail
 * naming what is missing, and the page draws every node and connection of the export with the
 * counts of coverage.json, in Chromium, without a console error.
 */
const ROOT = join(__dirname, '..', '..');
const SUB = JSON.parse(
	readFileSync(
		join(ROOT, 'test', 'workflow-tests', 'project', 'workflows', 'send-lead-to-crm.json'),
		'utf8',
	),
) as Workflow;
/** n8n's descriptions as the runner reads them: If lists its two outputs and names them. */
const DESCRIBED: Record<string, { outputs?: unknown; outputNames?: string[] }> = {
	'n8n-nodes-base.if': { outputs: ['main', 'main'], outputNames: ['true', 'false'] },
	'n8n-nodes-base.executeWorkflowTrigger': { outputs: ['main'] },
	'n8n-nodes-base.set': { outputs: ['main'] },
	'n8n-nodes-base.hubspot': { outputs: ['main'] },
};

const fresh = (): WorkflowCoverage =>
	emptyCoverage(
		SUB,
		'workflows/send-lead-to-crm.json',
		new Map(SUB.nodes.map((n) => [n.name, outputShape(n, SUB, DESCRIBED[n.type])])),
	);
const ran = (items: number[], runs = 1) => ({ runs, items, first: items.map(() => []) });
/** A case where every lead had an email: the If's false branch and "No email" never ran. */
const allWithEmail = {
	'When called': ran([3], 3),
	'Has email?': ran([3, 0], 3),
	HubSpot: ran([3], 3),
};
const oneWithout = {
	'When called': ran([2], 2),
	'Has email?': ran([1, 1], 2),
	HubSpot: ran([1]),
	'No email': ran([1]),
};

describe('workflow coverage', () => {
	it("counts a limited Wait's two outcomes as branches: resumed by a request, timed out", () => {
		const sequence = JSON.parse(
			readFileSync(join(ROOT, 'examples', 'cold-email-sequence.json'), 'utf8'),
		) as Workflow;
		const coverage = emptyCoverage(
			sequence,
			'examples/cold-email-sequence.json',
			new Map(sequence.nodes.map((n) => [n.name, outputShape(n, sequence, DESCRIBED[n.type])])),
		);
		const wait = 'Wait for a reply';
		const timedOut = { node: wait, execution: '1', from: 'a', to: 'b', timeLimit: true as const };
		addOutcomes(coverage, 'a › a reply', [{}, { resumed: { node: wait } }]);
		expect(coverage.branches.missed).toContainEqual({ node: wait, output: 'timed out' });
		expect(coverage.branches.missed).not.toContainEqual({
			node: wait,
			output: 'resumed by a request',
		});
		// A move of the clock past the limit times it out as a timeout run does.
		addOutcomes(coverage, 'a › no reply', [{}, { skips: [timedOut] }]);
		addOutcomes(coverage, 'a › too late', [{}, { skips: [timedOut] }]);
		const outcomes = coverage.graph.nodes.find((n) => n.name === wait)!.outcomes;
		expect(outcomes).toEqual([
			{ name: 'resumed by a request', cases: { 'a › a reply': 1 } },
			{ name: 'timed out', cases: { 'a › no reply': 1, 'a › too late': 1 } },
		]);
		expect(coverage.branches.missed.filter((b) => b.node === wait)).toEqual([]);
		// A Wait on time alone has no such outcomes.
		expect(coverage.graph.nodes.find((n) => n.name === 'Wait 5 days')!.outcomes).toBeUndefined();
		// Merged runs add up.
		const merged = mergeCoverage([
			{ format: 1, n8nVersions: ['2.40.7'], workflows: [coverage] },
			{ format: 1, n8nVersions: ['1.123.81'], workflows: [structuredClone(coverage)] },
		]);
		expect(
			merged.workflows[0].graph.nodes.find((n) => n.name === wait)!.outcomes![0].cases,
		).toEqual({
			'a › a reply': 2,
		});
	});

	it('names the node and the branch no case reached, and counts items per output and case', () => {
		const coverage = fresh();
		addCase(coverage, 'a.test.yaml › all with email', [allWithEmail]);
		expect(coverage.nodes).toEqual({ total: 4, covered: 3, missed: ['No email'] });
		expect(coverage.branches).toEqual({
			total: 2,
			covered: 1,
			missed: [{ node: 'Has email?', output: 'false' }],
		});
		expect(coverageLine(coverage)).toBe(
			'Send a lead to the CRM: nodes 3/4, branches 1/2; never: "No email", Has email? \u203a false',
		);
		addCase(coverage, 'a.test.yaml › one without', [oneWithout]);
		expect(coverage.nodes.missed).toEqual([]);
		expect(coverage.branches.covered).toBe(2);
		const decision = coverage.graph.nodes.find((n) => n.name === 'Has email?')!;
		expect(decision.outputs).toEqual([
			{
				index: 0,
				name: 'true',
				items: 4,
				cases: { 'a.test.yaml › all with email': 3, 'a.test.yaml › one without': 1 },
			},
			{ index: 1, name: 'false', items: 1, cases: { 'a.test.yaml › one without': 1 } },
		]);
		// Every connection of the export is kept for the drawing.
		expect(coverage.graph.connections).toEqual([
			{ from: 'When called', output: 0, to: 'Has email?', type: 'main' },
			{ from: 'Has email?', output: 0, to: 'HubSpot', type: 'main' },
			{ from: 'Has email?', output: 1, to: 'No email', type: 'main' },
		]);
	});

	it('counts an output connected to nothing apart from the branches, and names the items that went into it', () => {
		// "Has email?" with On Error = Continue (using error output), its error output left unwired.
		const swallowing: Workflow = structuredClone(SUB);
		Object.assign(swallowing.nodes.find((n) => n.name === 'Has email?')!, {
			onError: 'continueErrorOutput',
		});
		const coverage = emptyCoverage(
			swallowing,
			'workflows/send-lead-to-crm.json',
			new Map(swallowing.nodes.map((n) => [n.name, outputShape(n, swallowing, DESCRIBED[n.type])])),
		);
		addCase(coverage, 'a.test.yaml › one without', [
			{ ...oneWithout, 'Has email?': ran([1, 1, 4], 2) },
		]);
		// true and false are wired branches; the error output is not a branch, and 4 items went into it.
		expect(coverage.branches).toEqual({ total: 2, covered: 2, missed: [] });
		expect(coverage.nowhere).toEqual([{ node: 'Has email?', output: 'error', items: 4 }]);
		expect(coverageLine(coverage)).toBe(
			'Send a lead to the CRM: nodes 4/4, branches 2/2; Has email? \u203a error: 4 items went nowhere',
		);
		const file: CoverageFile = { format: 1, n8nVersions: ['2.40.7'], workflows: [coverage] };
		expect(parseThresholds('nowhere=0')).toEqual({ nowhere: 0 });
		expect(belowThresholds(file, { nowhere: 0 })).toEqual([
			'coverage: 1 output(s) connected to nothing carried items, more than --coverage-min nowhere=0: Has email? \u203a error: 4 items went nowhere (Send a lead to the CRM)',
		]);
		expect(belowThresholds(file, { nowhere: 1 })).toEqual([]);
		// An unwired output that carried nothing is only not a branch.
		const quiet = emptyCoverage(
			swallowing,
			'w.json',
			new Map(swallowing.nodes.map((n) => [n.name, outputShape(n, swallowing, DESCRIBED[n.type])])),
		);
		addCase(quiet, 'a.test.yaml › one without', [oneWithout]);
		expect(quiet.nowhere).toEqual([]);
	});

	it("names outputs an outputs expression gives (Fetch Leads' Spend) and a run's last as the error output", () => {
		const pull: Workflow = {
			name: 'Pull',
			nodes: [
				{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
				{
					name: 'Fetch Leads',
					type: 'n8n-nodes-lead-inbox.fetchLeads',
					parameters: {},
					onError: 'continueErrorOutput',
				},
				{ name: 'CRM', type: 'n8n-nodes-base.noOp', parameters: {} },
			],
			connections: {
				Start: { main: [[{ node: 'Fetch Leads', type: 'main', index: 0 }]] },
				'Fetch Leads': { main: [[{ node: 'CRM', type: 'main', index: 0 }]] },
			},
		};
		const described = {
			outputs: `={{$parameter["spendOutput"] === true ? [{"type":"main","displayName":"Leads"},{"type":"main","displayName":"Spend"}] : ["main"]}}`,
		};
		const coverage = emptyCoverage(
			pull,
			'pull.json',
			new Map(
				pull.nodes.map((n) => [
					n.name,
					outputShape(n, pull, n.name === 'Fetch Leads' ? described : undefined),
				]),
			),
		);
		// Spend on: Leads, Spend, then the error output; Spend off (another case): Leads, error.
		addCase(coverage, 'a › spend on', [
			{ Start: ran([1]), 'Fetch Leads': ran([3, 1, 2]), CRM: ran([3]) },
		]);
		expect(coverage.nowhere).toEqual([
			{ node: 'Fetch Leads', output: 'Spend', items: 1 },
			{ node: 'Fetch Leads', output: 'error', items: 2 },
		]);
	});

	it('merges runs into their union, in one order whichever came first, and fails thresholds naming what is missing', () => {
		const first = fresh();
		addCase(first, 'a.test.yaml › all with email', [allWithEmail]);
		const second = fresh();
		addCase(second, 'a.test.yaml › one without', [oneWithout]);
		const file = (w: WorkflowCoverage, line: string): CoverageFile => ({
			format: 1,
			n8nVersions: [line],
			workflows: [w],
		});
		const merged = mergeCoverage([file(first, '2.40.7'), file(second, '1.123.81')]);
		const both = fresh();
		addCase(both, 'a.test.yaml › all with email', [allWithEmail]);
		addCase(both, 'a.test.yaml › one without', [oneWithout]);
		expect(merged).toEqual({ format: 1, n8nVersions: ['2.40.7', '1.123.81'], workflows: [both] });
		// Shards (each with whole test files) merged in any order, or files run in any order by
		// side-by-side workers: the same file, cases ordered by test file, then as the file lists them.
		const otherFile = fresh();
		addCase(otherFile, 'b.test.yaml › all with email', [allWithEmail]);
		const shards = [file(otherFile, '2.40.7'), file(both, '2.40.7')];
		const oneOrder = mergeCoverage(shards);
		expect(JSON.stringify(mergeCoverage([...shards].reverse()))).toBe(JSON.stringify(oneOrder));
		expect(oneOrder.workflows[0].cases).toEqual([
			'a.test.yaml › all with email',
			'a.test.yaml › one without',
			'b.test.yaml › all with email',
		]);

		const alone = file(first, '2.40.7');
		expect(parseThresholds('nodes=100,branches=80')).toEqual({ nodes: 100, branches: 80 });
		expect(belowThresholds(alone, { nodes: 100, branches: 50 })).toEqual([
			'coverage: nodes 75 % (3/4) is below --coverage-min nodes=100; never: "No email" (Send a lead to the CRM)',
		]);
		expect(belowThresholds(merged, { nodes: 100, branches: 100 })).toEqual([]);
		expect(() => parseThresholds('node=100')).toThrow(
			/--coverage-min takes nodes=N and\/or branches=N/,
		);
		expect(() => parseThresholds('branches=120')).toThrow(/0 to 100/);
	});

	describe('the page, in Chromium', () => {
		let browser: Browser;
		beforeAll(async () => {
			browser = await launchBrowser();
		});
		afterAll(async () => {
			await browser?.close();
		});

		it('draws every node and connection of the export, with the counts of coverage.json, and shows one case’s path', async () => {
			const coverage = fresh();
			addCase(coverage, 'a.test.yaml › all with email', [allWithEmail]);
			addCase(coverage, 'a.test.yaml › one without', [oneWithout]);
			await withTempDir('coverage-page-', async (dir) => {
				writeCoverage(dir, { format: 1, n8nVersions: ['2.40.7'], workflows: [coverage] });
				const written = readCoverage(dir);
				const workflow = written.workflows[0];

				const page = await newPage(browser, { width: 1000, height: 760 });
				const errors: string[] = [];
				page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
				page.on('pageerror', (e) => errors.push(String(e)));
				await page.goto(`file://${join(dir, 'index.html')}`);
				await page.click(`text=${workflow.name}`);
				await page.waitForSelector('.node');

				expect(await page.locator('.node').count()).toBe(SUB.nodes.length);
				expect(await page.locator('.connection').count()).toBe(workflow.graph.connections.length);
				expect(await page.locator('#nodes').textContent()).toBe(
					`nodes ${workflow.nodes.covered}/${workflow.nodes.total}`,
				);
				expect(await page.locator('#branches').textContent()).toBe(
					`branches ${workflow.branches.covered}/${workflow.branches.total}`,
				);
				// Each connection's label: the items that crossed its output, all cases together.
				const labels = await page.locator('.count').allTextContents();
				expect(labels).toEqual(['5 items', '4 items', '1 item']);

				// One case: the path it took, the rest dashed and labelled "not run".
				await page.focus('#case');
				await page.selectOption('#case', 'a.test.yaml › all with email');
				expect(await page.locator('[data-name="No email"] .badge').textContent()).toBe('not run');
				expect(await page.locator('[data-name="No email"]').getAttribute('class')).toContain(
					'missed',
				);
				expect(await page.locator('.count').allTextContents()).toEqual([
					'3 items',
					'3 items',
					'0 items',
				]);
				await screenshot(page, 'coverage-page');
				expect(errors).toEqual([]);
			});
		});
	});
});
