/**
 * What the checks read of a case's runs: output names resolved as n8n describes the nodes, what
 * stubbed nodes would have sent, and each node run placed in time (for the HTTP mocks' requests).
 */
import { type RunView } from '../expect/check.cjs';
import type { Workflow, WorkflowNode } from '../file/load.cjs';
import { type TestCase } from '../file/schema.cjs';
import { namedOutputNodes } from '../file/walk.cjs';
import type { NodeDescription, Session } from '../session.cjs';
import { type OutputRef, resolveOutput, unknownOutput } from '../workflow/outputs.cjs';
import { type SentPlan, sentOf } from '../workflow/sent.cjs';

/** Every run of every node of a view (of a sub-workflow, named). */
export const runsOf = (view: RunView, workflow?: string) =>
	Object.entries(view.nodes).flatMap(([node, runs]) =>
		runs.map((run) => ({
			node,
			workflow,
			startTime: run.startTime,
			executionTime: run.executionTime,
		})),
	);

/**
 * A run's view as the checks read it: output names resolved, what stubbed nodes would have sent
 * (from their recorders), what models were told, and only the export's own nodes (the runner's
 * start, stub holders and recorders leave it).
 */
export function completeView(
	view: RunView,
	exported: Workflow,
	sent: Record<string, SentPlan>,
	outputIndex: RunView['outputIndex'],
	told: RunView['told'],
): void {
	view.outputIndex = outputIndex;
	view.told = told;
	view.sent = Object.fromEntries(
		Object.entries(sent).map(([node, plan]) => [node, sentOf(plan, view.nodes)]),
	);
	const own = new Set(exported.nodes.map((n) => n.name));
	for (const node of Object.keys(view.nodes)) if (!own.has(node)) delete view.nodes[node];
}

/** Outputs by index only; runCase gives the views n8n's output names once the runs are done. */
export const byIndex = (node: string, output: number | string): OutputRef | string =>
	resolveOutput(undefined, undefined, output) ??
	unknownOutput(node, undefined, undefined, String(output));

/**
 * Output names (Create Inboxes' Failed, Fetch Leads' Spend, any node's error output) to indexes,
 * as n8n describes the nodes: read only for the nodes a case's expectations name an output of.
 */
export async function outputIndexOf(
	session: Session,
	workflows: Workflow[],
	testCase: TestCase,
): Promise<RunView['outputIndex']> {
	const named = namedOutputNodes(testCase);
	const found = new Map<string, { node?: WorkflowNode; described?: NodeDescription }>();
	for (const name of named) {
		const node = workflows.flatMap((w) => w.nodes).find((n) => n.name === name);
		found.set(name, {
			node,
			described: node ? await session.described(node.type, node.typeVersion) : undefined,
		});
	}
	return (name, output) => {
		const { node, described } = found.get(name) ?? {};
		return (
			resolveOutput(node, described, output) ?? unknownOutput(name, node, described, String(output))
		);
	};
}
