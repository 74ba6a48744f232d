/**
 * Output names as n8n shows them on the canvas, for a test to name an output by: a node's
 * outputNames (If's true/false, Create Inboxes' Created/Failed), the display names of its outputs
 * (also those an outputs expression gives, as Fetch Leads' Leads and Spend), a Switch's outputs
 * as renamed in the editor (its parameters), and "error" for the
 * output n8n adds last when the node's On Error is "Continue (using error output)".
 */

export const ERROR_OUTPUT = 'error';

/** A node as exported: its settings (onError) beside its parameters. */
type NodeSettings = object;

interface Described {
	outputs?: unknown;
	outputNames?: string[];
}

const displayName = (output: unknown): string | undefined =>
	output &&
	typeof output === 'object' &&
	typeof (output as { displayName?: unknown }).displayName === 'string'
		? (output as { displayName: string }).displayName
		: undefined;

/**
 * The names a description gives its main outputs, by index. An outputs expression is read for the
 * names it spells out: its longest list of literal display names (the most outputs it can have).
 */
export function describedNames(described: Described | undefined): string[] {
	if (Array.isArray(described?.outputNames)) return described.outputNames.map(String);
	if (Array.isArray(described?.outputs)) {
		const names = described.outputs.map(displayName);
		return names.every((n) => n !== undefined) ? names : [];
	}
	if (typeof described?.outputs === 'string') {
		const lists = [...described.outputs.matchAll(/\[([^[\]]*)\]/g)].map((list) =>
			[...list[1].matchAll(/"displayName"\s*:\s*"([^"]+)"/g)].map((m) => m[1]),
		);
		return lists.reduce<string[]>((longest, l) => (l.length > longest.length ? l : longest), []);
	}
	return [];
}

/** A node as exported, for the outputs its parameters name. */
interface ExportedNode {
	type?: string;
	typeVersion?: number;
	parameters?: Record<string, unknown>;
}

/**
 * The names a node's own parameters give its outputs, as the editor shows them: a Switch's (from
 * version 3) rules renamed in the editor (Output Key), index for the others, and its extra
 * fallback output ("Fallback", or its new name); in expression mode its outputs are numbered.
 * Read as n8n's SwitchV3 names them, before any n8n starts. Undefined for other nodes.
 */
export function parameterNames(node: ExportedNode | undefined): string[] | undefined {
	if (node?.type !== 'n8n-nodes-base.switch' || (node.typeVersion ?? 1) < 3) return undefined;
	const parameters = node.parameters ?? {};
	if (parameters.mode === 'expression')
		return Array.from({ length: Number(parameters.numberOutputs ?? 4) }, (_, i) => String(i));
	const rules = ((parameters.rules as { values?: unknown[] } | undefined)?.values ?? []) as {
		outputKey?: unknown;
	}[];
	const names = rules.map((rule, i) =>
		typeof rule.outputKey === 'string' && rule.outputKey ? rule.outputKey : String(i),
	);
	const options = (parameters.options ?? {}) as Record<string, unknown>;
	if (options.fallbackOutput === 'extra')
		names.push(
			typeof options.renameFallbackOutput === 'string' && options.renameFallbackOutput
				? options.renameFallbackOutput
				: 'Fallback',
		);
	return names;
}

/** A node's output names: its parameters' (a Switch's), else its description's. */
const outputNames = (node: NodeSettings | undefined, described: Described | undefined): string[] =>
	parameterNames(node as ExportedNode | undefined) ?? describedNames(described);

export const hasErrorOutput = (node: NodeSettings): boolean =>
	(node as { onError?: unknown }).onError === 'continueErrorOutput';

/** Where an output points: its index, or the error output (the last, wherever it falls in a run). */
export type OutputRef = number | typeof ERROR_OUTPUT;

/**
 * What `output` names on `node`: an index, a name of its description, or its error output;
 * undefined when it names none of them.
 */
export function resolveOutput(
	node: NodeSettings | undefined,
	described: Described | undefined,
	output: number | string,
): OutputRef | undefined {
	if (typeof output === 'number') return output;
	if (/^\d+$/.test(output)) return Number(output);
	const wanted = output.trim().toLowerCase();
	if (wanted === ERROR_OUTPUT && node && hasErrorOutput(node)) return ERROR_OUTPUT;
	const index = outputNames(node, described).findIndex((name) => name.toLowerCase() === wanted);
	return index >= 0 ? index : undefined;
}

/** Why `output` names nothing on the node, with the names it has. */
export function unknownOutput(
	name: string,
	node: NodeSettings | undefined,
	described: Described | undefined,
	output: string,
): string {
	const names = [
		...outputNames(node, described),
		...(node && hasErrorOutput(node) ? [ERROR_OUTPUT] : []),
	];
	const has = names.length
		? `its outputs are ${names.map((n) => `"${n}"`).join(', ')} (or an index from 0)`
		: 'n8n names none of its outputs: give an index from 0';
	const errorHint =
		output.trim().toLowerCase() === ERROR_OUTPUT && node && !hasErrorOutput(node)
			? `; it has an error output only when its Settings > On Error is "Continue (using error output)"`
			: '';
	return `node "${name}" has no output named "${output}": ${has}${errorHint}`;
}
