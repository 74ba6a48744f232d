/**
 * The package's in-process API: `import { startMockServer } from 'lead-inbox-mock-server'`.
 * Built into dist/lead-inbox-mock-server-api with its type declarations, dist/index.d.ts
 * (mock-server/build.cjs).
 */
import './require-node.cjs';
export { startMockServer, type MockServer } from './start.cjs';
export type { MockServerOptions, SharedScans } from './options.cjs';
export type {
	WorkflowTestCaseDetail,
	WorkflowTestCaseResult,
	WorkflowTestCoverage,
	WorkflowTestFailure,
	WorkflowTestFileResult,
	WorkflowTestNodeCoverage,
	WorkflowTestNodeDetail,
	WorkflowTestOptions,
	WorkflowTestOutputCoverage,
	WorkflowTestProblem,
	WorkflowTestResult,
	WorkflowTestRunDetail,
	WorkflowTestWorkflowCoverage,
} from '../../../n8n-testkit/src/index.cjs';
export { runWorkflowTests, type LeadInboxWorkflowTestOptions } from './workflow-tests.cjs';
export {
	AdminApiError,
	AdminClient,
	type Account,
	type ClockState,
	type Fault,
	type FaultRoute,
	type FaultScope,
	type InboxAsListed,
	type InboxStatus,
	type JournalEntry,
	type Permission,
	type RequestFilter,
	type Seed,
} from './admin-client.cjs';
