/**
 * Output names as n8n shows them on the canvas, for a test to name an output by: a node's
 * outputNames (If's true/false, Create Inboxes' Created/Failed), the display names of its outputs
 * (also those an outputs expression gives, as Fetch Leads' Leads and Spend), and "error" for the
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
	const index = describedNames(described).findIndex((name) => name.toLowerCase() === wanted);
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
		...describedNames(described),
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
