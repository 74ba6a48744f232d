import type { CaseResult } from '../run-case.cjs';

/** A test file's outcome: its cases, or why none could run (n8n did not start, say). */
export interface FileResult {
	file: string;
	n8nVersion: string;
	cases: CaseResult[];
	durationMs: number;
	/** Set when the file could not run at all; its cases are then reported failed with it. */
	error?: string;
}

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

export function totals(files: FileResult[]): { passed: number; failed: number } {
	const cases = files.flatMap((f) => f.cases);
	return {
		passed: cases.filter((c) => c.passed).length,
		failed: cases.filter((c) => !c.passed).length,
	};
}
