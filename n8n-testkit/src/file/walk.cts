/**
 * The one walk over a case's expectations of nodes: the case's own (`expect`), every run's
 * (`expect.everyRun`), each run's (`runs[j].expect`) and each sub-workflow's
 * (`expect.workflows.<name>`), each with its path in the file. The runner reads what it must record
 * (which stubbed nodes' sends are read, which outputs are named) and the file's checks read what
 * they must refuse through it.
 */
import type { NodeExpectation, RunExpectation, TestCase } from './schema.cjs';

/** One node expectation of a case, where it is, and the workflow it is of (a sub-workflow's name). */
export interface NodeExpectationAt {
	node: string;
	expectation: NodeExpectation;
	/** Its path in the file, from the case (`expect.nodes.HubSpot`, `runs.1.expect.nodes.X.0`). */
	at: PropertyKey[];
	/** The sub-workflow it is of; undefined: the tested workflow. */
	workflow?: string;
}

/** Each place a case holds node expectations, with its path from the case. */
function nodeMaps(
	testCase: TestCase,
): { nodes: RunExpectation['nodes']; at: PropertyKey[]; workflow?: string }[] {
	const e = testCase.expect;
	return [
		{ nodes: e?.nodes, at: ['expect'] },
		{ nodes: e?.everyRun?.nodes, at: ['expect', 'everyRun'] },
		...(Array.isArray(testCase.runs)
			? testCase.runs.map((r, j) => ({ nodes: r.expect?.nodes, at: ['runs', j, 'expect'] }))
			: []),
		...Object.entries(e?.workflows ?? {}).map(([name, w]) => ({
			nodes: w.nodes,
			at: ['expect', 'workflows', name],
			workflow: name,
		})),
	];
}

/** Every node expectation of a case, a node's list of them one by one. */
export function nodeExpectationsOf(testCase: TestCase): NodeExpectationAt[] {
	return nodeMaps(testCase).flatMap(({ nodes, at, workflow }) =>
		Object.entries(nodes ?? {}).flatMap(([node, list]) =>
			(Array.isArray(list) ? list : [list]).map((expectation, k) => ({
				node,
				expectation,
				at: [...at, 'nodes', node, ...(Array.isArray(list) ? [k] : [])],
				workflow,
			})),
		),
	);
}

/** The stubbed nodes whose sends a case reads (`sent`), of one workflow (undefined: the tested one). */
export const sentRead = (testCase: TestCase, workflow?: string): Set<string> =>
	new Set(
		nodeExpectationsOf(testCase)
			.filter((x) => x.workflow === workflow && x.expectation.sent)
			.map((x) => x.node),
	);

/**
 * The nodes a case names an output of by its name (`output: Failed`, a distinct's output): their
 * names are resolved as n8n describes the nodes.
 */
export function namedOutputNodes(testCase: TestCase): Set<string> {
	const named = new Set(
		nodeExpectationsOf(testCase).flatMap((x) =>
			typeof x.expectation.output === 'string' ? [x.node] : [],
		),
	);
	const distinct = testCase.expect?.distinct;
	if (typeof distinct?.output === 'string') named.add(distinct.node);
	return named;
}
