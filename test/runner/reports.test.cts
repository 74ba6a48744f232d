import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunView } from '../../n8n-testkit/src/expect/check.cjs';
import { writeCaseReport } from '../../n8n-testkit/src/report/case-report.cjs';
import { caseLines, summaryLines } from '../../n8n-testkit/src/report/console.cjs';
import { detailLines, runDetail } from '../../n8n-testkit/src/report/detail.cjs';
import { githubSummary } from '../../n8n-testkit/src/report/github.cjs';
import { junitXml } from '../../n8n-testkit/src/report/junit.cjs';
import type { FileResult } from '../../n8n-testkit/src/report/results.cjs';

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

	it("--show: a run's clock in UTC and the workflow's zone, the waits it passed (one already due said so), and a case's warnings", () => {
		const at = (iso: string) => Date.parse(iso);
		const view: RunView = {
			status: 'success',
			nodes: {},
			outputIndex: () => 0,
			clock: { start: at('2027-03-29T07:00:00.098Z'), end: at('2027-03-29T07:00:02.570Z') },
			skips: [
				{
					node: 'Wait for a reply',
					execution: '3',
					from: '2027-03-01T09:00:00.486Z',
					to: '2027-03-03T09:00:00.000Z',
					timeLimit: true,
				},
				// Due before the clock got there (a wait At Specified Time already past).
				{
					node: 'Wait until Monday',
					execution: '3',
					from: '2027-03-04T09:00:00.500Z',
					to: '2027-03-04T08:00:00.000Z',
				},
			],
		};
		const berlin = runDetail(view, 'Europe/Berlin');
		expect(berlin.clock).toEqual({
			start: '2027-03-29T07:00:00.098Z',
			end: '2027-03-29T07:00:02.570Z',
			timezone: 'Europe/Berlin',
			startLocal: '2027-03-29T09:00:00.098+02:00',
			endLocal: '2027-03-29T09:00:02.570+02:00',
		});
		expect(detailLines({ runs: [berlin] }).slice(0, 4)).toEqual([
			'      run 1: success',
			'        clock 2027-03-29T07:00:00.098Z \u2192 2027-03-29T07:00:02.570Z (Europe/Berlin: Mon 2027-03-29 09:00:00 +02:00 \u2192 Mon 2027-03-29 09:00:02 +02:00)',
			'        "Wait for a reply" timed out, no request having come: the clock moved from 2027-03-01T09:00:00.486Z to 2027-03-03T09:00:00.000Z at once',
			'        "Wait until Monday" waited on time: its end, 2027-03-04T08:00:00.000Z, had passed (the clock was at 2027-03-04T09:00:00.500Z): resumed at once',
		]);
		expect(detailLines({ runs: [runDetail(view)] })[1]).toBe(
			'        clock 2027-03-29T07:00:00.098Z \u2192 2027-03-29T07:00:02.570Z',
		);
		expect(
			caseLines('t.test.yaml', {
				name: 'a digest',
				passed: true,
				failures: [],
				durationMs: 1200,
				runs: 2,
				warnings: [
					{ at: 'runs.1', message: 'the run starts at a time "Weekdays at 9" never fires at' },
				],
			}),
		).toEqual([
			'\u2713 t.test.yaml \u203a a digest (1.2 s, 2 runs)',
			'    warning: runs.1: the run starts at a time "Weekdays at 9" never fires at',
		]);
	});

	it('--show: each node per run with its items per output and the first, sends, the answer, sub-workflows, requests', () => {
		const lead = (n: number) => ({ name: `Lead ${n}`, email: n % 2 ? `l${n}@x.test` : '' });
		const view: RunView = {
			status: 'success',
			nodes: {
				'Fetch Leads': [{ outputs: [[1, 2, 3, 4].map(lead), [{ charged: 4 }]], hints: [] }],
				'Has email?': [
					{ outputs: [[lead(1)], [lead(2)]], hints: [] },
					{ outputs: [[lead(3)], [lead(4)]], hints: [] },
				],
				HubSpot: [],
			},
			sent: {
				HubSpot: {
					items: [{ email: 'l1@x.test' }, { email: 'l3@x.test' }],
					errors: [
						{ item: 1, parameter: 'additionalFields.companyName', message: 'no Company sheet' },
					],
				},
			},
			response: { status: 200, headers: {}, body: { added: 2 } },
			outputIndex: () => 0,
		};
		const detail = {
			runs: [runDetail(view)],
			workflows: {
				Notify: { executions: 2, ...runDetail({ ...view, sent: {}, response: undefined }) },
			},
			services: {
				'Lead Inbox': {
					requests: ['POST /api/v1/niche-finder-leads {} -> 200 (body {"count":4})'],
					facts: ['4 credit(s) charged'],
					counts: { creditsCharged: 4 },
					report: {
						requests: ['POST /api/v1/niche-finder-leads {} -> 200 (body {"count":4})'],
						creditsCharged: 4,
					},
				},
			},
		};
		expect(detailLines(detail)).toEqual([
			'      run 1: success',
			'        Fetch Leads: outputs 0: 4, 1: 1  first: {"name":"Lead 1","email":"l1@x.test"}',
			'        Has email?: outputs 0: 2, 1: 2 (2 runs)  first: {"name":"Lead 1","email":"l1@x.test"}',
			'        HubSpot: 0 items',
			'        HubSpot would have sent 2 items  first: {"email":"l1@x.test"}; 1 parameter(s) n8n could not resolve, the first: additionalFields.companyName: no Company sheet',
			'        answered 200: {"added":2}',
			'      sub-workflow "Notify": 2 executions, success',
			'        Fetch Leads: outputs 0: 4, 1: 1  first: {"name":"Lead 1","email":"l1@x.test"}',
			'        Has email?: outputs 0: 2, 1: 2 (2 runs)  first: {"name":"Lead 1","email":"l1@x.test"}',
			'        HubSpot: 0 items',
			'      Lead Inbox: 1 request, 4 credit(s) charged',
			'        POST /api/v1/niche-finder-leads {} -> 200 (body {"count":4})',
		]);
		// --report: the same, per case, as JSON in a folder per test file.
		const dir = mkdtempSync(join(tmpdir(), 'case-report-'));
		const path = writeCaseReport(
			dir,
			{ ...files[0], cases: [{ ...files[0].cases[0], detail }] },
			0,
		);
		expect(path).toBe(join(dir, 'tests__pull.test.yaml', '01-a-morning-pull-more.json'));
		expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({
			file: 'tests/pull.test.yaml',
			n8nVersion: '2.40.7',
			// The service's own report fields at the top of the detail (where Lead Inbox reports had them).
			case: JSON.parse(
				JSON.stringify({
					...files[0].cases[0],
					detail: {
						requests: ['POST /api/v1/niche-finder-leads {} -> 200 (body {"count":4})'],
						creditsCharged: 4,
						...detail,
					},
				}),
			),
		});
		expect(detail.runs[0].nodes['Has email?']).toEqual({
			runs: 2,
			items: [2, 2],
			first: [
				[lead(1), lead(3)],
				[lead(2), lead(4)],
			],
		});
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
