/**
 * Workflow coverage: which nodes of each tested workflow (and sub-workflow) ran, and which outputs
 * items crossed, per case. Collected from what each case did (its detail), kept in coverage.json
 * with the workflow's drawing (positions, connections), so runs merge (the same suite on three n8n
 * lines) and the page is drawn from the file alone.
 *
 * A node counts when it is enabled and not a sticky note; it is covered when it ran in a case (a
 * stub in its place counts: the node's place in the flow was reached). A branch is an output of a
 * node that has more than one (If's true and false, Create Inboxes' Created and Failed, Loop Over
 * Items' done and loop, an error output) and is connected to a node; it is covered when items
 * crossed it. Such an output connected to nothing is no branch: items that went into it went
 * nowhere (an error output left unwired swallows failures), and are listed apart.
 */
import type {
	WorkflowTestCaseDetail,
	WorkflowTestCoverage as CoverageFile,
	WorkflowTestNodeCoverage as NodeCoverage,
	WorkflowTestOutcomeCoverage as OutcomeCoverage,
	WorkflowTestRunDetail as RunDetail,
	WorkflowTestWorkflowCoverage as WorkflowCoverage,
} from '../types.cjs';
import { hasTimeLimit } from '../workflow/node-kinds.cjs';
import { describedNames } from '../workflow/outputs.cjs';
import type { Workflow, WorkflowNode } from '../workflow/workflow.cjs';

export const COVERAGE_FORMAT = 1;

export type { CoverageFile, NodeCoverage, WorkflowCoverage };
type Connection = WorkflowCoverage['graph']['connections'][number];

const STICKY = 'n8n-nodes-base.stickyNote';

/** What the runner knows of a node's main outputs before any case: how many, and their names. */
export interface OutputShape {
	count: number;
	names: (string | undefined)[];
}

/** A node's main outputs from n8n's description (when it lists them) and the export's wiring. */
export function outputShape(
	node: WorkflowNode,
	workflow: Workflow,
	described: { outputs?: unknown; outputNames?: string[] } | undefined,
): OutputShape {
	const listed = Array.isArray(described?.outputs) ? described.outputs.length : 0;
	const errorOutput = node.onError === 'continueErrorOutput';
	const wired = (workflow.connections[node.name]?.main ?? []).length;
	const count = Math.max(listed + (errorOutput && listed ? 1 : 0), wired, 1);
	// The names n8n shows (also those an outputs expression spells out: Fetch Leads' Spend).
	const names: (string | undefined)[] = describedNames(described);
	// Where the outputs are known before a run, the error output is the last of them; else each
	// run's last output is named so (addCase).
	if (errorOutput && listed) names[count - 1] = 'error';
	return { count, names };
}

/** The graph of a workflow as exported: its nodes (no sticky notes) and connections. */
function graphOf(workflow: Workflow, shapes: Map<string, OutputShape>): WorkflowCoverage['graph'] {
	const connections: Connection[] = [];
	for (const [from, byType] of Object.entries(workflow.connections))
		for (const [type, outputs] of Object.entries(byType ?? {}))
			(outputs ?? []).forEach((targets, output) => {
				for (const target of targets ?? [])
					connections.push({ from, output, to: target.node, type });
			});
	const subNodes = new Set(connections.filter((c) => c.type !== 'main').map((c) => c.from));
	const nodes = workflow.nodes
		.filter((n) => n.type !== STICKY)
		.map((n): NodeCoverage => {
			const shape = shapes.get(n.name) ?? { count: 1, names: [] };
			const position = Array.isArray(n.position) ? (n.position as [number, number]) : [0, 0];
			return {
				name: n.name,
				type: n.type,
				position: [Number(position[0]) || 0, Number(position[1]) || 0],
				...(n.disabled ? { disabled: true } : {}),
				...(subNodes.has(n.name) ? { subNode: true } : {}),
				...(shape.names.length > shape.count
					? { outputNames: shape.names.map((name, i) => name ?? String(i)) }
					: {}),
				...(n.onError === 'continueErrorOutput' ? { errorOutput: true as const } : {}),
				...(hasTimeLimit(n)
					? {
							outcomes: OUTCOMES.map((name) => ({ name, cases: {} })),
						}
					: {}),
				cases: [],
				outputs: subNodes.has(n.name)
					? []
					: Array.from({ length: shape.count }, (_, index) => ({
							index,
							name: shape.names[index] ?? String(index),
							items: 0,
							cases: {},
						})),
			};
		});
	return { nodes, connections: connections.filter((c) => nodes.some((n) => n.name === c.to)) };
}

