/** The report people read: a line per case, ✓ or ✗, and under a ✗ each expectation that failed. */
import type { CaseResult } from '../run-case.cjs';
import { type FileResult, seconds, totals } from './results.cjs';

export function caseLines(file: string, result: CaseResult): string[] {
	const head = `${result.passed ? '\u2713' : '\u2717'} ${file} \u203a ${result.name} (${seconds(result.durationMs)}${result.runs > 1 ? `, ${result.runs} runs` : ''})`;
	return [
		head,
		...result.failures.map((f) => `    ${f.at}: ${f.message}`),
		...(result.warnings ?? []).map((w) => `    warning: ${w.at}: ${w.message}`),
	];
}

export function summaryLines(files: FileResult[], durationMs: number): string[] {
	const { passed, failed } = totals(files);
	return [
		'',
		`${failed ? '\u2717' : '\u2713'} ${passed} passed, ${failed} failed, in ${files.length} file(s), ${seconds(durationMs)}`,
	];
}
