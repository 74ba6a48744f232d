/**
 * The workflow test runner as a function, for Jest or Vitest users: the `test` command's work
 * (docs/testing-workflows.md), n8n-testkit's runWorkflowTests with the Lead Inbox service given.
 */
import {
	runWorkflowTests as run,
	type WorkflowTestOptions,
	type WorkflowTestResult,
} from '../../../n8n-testkit/src/index.cjs';
import { leadInboxService } from '../workflow-tests/service.cjs';

/** The runner's options, and the Lead Inbox service's own. */
export interface LeadInboxWorkflowTestOptions extends WorkflowTestOptions {
	/** The Lead Inbox service answers from recordings of the real services (the server's --replay). */
	replay?: string;
}

/** Runs workflow test files in real n8n, the Lead Inbox nodes against the reference server. */
export async function runWorkflowTests(
	options: LeadInboxWorkflowTestOptions,
): Promise<WorkflowTestResult> {
	const { replay, services = [], ...rest } = options;
	return await run({ ...rest, services: [leadInboxService({ replay }), ...services] });
}
