/**
 * The upgrade check (`--n8n A --n8n B --compare`): the suite run on each n8n version in turn, both
 * on one pinned clock (cases that give no instant start at the same minute on both), then set side
 * by side. Each version keeps its own verdict, reports and coverage (under a folder per version);
 * the check adds compare.json, a JUnit suite and a section of the GitHub summary, and an exit
 * status of its own: 3 when every case passed on both but the versions differ.
 */
import { appendFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { githubSummary } from '../report/github.cjs';
import { writeJunit } from '../report/junit.cjs';
import { n8nOf, runWorkflowTests, type WorkflowTestOptions } from '../run.cjs';
import type { WorkflowTestResult } from '../types.cjs';
import {
	type CaseComparison,
	compareCoverage,
	compareResults,
	type CoverageDifference,
} from './diff.cjs';
import { compareGithubSummary, compareLines, differing, writeCompareReport } from './report.cjs';

/** One n8n of the check: its version (or bin) and the Node.js it runs on. */
export interface ComparedN8n {
	n8n: string;
	n8nNode?: string;
}

export interface UpgradeCheckResult {
	/** 0 the versions agree and every case passed, 1 a case failed on a version, 2 nothing ran (a wrong file or option), 3 every case passed but the versions differ. */
	exitCode: 0 | 1 | 2 | 3;
	/** Each version's own run, in the order given. */
	runs: [WorkflowTestResult, WorkflowTestResult];
	/** The n8n versions, as their installs name them. */
	versions: [string, string];
	cases: CaseComparison[];
	/** With coverage: the workflows whose coverage differs. */
	coverage: CoverageDifference[];
}

export async function checkUpgrade(
	options: Omit<WorkflowTestOptions, 'n8n' | 'n8nNode'>,
	n8ns: [ComparedN8n, ComparedN8n],
): Promise<UpgradeCheckResult> {
	const cwd = options.cwd ?? process.cwd();
	const out = options.out ?? ((line) => process.stdout.write(`${line}\n`));
	// One instant for both versions' cases that give none (a minute, so reports read well).
	const clock = options.clock ?? new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString();
	const progress = options.progress ?? ((line) => process.stderr.write(`${line}\n`));
	const runs: WorkflowTestResult[] = [];
	for (const [i, one] of n8ns.entries()) {
		// Found (or installed) first: its version names it in the lines and the folders.
		const install = await n8nOf(one, cwd, progress);
		out(`${i ? '\n' : ''}On n8n ${install.version}:`);
		const label = install.version.replace(/[^\w.-]+/g, '_');
		runs.push(
			await runWorkflowTests({
				...options,
				n8n: install,
				clock,
				detail: true,
				// Each version's own files under a folder of its own; the check writes the joint ones.
				report: options.report !== undefined ? join(options.report, label) : undefined,
				coverage: options.coverage !== undefined ? join(options.coverage, label) : undefined,
				junit: undefined,
				githubSummary: '',
			}),
		);
		if (runs[i].exitCode === 2) break;
	}
	const [a, b] = runs;
	if (!b || a.exitCode === 2 || b.exitCode === 2)
		return { exitCode: 2, runs: [a, b ?? a], versions: ['', ''], cases: [], coverage: [] };
	const versions: [string, string] = [
		a.files[0]?.n8nVersion ?? n8ns[0].n8n,
		b.files[0]?.n8nVersion ?? n8ns[1].n8n,
	];
	if (versions[0] === versions[1])
		progress(
			`note: both runs were on n8n ${versions[0]}: the check compares a version with itself`,
		);
	const cases = compareResults(a.files, b.files);
	// With --coverage: each workflow's nodes and branches run on each version, where they differ.
	const coverage = compareCoverage(a.coverage, b.coverage);
	for (const line of compareLines(versions, cases, coverage)) out(line);
	if (options.report !== undefined)
		writeCompareReport(resolve(cwd, options.report), versions, cases, coverage);
	if (options.junit)
		writeJunit(resolve(cwd, options.junit), [...a.files, ...b.files], { versions, cases });
	const summary = options.githubSummary ?? process.env.GITHUB_STEP_SUMMARY;
	if (summary)
		appendFileSync(
			summary,
			`${githubSummary([...a.files, ...b.files], undefined)}\n${compareGithubSummary(versions, cases, coverage)}`,
		);
	const failed = a.exitCode === 1 || b.exitCode === 1;
	return {
		exitCode: failed ? 1 : differing(cases).length || coverage.length ? 3 : 0,
		runs: [a, b],
		versions,
		cases,
		coverage,
	};
}
