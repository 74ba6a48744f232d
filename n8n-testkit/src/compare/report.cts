/**
 * The upgrade check as people read it: console lines, compare.json (--report), a JUnit test suite
 * and a section of the GitHub job summary. Only cases whose versions differ are listed; agreeing
 * cases are counted.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeXml as escape, markdownCell as cell } from '../report/markup.cjs';
import type { CaseComparison, CoverageDifference } from './diff.cjs';

/** A value as a line shows it: long JSON cut short. */
const brief = (text: string, max = 160) =>
	text.length > max ? `${text.slice(0, max)}\u2026` : text;

const verdict = (passed: boolean | undefined) =>
	passed === undefined ? 'not run' : passed ? 'passed' : 'failed';

export const differing = (cases: CaseComparison[]): CaseComparison[] =>
	cases.filter((c) => c.differences.length);

export function compareLines(
	versions: [string, string],
	cases: CaseComparison[],
	coverage: CoverageDifference[] = [],
): string[] {
	const [a, b] = versions;
	const lines = ['', `Upgrade check: n8n ${a} \u2192 ${b}`];
	for (const w of coverage) {
		lines.push(`  \u2260 coverage of ${w.workflow}`);
		for (const d of w.differences) lines.push(`      ${d.at}: ${brief(d.a)} \u2192 ${brief(d.b)}`);
	}
	for (const c of differing(cases)) {
		lines.push(
			`  \u2260 ${c.file} \u203a ${c.case} (${a}: ${verdict(c.passed[0])}, ${b}: ${verdict(c.passed[1])})`,
		);
		for (const d of c.differences) lines.push(`      ${d.at}: ${brief(d.a)} \u2192 ${brief(d.b)}`);
	}
	const differ = differing(cases).length;
	lines.push(
		differ
			? `  ${differ} case(s) differ between n8n ${a} and ${b}, ${cases.length - differ} agree.`
			: `  \u2713 all ${cases.length} case(s) agree between n8n ${a} and ${b}.`,
	);
	return lines;
}

/** compare.json: the versions and every case, with what differs (an empty list: they agree). */
export function writeCompareReport(
	dir: string,
	versions: [string, string],
	cases: CaseComparison[],
	coverage: CoverageDifference[] = [],
): string {
	mkdirSync(dir, { recursive: true });
	const path = join(dir, 'compare.json');
	writeFileSync(path, `${JSON.stringify({ versions, cases, coverage }, null, 2)}\n`);
	return path;
}

/** A JUnit test suite of its own: a test case per case, failed where the versions differ. */
export function compareJunitSuite(versions: [string, string], cases: CaseComparison[]): string {
	const name = `upgrade check: n8n ${versions[0]} \u2192 ${versions[1]}`;
	const testcases = cases.map((c) => {
		const open = `    <testcase classname="${escape(`${name} \u203a ${c.file}`)}" name="${escape(c.case)}" time="0">`;
		if (!c.differences.length) return `${open}</testcase>`;
		const text = c.differences.map((d) => `${d.at}: ${d.a} \u2192 ${d.b}`).join('\n');
		return `${open}\n      <failure message="${escape(`${c.differences.length} difference(s), the first: ${c.differences[0].at}`)}">${escape(text)}</failure>\n    </testcase>`;
	});
	return [
		`  <testsuite name="${escape(name)}" tests="${cases.length}" failures="${differing(cases).length}" errors="0" time="0">`,
		...testcases,
		'  </testsuite>',
	].join('\n');
}

/** The GitHub job summary's section: a row per difference of each case that differs. */
export function compareGithubSummary(
	versions: [string, string],
	cases: CaseComparison[],
	coverage: CoverageDifference[] = [],
): string {
	const [a, b] = versions;
	const differ = differing(cases);
	const lines = [
		`### Upgrade check, n8n ${a} \u2192 ${b}: ${differ.length ? `\u26a0\ufe0f ${differ.length} case(s) differ` : '\u2705 every case agrees'}, ${cases.length - differ.length} agree`,
	];
	if (differ.length) {
		lines.push('', `| Test file | Case | Where | n8n ${a} | n8n ${b} |`, '|---|---|---|---|---|');
		for (const c of differ)
			for (const d of c.differences)
				lines.push(
					`| ${cell(c.file)} | ${cell(c.case)} | ${cell(d.at)} | \`${cell(brief(d.a, 80))}\` | \`${cell(brief(d.b, 80))}\` |`,
				);
	}
	if (coverage.length) {
		lines.push('', `| Coverage of | Where | n8n ${a} | n8n ${b} |`, '|---|---|---|---|');
		for (const w of coverage)
			for (const d of w.differences)
				lines.push(
					`| ${cell(w.workflow)} | ${cell(d.at)} | \`${cell(brief(d.a, 80))}\` | \`${cell(brief(d.b, 80))}\` |`,
				);
	}
	return `${lines.join('\n')}\n`;
}
