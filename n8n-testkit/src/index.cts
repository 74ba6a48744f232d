/**
 * n8n-testkit's API: the runner as a function (for Jest or Vitest users), its command, and what a
 * service simulator is built with (the interface, and the matchers its expectations use).
 */
export { main } from './cli.cjs';
export { testCommand, type CommandSetup } from './command.cjs';
export { runWorkflowTests } from './run.cjs';
export { count as countSchema } from './file/schema.cjs';
export { countHolds, describeCount, shown } from './expect/match.cjs';
export type {
	ServiceDetail,
	ServiceFile,
	ServiceNode,
	ServiceSchema,
	ServiceSession,
	WorkflowTestService,
} from './services/service.cjs';
export type * from './types.cjs';