/** A workflow's coverage before any case: nothing ran. */
export function emptyCoverage(
	workflow: Workflow,
	file: string,
	shapes: Map<string, OutputShape>,
): WorkflowCoverage {
	return summarize({
		name: workflow.name ?? file,
		file,
		nodes: { total: 0, covered: 0, missed: [] },
		branches: { total: 0, covered: 0, missed: [] },
		nowhere: [],
		cases: [],
		graph: graphOf(workflow, shapes),
	});
}

/** What one case's runs (or a sub-workflow's executions in it) did, added to the workflow's coverage. */
export function addCase(
	coverage: WorkflowCoverage,
	caseId: string,
	nodes: WorkflowTestCaseDetail['runs'][number]['nodes'][],
): void {
	if (!coverage.cases.includes(caseId)) coverage.cases.push(caseId);
	for (const node of coverage.graph.nodes)
		for (const run of nodes) {
			const did = run[node.name];
			if (!did) continue;
			if (!node.cases.includes(caseId)) node.cases.push(caseId);
			did.items.forEach((items, index) => {
				// An output the description did not list (a Switch's rules): seen now.
				while (!node.subNode && node.outputs.length <= index)
					node.outputs.push({
						index: node.outputs.length,
						name: node.outputNames?.[node.outputs.length] ?? String(node.outputs.length),
						items: 0,
						cases: {},
					});
				const output = node.outputs[index];
				// n8n adds the error output after the node's own, whichever those were in this run.
				if (output && node.errorOutput && index === did.items.length - 1) output.name = 'error';
				if (!output || !items) return;
				output.items += items;
				output.cases[caseId] = (output.cases[caseId] ?? 0) + items;
			});
		}
	summarize(coverage);
}

const OUTCOMES: OutcomeCoverage['name'][] = ['resumed by a request', 'timed out'];

/**
 * How a case's runs ended the limited waits they met: a run that resumed one by a request, and
 * each wait whose limit passed (a run's timeout, or a move of the clock past it).
 */
export function addOutcomes(
	coverage: WorkflowCoverage,
	caseId: string,
	runs: Pick<RunDetail, 'skips' | 'resumed'>[],
): void {
	const count = (node: string, name: OutcomeCoverage['name']) => {
		const outcome = coverage.graph.nodes
			.find((n) => n.name === node)
			?.outcomes?.find((o) => o.name === name);
		if (outcome) outcome.cases[caseId] = (outcome.cases[caseId] ?? 0) + 1;
	};
	for (const run of runs) {
		if (run.resumed) count(run.resumed.node, 'resumed by a request');
		for (const skip of run.skips ?? []) if (skip.timeLimit) count(skip.node, 'timed out');
	}
	summarize(coverage);
}

/**
 * Case IDs ("file › case") in one order whichever worker, shard or line ran them first: by test
 * file, then as the file lists them (a file's cases always run, and are added, in its order).
 */
function inFileOrder(ids: string[]): string[] {
	const file = (id: string) => id.slice(0, id.indexOf(' \u203a '));
	return ids
		.map((id, index) => ({ id, index }))
		.sort((a, b) => file(a.id).localeCompare(file(b.id)) || a.index - b.index)
		.map(({ id }) => id);
}

