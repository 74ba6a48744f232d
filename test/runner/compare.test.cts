import { compareCoverage, compareResults, masked } from '../../n8n-testkit/src/compare/diff.cjs';
import { compareGithubSummary, compareLines } from '../../n8n-testkit/src/compare/report.cjs';
import { junitXml } from '../../n8n-testkit/src/report/junit.cjs';
import type {
	WorkflowTestCaseResult,
	WorkflowTestCoverage,
	WorkflowTestFileResult,
	WorkflowTestRunDetail,
} from '../../n8n-testkit/src/types.cjs';

/**
 * The upgrade check reads two versions' runs of a suite: what differs is named case by case and
 * node by node, what differs between any two runs on one version (times, IDs, ports) is not, and
 * cases whose versions agree are only counted.
 */
const run = (over: Partial<WorkflowTestRunDetail> = {}): WorkflowTestRunDetail => ({
	status: 'success',
	nodes: {
		'Lead form': {
			runs: 1,
			items: [1],
			first: [[{ headers: { host: '127.0.0.1:41749' }, body: { name: 'Ada' } }]],
		},
		'Clean up': {
			runs: 1,
			items: [1],
			first: [
				[
					{
						name: 'Ada',
						at: '2026-12-06T22:21:32.996Z',
						id: 'f1e2d3c4-1234-4abc-9def-0123456789ab',
					},
				],
			],
		},
	},
	clock: {
		start: '2026-12-06T22:21:32.996Z',
		end: '2026-12-06T22:21:33.380Z',
		timezone: 'UTC',
		startLocal: '',
		endLocal: '',
	},
	response: { status: 200, headers: { 'content-type': 'application/json' }, body: { ok: true } },
	...over,
});
const caseOf = (
	name: string,
	runs: WorkflowTestRunDetail[],
	passed = true,
): WorkflowTestCaseResult => ({
	name,
	passed,
	failures: passed ? [] : [{ at: 'expect.status', message: 'expected success, got error' }],
	durationMs: 300,
	runs: runs.length,
	detail: { runs },
});
const file = (version: string, cases: WorkflowTestCaseResult[]): WorkflowTestFileResult => ({
	file: 'tests/intake.test.yaml',
	n8nVersion: version,
	cases,
	durationMs: 1000,
});

