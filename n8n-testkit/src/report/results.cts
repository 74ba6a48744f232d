import type { WorkflowTestFileResult } from '../types.cjs';

/** A test file's outcome: its cases, or why none could run (n8n did not start, say). */
export type FileResult = WorkflowTestFileResult;

export const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

export function totals(files: FileResult[]): { passed: number; failed: number } {
	const cases = files.flatMap((f) => f.cases);
	return {
		passed: cases.filter((c) => c.passed).length,
		failed: cases.filter((c) => !c.passed).length,
	};
}