/** Recounts a workflow's totals and what was missed from its nodes; its cases in a stable order. */
export function summarize(coverage: WorkflowCoverage): WorkflowCoverage {
	coverage.cases = inFileOrder(coverage.cases);
	for (const node of coverage.graph.nodes) {
		node.cases = inFileOrder(node.cases);
		for (const output of [...node.outputs, ...(node.outcomes ?? [])])
			output.cases = Object.fromEntries(
				inFileOrder(Object.keys(output.cases)).map((id) => [id, output.cases[id]]),
			);
	}
	const counted = coverage.graph.nodes.filter((n) => !n.disabled);
	const missed = counted.filter((n) => !n.cases.length).map((n) => n.name);
	coverage.nodes = { total: counted.length, covered: counted.length - missed.length, missed };
	const wired = (node: string, output: number) =>
		coverage.graph.connections.some(
			(c) => c.from === node && c.output === output && c.type === 'main',
		);
	const outputs = counted.flatMap((n) =>
		n.outputs.length > 1
			? n.outputs.map((o) => ({
					node: n.name,
					output: o.name,
					items: o.items,
					crossed: o.items > 0,
					wired: wired(n.name, o.index),
				}))
			: [],
	);
	// A limited wait's outcomes are branches too: resumed by a request, timed out.
	const outcomes = counted.flatMap((n) =>
		(n.outcomes ?? []).map((o) => ({
			node: n.name,
			output: o.name,
			items: 0,
			crossed: Object.keys(o.cases).length > 0,
			wired: true,
		})),
	);
	const branches = [...outputs.filter((o) => o.wired), ...outcomes];
	coverage.nowhere = outputs
		.filter((o) => !o.wired && o.items > 0)
		.map(({ node, output, items }) => ({ node, output, items }));
	const notCrossed = branches
		.filter((b) => !b.crossed)
		.map(({ node, output }) => ({ node, output }));
	coverage.branches = {
		total: branches.length,
		covered: branches.length - notCrossed.length,
		missed: notCrossed,
	};
	return coverage;
}

/**
 * Coverage files together: the same workflow (by export file and name) covered where any run
 * covered it, items and cases added up; the graph is the first file's.
 */
export function mergeCoverage(files: CoverageFile[]): CoverageFile {
	const workflows = new Map<string, WorkflowCoverage>();
	for (const file of files)
		for (const workflow of file.workflows) {
			const key = `${workflow.file}\n${workflow.name}`;
			const into = workflows.get(key);
			if (!into) {
				workflows.set(key, structuredClone(workflow));
				continue;
			}
			for (const id of workflow.cases) if (!into.cases.includes(id)) into.cases.push(id);
			for (const node of workflow.graph.nodes) {
				const target = into.graph.nodes.find((n) => n.name === node.name);
				if (!target) continue;
				for (const id of node.cases) if (!target.cases.includes(id)) target.cases.push(id);
				for (const output of node.outputs) {
					let same = target.outputs.find((o) => o.index === output.index);
					if (!same && !target.subNode)
						target.outputs.push((same = { ...output, items: 0, cases: {} }));
					if (!same) continue;
					same.items += output.items;
					for (const [id, items] of Object.entries(output.cases))
						same.cases[id] = (same.cases[id] ?? 0) + items;
				}
				for (const outcome of node.outcomes ?? []) {
					const same = target.outcomes?.find((o) => o.name === outcome.name);
					for (const [id, times] of Object.entries(same ? outcome.cases : {}))
						same!.cases[id] = (same!.cases[id] ?? 0) + times;
				}
			}
		}
	return {
		format: COVERAGE_FORMAT,
		n8nVersions: [...new Set(files.flatMap((f) => f.n8nVersions))],
		workflows: [...workflows.values()]
			.map(summarize)
			.sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name)),
	};
}

/** All workflows together: the ratios thresholds are checked against. */
export function totalsOf(file: CoverageFile): {
	nodes: { total: number; covered: number };
	branches: { total: number; covered: number };
} {
	const sum = (pick: (w: WorkflowCoverage) => { total: number; covered: number }) =>
		file.workflows.reduce(
			(acc, w) => ({ total: acc.total + pick(w).total, covered: acc.covered + pick(w).covered }),
			{ total: 0, covered: 0 },
		);
	return { nodes: sum((w) => w.nodes), branches: sum((w) => w.branches) };
}

/** `Fetch Leads › error: 4 items went nowhere`, for each output connected to nothing that had items. */
export function wentNowhere(workflow: WorkflowCoverage): string[] {
	return (workflow.nowhere ?? []).map(
		(o) => `${o.node} \u203a ${o.output}: ${o.items} item${o.items === 1 ? '' : 's'} went nowhere`,
	);
}
