/**
 * What differs between the n8n lines the package supports (1.123.x, 2.8.x, 2.40.x), in one place:
 * the Node.js each runs on, the environment each needs, and how a workflow is published.
 */

export const majorOf = (version: string): number => Number(version.split('.')[0]);

/**
 * The environment a line needs. 1.x runs its legacy expression engine: its default one needs
 * isolated-vm, which does not build on Node 20, where 1.x instances run (a 1.x instance on
 * Node 20 does the same).
 */
export function lineEnv(version: string): Record<string, string> {
	return majorOf(version) < 2 ? { N8N_EXPRESSION_ENGINE: 'legacy' } : {};
}

/**
 * What the workflow test runner needs beside: a trigger check is an activation, answered once
 * the trigger has polled. n8n 2.40 publishes through an outbox by default, answering before
 * the triggers are set up and dropping what the activation's poll remembers when it finds
 * nothing (its first check); its synchronous publication (still there, behind this switch) polls
 * and saves the trigger's memory before it answers, as 2.8 and 1.x do.
 */
export const RUNNER_ENV: Record<string, string> = { N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false' };

/** The CLI command that publishes (2.x) or activates (1.x, which has no publishing) a workflow. */
export function publishCommand(version: string, workflowId: string): string[] {
	return majorOf(version) < 2
		? ['update:workflow', `--id=${workflowId}`, '--active=true']
		: ['publish:workflow', `--id=${workflowId}`];
}
