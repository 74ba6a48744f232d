/**
 * The workflow test runner as a function, for Jest or Vitest users: the `test` command's work
 * (docs/testing-workflows.md). Its types are written out in workflow-test-types.cts.
 */
import { runWorkflowTests as run } from '../../../n8n-testkit/src/run.cjs';
import type { WorkflowTestOptions, WorkflowTestResult } from '../../../n8n-testkit/src/types.cjs';

/** Runs workflow test files in real n8n against the reference server. */
export async function runWorkflowTests(options: WorkflowTestOptions): Promise<WorkflowTestResult> {
	return await run(options);
}
