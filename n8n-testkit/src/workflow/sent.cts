/**
 * What a stubbed node would have sent: its parameters as n8n resolves them for each item it
 * receives. n8n itself resolves them: beside the stub, one recorder per expression of the node (a
 * Set node fed what the stub is fed, holding that one expression) runs on the same items with the
 * same paired items, so `$json`, `$('Other node').item` and the rest mean what they would have
 * meant in the node. One recorder per expression, so that an expression n8n cannot resolve is
 * named with its parameter and n8n's message (a recorder continues on error: the workflow runs on).
 */
import { randomUUID } from 'node:crypto';
import type { NodeRun } from '../n8n/executions.cjs';
import type { Workflow, WorkflowNode } from './workflow.cjs';

export interface SentPlan {
	/** The node's parameters as exported. */
	parameters: Record<string, unknown>;
	/** Each expression: its dot path in the parameters, and the recorder resolving it. */
	expressions: { path: string; recorder: string }[];
}

export interface Sent {
	/** Per item the node received (every run of it): its parameters, expressions resolved. */
	items: Record<string, unknown>[];
	/** Expressions n8n could not resolve: which item, which parameter, n8n's message. */
	errors: { item: number; parameter: string; message: string }[];
}

const isExpression = (value: unknown): value is string =>
	typeof value === 'string' && value.startsWith('=');

/** Every expression among the parameters, with its dot path. */
function expressionsIn(value: unknown, path: string[] = []): { path: string[]; value: string }[] {
	if (isExpression(value)) return [{ path, value }];
	if (Array.isArray(value)) return value.flatMap((v, i) => expressionsIn(v, [...path, String(i)]));
	if (value && typeof value === 'object')
		return Object.entries(value).flatMap(([k, v]) => expressionsIn(v, [...path, k]));
	return [];
}

/**
 * Adds the recorders of `node` (the node as exported, before its stub replaces it) to the
 * workflow, fed by every output that feeds the node (or what now stands in its place: `fedAs`).
 */
export function addRecorders(workflow: Workflow, node: WorkflowNode, fedAs: string): SentPlan {
	const parameters = structuredClone(node.parameters ?? {});
	const found = expressionsIn(parameters);
	// A node without expressions sends its parameters as they are, once per item it receives: one
	// recorder (of no parameter: its path is empty) counts them.
	if (!found.length) found.push({ path: [], value: '={{ $itemIndex }}' });
	const expressions = found.map((expression, j) => {
		const recorder = `${node.name} (test sent #${j + 1})`;
		workflow.nodes.push({
			id: randomUUID(),
			name: recorder,
			type: 'n8n-nodes-base.set',
			typeVersion: 3.4,
			position: node.position,
			...(node.executeOnce ? { executeOnce: true } : {}),
			// An expression that fails is recorded as this item's error; the workflow runs on.
			onError: 'continueRegularOutput',
			parameters: {
				mode: 'manual',
				// Typed as an object with conversion errors ignored: the value comes as n8n resolved
				// it (a string, a number, a list), and JSON text becomes what it says.
				assignments: {
					assignments: [
						{ id: randomUUID(), name: 'value', value: expression.value, type: 'object' },
					],
				},
				includeOtherFields: false,
				options: { ignoreConversionErrors: true, dotNotation: false },
			},
		});
		return { path: expression.path.join('.'), recorder };
	});
	for (const outputs of Object.values(workflow.connections))
		for (const list of Object.values(outputs ?? {}))
			for (const targets of list ?? []) {
				if (!targets?.some((t) => t.node === fedAs)) continue;
				for (const { recorder } of expressions)
					targets.push({ node: recorder, type: 'main', index: 0 });
			}
	return { parameters, expressions };
}

/** Sets a dot path's value in a copy's nested objects and lists. */
function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
	const keys = path.split('.');
	let at: Record<string, unknown> = target;
	for (const key of keys.slice(0, -1)) at = at[key] as Record<string, unknown>;
	at[keys[keys.length - 1]] = value;
}

/** What the node would have sent, from its recorders' runs (every run of each, in order). */
export function sentOf(plan: SentPlan, nodes: Record<string, NodeRun[]>): Sent {
	const resolved = plan.expressions.map(({ path, recorder }) => ({
		path,
		items: (nodes[recorder] ?? []).flatMap((run) => run.outputs[0] ?? []),
	}));
	const count = Math.max(0, ...resolved.map((r) => r.items.length));
	const items: Record<string, unknown>[] = [];
	const errors: Sent['errors'] = [];
	for (let i = 0; i < count; i++) {
		const item = structuredClone(plan.parameters);
		for (const { path, items: values } of resolved) {
			const value = values[i] ?? {};
			if (!path) continue; // the counter of a node without expressions
			if ('value' in value) setPath(item, path, value.value);
			else
				errors.push({
					item: i,
					parameter: path,
					message: typeof value.error === 'string' ? value.error : 'not resolved',
				});
		}
		items.push(item);
	}
	return { items, errors };
}
