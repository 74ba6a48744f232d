/** The GitHub job summary (GITHUB_STEP_SUMMARY): a table of cases, and each failure under it. */
import { appendFileSync } from 'node:fs';
import type { CoverageFile } from '../coverage/model.cjs';
import { markdownCell } from './markup.cjs';
import { type FileResult, seconds, totals } from './results.cjs';

const cell = markdownCell;

export function githubSummary(files: FileResult[], coverage?: CoverageFile): string {
	const { passed, failed } = totals(files);
	const lines = [
		`### n8n workflow tests: ${failed ? `\u274c ${failed} failed` : '\u2705 all passed'}, ${passed} passed`,
		'',
		'| | Test file | Case | n8n | Time |',
		'|---|---|---|---|---|',
		...files.flatMap((f) =>
			f.cases.map(
				(c) =>
					`| ${c.passed ? '\u2705' : '\u274c'} | ${cell(f.file)} | ${cell(c.name)} | ${f.n8nVersion} | ${seconds(c.durationMs)} |`,
			),
		),
	];
	const failures = files.flatMap((f) => f.cases.filter((c) => !c.passed).map((c) => ({ f, c })));
	if (failures.length) {
		lines.push('', '#### What failed');
		for (const { f, c } of failures) {
			lines.push('', `**${cell(f.file)} \u203a ${cell(c.name)}**`, '');
			for (const failure of c.failures) lines.push(`- \`${failure.at}\`: ${cell(failure.message)}`);
		}
	}
	if (coverage) {
		lines.push(
			'',
			'#### Coverage',
			'',
			'| Workflow | Nodes | Branches | Never run |',
			'|---|---|---|---|',
			...coverage.workflows.map(
				(w) =>
					`| ${cell(w.name)} | ${w.nodes.covered}/${w.nodes.total} | ${w.branches.covered}/${w.branches.total} | ${cell([...w.nodes.missed.map((n) => `"${n}"`), ...w.branches.missed.map((b) => `${b.node} \u203a ${b.output}`)].join(', ')) || '-'} |`,
			),
		);
	}
	return `${lines.join('\n')}\n`;
}

export function appendGithubSummary(
	path: string,
	files: FileResult[],
	coverage?: CoverageFile,
): void {
	appendFileSync(path, githubSummary(files, coverage));
}
