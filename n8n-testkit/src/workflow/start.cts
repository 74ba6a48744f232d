/** The node a test's runs start from. */
import { isTrigger } from './node-kinds.cjs';
import type { Workflow, WorkflowNode } from './workflow.cjs';

/** The start node: the one named, else the workflow's only enabled trigger. */
export function findStart(workflow: Workflow, named?: string): WorkflowNode | string {
	if (named)
		return (
			workflow.nodes.find((n) => n.name === named) ?? `the workflow has no node named "${named}"`
		);
	const triggers = workflow.nodes.filter((n) => isTrigger(n.type) && !n.disabled);
	if (triggers.length === 1) return triggers[0];
	if (!triggers.length)
		return 'the workflow has no trigger to start from: add a Manual Trigger (or name the start node with `start:`)';
	return `the workflow has ${triggers.length} triggers (${triggers.map((t) => t.name).join(', ')}): name the one to start from with \`start:\``;
}
