/**
 * `--report DIR`: each case as JSON, in a folder per test file (its path, slashes as "__"), named
 * by its place in the file and its name: what it expected that failed, and what it did.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FileResult } from './results.cjs';

/** A name as a file name: letters, digits, dots, dashes and underscores. */
const slug = (text: string) =>
	text
		.replace(/[^A-Za-z0-9._-]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 80) || 'case';

export function writeCaseReport(dir: string, file: FileResult, index: number): string {
	const result = file.cases[index];
	const folder = join(dir, slug(file.file.replace(/[\\/]/g, '__')));
	mkdirSync(folder, { recursive: true });
	const path = join(folder, `${String(index + 1).padStart(2, '0')}-${slug(result.name)}.json`);
	// Each service's own fields at the top of the detail, below the runner's.
	const detail: Record<string, unknown> | undefined = result.detail && {
		...Object.fromEntries(
			Object.values(result.detail.services ?? {}).flatMap((s) => Object.entries(s.report ?? {})),
		),
		...result.detail,
	};
	const written = { ...result, ...(detail ? { detail } : {}) };
	writeFileSync(
		path,
		`${JSON.stringify({ file: file.file, n8nVersion: file.n8nVersion, case: written }, null, 2)}\n`,
	);
	return path;
}
