import { caseLines, summaryLines } from '../../mock-server/src/runner/report/console.cjs';
import { githubSummary } from '../../mock-server/src/runner/report/github.cjs';
import { junitXml } from '../../mock-server/src/runner/report/junit.cjs';
import type { FileResult } from '../../mock-server/src/runner/report/results.cjs';

/** The reports people and CI read, from one run's results. */
const files: FileResult[] = [
	{
		file: 'tests/pull.test.yaml',
		n8nVersion: '2.40.7',
		durationMs: 12_000,
		cases: [
			{ name: 'a morning <pull> & "more"', passed: true, failures: [], durationMs: 2100, runs: 1 },
			{
				name: 'three mornings',
				passed: false,
				failures: [
					{ at: 'expect.distinct', message: 'email "a@x.test" came twice: in run 1 and run 2' },
				],
				durationMs: 5300,
				runs: 3,
			},
		],
	},
];

describe('reports', () => {
	it('a line per case with \u2713 or \u2717, each failure under it, and the totals', () => {
		expect(files[0].cases.flatMap((c) => caseLines(files[0].file, c))).toEqual([
			'\u2713 tests/pull.test.yaml \u203a a morning <pull> & "more" (2.1 s)',
			'\u2717 tests/pull.test.yaml \u203a three mornings (5.3 s, 3 runs)',
			'    expect.distinct: email "a@x.test" came twice: in run 1 and run 2',
		]);
		expect(summaryLines(files, 15_000)).toEqual([
			'',
			'\u2717 1 passed, 1 failed, in 1 file(s), 15.0 s',
		]);
	});

	it('JUnit XML: a suite per file, a case per case, the failures with what failed, escaped', () => {
		const xml = junitXml(files);
		expect(xml).toContain('<testsuites name="n8n workflow tests" tests="2" failures="1">');
		expect(xml).toContain(
			'<testsuite name="tests/pull.test.yaml" tests="2" failures="1" errors="0" time="12.000">',
		);
		expect(xml).toContain(
			'<testcase classname="tests/pull.test.yaml" name="a morning &lt;pull&gt; &amp; &quot;more&quot;" time="2.100"></testcase>',
		);
		expect(xml).toContain(
			'<failure message="email &quot;a@x.test&quot; came twice: in run 1 and run 2">expect.distinct: email &quot;a@x.test&quot; came twice: in run 1 and run 2</failure>',
		);
	});

	it('the GitHub job summary: a table of cases and what failed under it', () => {
		const summary = githubSummary(files);
		expect(summary).toContain('### n8n workflow tests: \u274c 1 failed, 1 passed');
		expect(summary).toContain(
			'| \u2705 | tests/pull.test.yaml | a morning <pull> & "more" | 2.40.7 | 2.1 s |',
		);
		expect(summary).toContain(
			'**tests/pull.test.yaml \u203a three mornings**\n\n- `expect.distinct`: email "a@x.test" came twice: in run 1 and run 2',
		);
	});
});
