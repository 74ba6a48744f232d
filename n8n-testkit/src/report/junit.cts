/** The report CI reads: JUnit XML, a test suite per file and a test case per case. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CaseComparison } from '../compare/diff.cjs';
import { compareJunitSuite } from '../compare/report.cjs';
import { detailLines } from './detail.cjs';
import { escapeXml } from './markup.cjs';
import { type FileResult, totals } from './results.cjs';

const escape = escapeXml;

/** Files of one run, or of several n8n versions (an upgrade check: its own suite added). */
export function junitXml(
	files: FileResult[],
	compared?: { versions: [string, string]; cases: CaseComparison[] },
): string {
	const { passed, failed } = totals(files);
	// Several versions' runs of one file: each suite named with its version.
	const versioned = new Set(files.map((f) => f.n8nVersion)).size > 1;
	const suites = files.map((file) => {
		const suite = versioned ? `n8n ${file.n8nVersion} \u203a ${file.file}` : file.file;
		const cases = file.cases.map((c) => {
			const failure = c.passed
				? ''
				: `\n      <failure message="${escape(c.failures[0]?.message ?? 'failed')}">${escape(c.failures.map((f) => `${f.at}: ${f.message}`).join('\n'))}</failure>`;
			// What the case did (--show, --report), where CI shows a test's output.
			const output = `${
				c.detail
					? `\n      <system-out>${escape(detailLines(c.detail).join('\n'))}</system-out>`
					: ''
			}${
				c.warnings?.length
					? `\n      <system-err>${escape(c.warnings.map((w) => `warning: ${w.at}: ${w.message}`).join('\n'))}</system-err>`
					: ''
			}`;
			return `    <testcase classname="${escape(suite)}" name="${escape(c.name)}" time="${(c.durationMs / 1000).toFixed(3)}">${failure}${output}${failure || output ? '\n    ' : ''}</testcase>`;
		});
		const failures = file.cases.filter((c) => !c.passed).length;
		return [
			`  <testsuite name="${escape(suite)}" tests="${file.cases.length}" failures="${failures}" errors="0" time="${(file.durationMs / 1000).toFixed(3)}">`,
			`    <properties><property name="n8n" value="${escape(file.n8nVersion)}"/></properties>`,
			...cases,
			'  </testsuite>',
		].join('\n');
	});
	// The upgrade check's suite counts with the rest: a case that differs is a failure there.
	const checked = compared?.cases.length ?? 0;
	const differ = compared?.cases.filter((c) => c.differences.length).length ?? 0;
	if (compared) suites.push(compareJunitSuite(compared.versions, compared.cases));
	return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="n8n workflow tests" tests="${passed + failed + checked}" failures="${failed + differ}">\n${suites.join('\n')}\n</testsuites>\n`;
}

export function writeJunit(
	path: string,
	files: FileResult[],
	compared?: { versions: [string, string]; cases: CaseComparison[] },
): void {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, junitXml(files, compared));
}
