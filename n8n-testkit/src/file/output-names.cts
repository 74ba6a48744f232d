/**
 * The outputs a test file names (`output: Spend`, `output: error`) against the nodes it names
 * them on, as n8n describes those nodes: checked before n8n starts, so a wrong name costs no
 * n8n start and the message lists the names the node has. A node whose description is not found
 * on disk is checked once n8n runs (run-case.cts), by the same rules.
 */
import type { DescribedNode } from '../n8n/descriptions.cjs';
import {
	ERROR_OUTPUT,
	parameterNames,
	resolveOutput,
	unknownOutput,
} from '../workflow/outputs.cjs';
import type { SubWorkflow } from '../workflow/sub-workflows.cjs';
import type { Workflow, WorkflowNode } from '../workflow/workflow.cjs';
import type { Misfit } from './misfits.cjs';
import type { NodeExpectation, TestFile } from './schema.cjs';

type Describe = (node: WorkflowNode) => DescribedNode | undefined;

/** The output a node expectation (or a list of them) names, at its path. */
function namedIn(
	nodes: Record<string, NodeExpectation | NodeExpectation[]> | undefined,
	at: PropertyKey[],
): { node: string; output: string; at: PropertyKey[] }[] {
	return Object.entries(nodes ?? {}).flatMap(([node, e]) =>
		(Array.isArray(e)
			? e.map((x, i) => [x, [...at, node, i]] as const)
			: [[e, [...at, node]] as const]
		)
			.filter(([x]) => typeof x.output === 'string')
			.map(([x, path]) => ({ node, output: x.output as string, at: [...path, 'output'] })),
	);
}

export function outputNameMisfits(
	spec: TestFile,
	workflow: Workflow,
	subs: SubWorkflow[],
	describe: Describe,
): Misfit[] {
	const found: Misfit[] = [];
	const check = (w: Workflow, named: { node: string; output: string; at: PropertyKey[] }[]) => {
		for (const { node: name, output, at } of named) {
			const node = w.nodes.find((n) => n.name === name);
			if (!node) continue; // load.cts names unknown nodes
			const described = describe(node);
			if (resolveOutput(node, described, output) !== undefined) continue;
			// Without its description only the error output, and a Switch's, can be judged here.
			if (!described && !parameterNames(node) && output.trim().toLowerCase() !== ERROR_OUTPUT)
				continue;
			found.push({ at, message: unknownOutput(name, node, described, output) });
		}
	};
	spec.cases.forEach((c, i) => {
		const at = ['cases', i];
		check(workflow, [
			...namedIn(c.expect?.nodes, [...at, 'expect', 'nodes']),
			...namedIn(c.expect?.everyRun?.nodes, [...at, 'expect', 'everyRun', 'nodes']),
			...(Array.isArray(c.runs)
				? c.runs.flatMap((r, j) => namedIn(r.expect?.nodes, [...at, 'runs', j, 'expect', 'nodes']))
				: []),
			...(typeof c.expect?.distinct?.output === 'string'
				? [
						{
							node: c.expect.distinct.node,
							output: c.expect.distinct.output,
							at: [...at, 'expect', 'distinct', 'output'],
						},
					]
				: []),
		]);
		for (const [name, e] of Object.entries(c.expect?.workflows ?? {})) {
			const sub = subs.find((s) => s.name === name);
			if (sub) check(sub.workflow, namedIn(e.nodes, [...at, 'expect', 'workflows', name, 'nodes']));
		}
	});
	return found;
}
