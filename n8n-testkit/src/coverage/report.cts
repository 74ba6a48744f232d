/**
 * Coverage as people and CI read it: a console line per workflow, coverage.json and the pages in
 * the folder asked for, the thresholds of --coverage-min, and `coverage merge`.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { indexPage, pageName, workflowPage } from './html.cjs';
import {
	COVERAGE_FORMAT,
	type CoverageFile,
	totalsOf,
	wentNowhere,
	type WorkflowCoverage,
} from './model.cjs';

/** `Dentists to HubSpot: nodes 9/10, branches 7/9; never: "No email", Has email? › false` */
export function coverageLine(workflow: WorkflowCoverage): string {
	const never = [
		...workflow.nodes.missed.map((n) => `"${n}"`),
		...workflow.branches.missed.map((b) => `${b.node} \u203a ${b.output}`),
	];
	const nowhere = wentNowhere(workflow);
	return `${workflow.name}: nodes ${workflow.nodes.covered}/${workflow.nodes.total}, branches ${workflow.branches.covered}/${workflow.branches.total}${never.length ? `; never: ${never.join(', ')}` : ''}${nowhere.length ? `; ${nowhere.join(', ')}` : ''}`;
}

/** Writes coverage.json, index.html and a page per workflow into `dir`. */
export function writeCoverage(dir: string, coverage: CoverageFile): void {
	mkdirSync(dir, { recursive: true });
	writeFileSync(join(dir, 'coverage.json'), `${JSON.stringify(coverage, null, 2)}\n`);
	writeFileSync(join(dir, 'index.html'), indexPage(coverage));
	coverage.workflows.forEach((w, i) =>
		writeFileSync(join(dir, pageName(w, i)), workflowPage(w, coverage.n8nVersions)),
	);
}

/** A coverage file (or the coverage.json of a folder), checked to be one. */
export function readCoverage(path: string): CoverageFile {
	const file = statSync(path, { throwIfNoEntry: false })?.isDirectory()
		? join(path, 'coverage.json')
		: path;
	let parsed: CoverageFile;
	try {
		parsed = JSON.parse(readFileSync(file, 'utf8')) as CoverageFile;
	} catch (error) {
		throw new Error(`${file}: not a coverage file (${(error as Error).message})`);
	}
	if (parsed?.format !== COVERAGE_FORMAT || !Array.isArray(parsed.workflows))
		throw new Error(
			`${file}: not a coverage file of this runner (format ${COVERAGE_FORMAT}, written by --coverage)`,
		);
	return parsed;
}

export interface Thresholds {
	nodes?: number;
	branches?: number;
	/** The most outputs connected to nothing that may carry items (0: none may). */
	nowhere?: number;
}

/** `nodes=100,branches=80,nowhere=0`: percentages of all workflows together, and a count. */
export function parseThresholds(text: string): Thresholds {
	const thresholds: Thresholds = {};
	for (const part of text
		.split(',')
		.map((p) => p.trim())
		.filter(Boolean)) {
		const match = /^(nodes|branches)=(\d+(?:\.\d+)?)%?$|^(nowhere)=(\d+)$/.exec(part);
		if (!match || Number(match[2]) > 100)
			throw new Error(
				`--coverage-min takes nodes=N and/or branches=N (percentages, 0 to 100) and nowhere=N (how many outputs connected to nothing may carry items; 0: none), comma-separated, e.g. nodes=100,branches=80,nowhere=0; not "${part}"`,
			);
		if (match[3]) {
			thresholds.nowhere = Number(match[4]);
			continue;
		}
		thresholds[match[1] as keyof Thresholds] = Number(match[2]);
	}
	return thresholds;
}

/** What falls short of the thresholds, one line each, naming what was never run. */
export function belowThresholds(coverage: CoverageFile, thresholds: Thresholds): string[] {
	const totals = totalsOf(coverage);
	const lines: string[] = [];
	for (const kind of ['nodes', 'branches'] as const) {
		const min = thresholds[kind];
		if (min === undefined) continue;
		const { total, covered } = totals[kind];
		const ratio = total ? (covered / total) * 100 : 100;
		if (ratio + 1e-9 >= min) continue;
		const missed = coverage.workflows.flatMap((w) =>
			kind === 'nodes'
				? w.nodes.missed.map((n) => `"${n}" (${w.name})`)
				: w.branches.missed.map((b) => `${b.node} \u203a ${b.output} (${w.name})`),
		);
		lines.push(
			`coverage: ${kind} ${Math.round(ratio * 10) / 10} % (${covered}/${total}) is below --coverage-min ${kind}=${min}; never: ${missed.join(', ')}`,
		);
	}
	const nowhere = coverage.workflows.flatMap((w) =>
		wentNowhere(w).map((line) => `${line} (${w.name})`),
	);
	if (thresholds.nowhere !== undefined && nowhere.length > thresholds.nowhere)
		lines.push(
			`coverage: ${nowhere.length} output(s) connected to nothing carried items, more than --coverage-min nowhere=${thresholds.nowhere}: ${nowhere.join(', ')}`,
		);
	return lines;
}
