/** The report CI reads: JUnit XML, a test suite per file and a test case per case. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { detailLines } from './detail.cjs';
import { type FileResult, totals } from './results.cjs';

const escape = (text: string): string =>
	text
		.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
		.replace(/&/g, '&amp;')
		.replace(/</g, '&lt;')
		.replace(/>/g, '&gt;')
		.replace(/"/g, '&quot;');

export function junitXml(files: FileResult[]): string {
	const { passed, failed } = totals(files);
	const suites = files.map((file) => {
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
			return `    <testcase classname="${escape(file.file)}" name="${escape(c.name)}" time="${(c.durationMs / 1000).toFixed(3)}">${failure}${output}${failure || output ? '\n    ' : ''}</testcase>`;
		});
		const failures = file.cases.filter((c) => !c.passed).length;
		return [
			`  <testsuite name="${escape(file.file)}" tests="${file.cases.length}" failures="${failures}" errors="0" time="${(file.durationMs / 1000).toFixed(3)}">`,
			`    <properties><property name="n8n" value="${escape(file.n8nVersion)}"/></properties>`,
			...cases,
			'  </testsuite>',
		].join('\n');
	});
	return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="n8n workflow tests" tests="${passed + failed}" failures="${failed}">\n${suites.join('\n')}\n</testsuites>\n`;
}

export function writeJunit(path: string, files: FileResult[]): void {
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, junitXml(files));
}