describe('the upgrade check', () => {
	it('masks what differs between two runs on one version: times, IDs, loopback ports, epoch milliseconds', () => {
		expect(
			masked({
				at: '2026-12-06T22:21:32.996Z',
				local: '2026-12-06T23:21:32+01:00',
				id: 'f1e2d3c4-1234-4abc-9def-0123456789ab',
				host: '127.0.0.1:41749',
				sentAt: 1796595692996,
				count: 42,
			}),
		).toBe(
			'{"at":"<time>","local":"<time>","id":"<uuid>","host":"127.0.0.1:<port>","sentAt":"<epoch ms>","count":42}',
		);
	});

	it("names each fact that differs (a failed Webhook run's answer) and nothing for a case whose versions agree", () => {
		const failed = (response: WorkflowTestRunDetail['response']) =>
			run({
				status: 'error',
				error: { node: 'Reject', message: 'The lead has no email address' },
				response,
			});
		const cases = compareResults(
			[
				file('1.123.81', [
					caseOf('thanked', [run()]),
					caseOf('rejected', [failed({ status: 200, headers: {}, body: '' })]),
				]),
			],
			[
				file('2.40.7', [
					// Another time, another port, another ID: the same run.
					caseOf('thanked', [
						run({
							clock: {
								start: '2026-12-07T08:00:00.000Z',
								end: '2026-12-07T08:00:01.000Z',
								timezone: 'UTC',
								startLocal: '',
								endLocal: '',
							},
						}),
					]),
					caseOf('rejected', [
						failed({
							status: 500,
							headers: { 'content-type': 'application/json; charset=utf-8' },
							body: { message: 'Error in workflow' },
						}),
					]),
				]),
			],
		);
		expect(cases.map((c) => [c.case, c.differences])).toEqual([
			['thanked', []],
			[
				'rejected',
				[
					{ at: 'run 1 › response.status', a: '200', b: '500' },
					{ at: 'run 1 › response.body', a: '""', b: '{"message":"Error in workflow"}' },
					{ at: 'run 1 › response.content-type', a: 'absent', b: '"application/json"' },
				],
			],
		]);
		const lines = compareLines(['1.123.81', '2.40.7'], cases);
		expect(lines.filter((l) => l.includes('\u2260'))).toEqual([
			'  \u2260 tests/intake.test.yaml \u203a rejected (1.123.81: passed, 2.40.7: passed)',
		]);
		expect(lines.at(-1)).toBe('  1 case(s) differ between n8n 1.123.81 and 2.40.7, 1 agree.');
		expect(compareGithubSummary(['1.123.81', '2.40.7'], cases)).toContain(
			'| tests/intake.test.yaml | rejected | run 1 › response.status | `200` | `500` |',
		);
	});

	it("node by node: a node's items, its error, a node one version ran and the other did not, a case one version lacks", () => {
		const b = run();
		b.nodes['Clean up'] = { ...b.nodes['Clean up'], items: [2], error: 'Invalid date' };
		b.nodes['New node'] = { runs: 1, items: [1], first: [[{}]] };
		const cases = compareResults(
			[file('1.123.81', [caseOf('one', [run()]), caseOf('only here', [run()])])],
			[file('2.40.7', [caseOf('one', [b], false)])],
		);
		expect(cases[0].passed).toEqual([true, false]);
		expect(cases[0].differences.map((d) => `${d.at}: ${d.a} -> ${d.b}`)).toEqual([
			'run 1 › "Clean up" › items: [1] -> [2]',
			'run 1 › "Clean up" › error: absent -> "Invalid date"',
			'run 1 › "New node" › runs: absent -> 1',
			'run 1 › "New node" › items: absent -> [1]',
			'run 1 › "New node" › first items: absent -> [[{}]]',
		]);
		expect(cases[1]).toMatchObject({ case: 'only here', passed: [true, undefined] });
		expect(cases[1].differences.length).toBeGreaterThan(0);
	});

	it('JUnit: a suite per version and file, and the check as a suite of its own whose differing cases fail', () => {
		const cases = compareResults(
			[file('1.123.81', [caseOf('one', [run()])])],
			[file('2.40.7', [caseOf('one', [run({ status: 'error' })])])],
		);
		const xml = junitXml([file('1.123.81', []), file('2.40.7', [])], {
			versions: ['1.123.81', '2.40.7'],
			cases,
		});
		expect(xml).toContain('<testsuite name="n8n 1.123.81 \u203a tests/intake.test.yaml"');
		expect(xml).toContain(
			'<testsuite name="upgrade check: n8n 1.123.81 \u2192 2.40.7" tests="1" failures="1"',
		);
		expect(xml).toContain('tests="1" failures="1">');
		expect(xml).toContain('run 1 › status: &quot;success&quot; \u2192 &quot;error&quot;');
	});

	it('coverage: a workflow whose nodes or branches run differ is named, with what each version missed', () => {
		const coverage = (missed: string[], taken: number): WorkflowTestCoverage => ({
			format: 1,
			n8nVersions: [],
			workflows: [
				{
					name: 'Lead intake',
					file: 'workflows/lead-intake.json',
					nodes: { total: 6, covered: 6 - missed.length, missed },
					branches: {
						total: 2,
						covered: taken,
						missed: taken === 2 ? [] : [{ node: 'Has email?', output: 'false' }],
					},
					nowhere: [],
					cases: [],
					graph: { nodes: [], connections: [] },
				},
			],
		});
		expect(compareCoverage(coverage([], 2), coverage([], 2))).toEqual([]);
		expect(compareCoverage(coverage([], 2), coverage(['Reject'], 1))).toEqual([
			{
				workflow: 'workflows/lead-intake.json',
				differences: [
					{ at: 'nodes', a: '"6/6"', b: '"5/6"' },
					{ at: 'nodes never run', a: '[]', b: '["Reject"]' },
					{ at: 'branches', a: '"2/2"', b: '"1/2"' },
					{ at: 'branches never taken', a: '[]', b: '["Has email? › false"]' },
				],
			},
		]);
		expect(compareCoverage(undefined, coverage([], 2))).toEqual([]);
	});
});
