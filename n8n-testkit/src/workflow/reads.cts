/**
 * What a workflow's expressions read: the fields of a Webhook request it uses (`$json.body.niche`,
 * `$json.query.city`, `$('Webhook').item.json.body.count`), which nodes read a given node's
 * answer, and which read the time. `test init` fills a first request from the first, gives stub
 * advice from the second and fixes the case's clock for the third.
 */
import { isSchedule, WAIT } from './node-kinds.cjs';
import type { Workflow, WorkflowNode } from './workflow.cjs';

/** Every string in a node's parameters (expressions are strings starting with "="). */
function textsOf(value: unknown): string[] {
	if (typeof value === 'string') return [value];
	if (Array.isArray(value)) return value.flatMap(textsOf);
	if (value && typeof value === 'object') return Object.values(value).flatMap(textsOf);
	return [];
}

const expressionsOf = (node: WorkflowNode): string =>
	textsOf(node.parameters ?? {})
		.filter((t) => t.startsWith('=') || t.includes('{{'))
		.join('\n');

/** The nodes a node hands its items to (any main output). */
const nodesAfter = (workflow: Workflow, node: WorkflowNode): Set<string> =>
	new Set(
		(workflow.connections[node.name]?.main ?? []).flatMap((targets) =>
			(targets ?? []).map((t) => t.node),
		),
	);

/**
 * Nodes that hand on the items they receive, as they received them (some, on one output or
 * another, or later): what follows them reads what came before them.
 */
const HANDS_ON = new Set(
	['wait', 'noOp', 'if', 'filter', 'switch', 'sort', 'limit', 'splitInBatches'].map(
		(name) => `n8n-nodes-base.${name}`,
	),
);

/**
 * The nodes that receive `node`'s items: those after it, and after any node on the way that
 * hands its items on (Email 2 → Wait 5 days → Email 3: Email 3 gets Email 2's answer).
 */
function receivers(workflow: Workflow, node: WorkflowNode): Set<string> {
	const reached = new Set<string>();
	const next = [...nodesAfter(workflow, node)];
	for (let name = next.pop(); name !== undefined; name = next.pop()) {
		if (reached.has(name) || name === node.name) continue;
		reached.add(name);
		const on = workflow.nodes.find((n) => n.name === name);
		if (on && !on.disabled && HANDS_ON.has(on.type)) next.push(...nodesAfter(workflow, on));
	}
	return reached;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The fields of the request a Webhook (or a Wait resumed by one) hands on that the workflow reads:
 * `body.x` and `query.x`, through `$json` (in the nodes it hands the request to, through those that
 * hand it on) or `$('<webhook>')` from anywhere.
 */
export function requestFieldsRead(
	workflow: Workflow,
	webhook: WorkflowNode,
): { body: string[]; query: string[] } {
	const after = receivers(workflow, webhook);
	const named = `\\$\\(\\s*['"]${escape(webhook.name)}['"]\\s*\\)[^{}]*?\\.json`;
	// Optional chaining too: $json.body?.reply.
	const field = `(?:\\??\\.(\\w+)|\\[\\s*['"]([^'"]+)['"]\\s*\\])`;
	const found = { body: new Set<string>(), query: new Set<string>() };
	for (const node of workflow.nodes) {
		const text = expressionsOf(node);
		const sources = after.has(node.name) ? [named, '\\$json'] : [named];
		for (const source of sources)
			for (const part of ['body', 'query'] as const)
				for (const m of text.matchAll(
					new RegExp(`${source}${`(?:\\??\\.${part}|\\[\\s*['"]${part}['"]\\s*\\])`}${field}`, 'g'),
				))
					found[part].add(m[1] ?? m[2]);
	}
	return { body: [...found.body], query: [...found.query] };
}

/** A sample value a field of that name takes, so a first run follows the happy path. */
export function sampleFor(field: string): string | number {
	const name = field.toLowerCase();
	if (/niche|industry|category|keyword/.test(name)) return 'dentist';
	if (/city|location|town/.test(name)) return 'Austin, TX';
	if (/count|limit|number|amount|max|size|wanted/.test(name)) return 3;
	if (/mail/.test(name)) return 'someone@example.com';
	if (/name/.test(name)) return 'Sam Sample';
	if (/phone/.test(name)) return '+15125550100';
	return `sample ${field}`;
}

/**
 * The nodes that read `node`'s answer: one that receives its items (right after it, or through
 * nodes that hand them on: a Wait, an If, a Filter...) and reads `$json` (or `$input`), or any
 * node naming it (`$('<node>')`, `$node["<node>"]`).
 */
export function readersOf(workflow: Workflow, node: WorkflowNode): string[] {
	const after = receivers(workflow, node);
	const naming = new RegExp(
		`\\$\\(\\s*['"]${escape(node.name)}['"]\\s*\\)|\\$node\\[\\s*['"]${escape(node.name)}['"]\\s*\\]`,
	);
	return workflow.nodes
		.filter((other) => other.name !== node.name && !other.disabled)
		.filter((other) => {
			const text = expressionsOf(other);
			if (naming.test(text)) return true;
			if (!after.has(other.name)) return false;
			// Respond to Webhook answers with the items it is handed unless told otherwise.
			const respondsWithItems =
				other.type === 'n8n-nodes-base.respondToWebhook' &&
				['firstIncomingItem', 'allIncomingItems', undefined].includes(
					other.parameters?.respondWith as string | undefined,
				);
			return respondsWithItems || /\$json|\$input/.test(text);
		})
		.map((other) => other.name);
}

/** What reads "now" in an expression or a Code node's code. */
const NOW = /\$now\b|\$today\b|\bDate\.now\(|\bnew Date\(\s*\)|\bDateTime\.now\(|\bmoment\(\s*\)/;

/**
 * The enabled nodes whose output depends on the time a run starts: a schedule (its item is the
 * time), a Wait, the Date & Time node, and any node whose expressions or code read "now".
 */
export function timeReaders(workflow: Workflow): string[] {
	return workflow.nodes
		.filter(
			(node) =>
				!node.disabled &&
				(isSchedule(node.type) ||
					node.type === WAIT ||
					node.type === 'n8n-nodes-base.dateTime' ||
					textsOf(node.parameters ?? {}).some((text) => NOW.test(text))),
		)
		.map((node) => node.name);
}
