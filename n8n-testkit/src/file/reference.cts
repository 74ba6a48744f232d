/**
 * The test file format's reference, as Markdown rows generated from the published JSON Schema:
 * n8n-testkit/docs/testing-workflows.md carries it between markers and a test keeps it in step.
 */

type Schema = {
	$ref?: string;
	type?: string | string[];
	description?: string;
	properties?: Record<string, Schema>;
	additionalProperties?: Schema | boolean;
	propertyNames?: Schema;
	items?: Schema;
	anyOf?: Schema[];
	oneOf?: Schema[];
	enum?: unknown[];
	const?: unknown;
	required?: string[];
	minimum?: number;
	maximum?: number;
};

/**
 * Named parts documented elsewhere (a service's own schemas, in its docs): not expanded, named by
 * their type and described with a link.
 */
export type External = Record<string, { type: string; description: string }>;

const defName = (ref: string): string => ref.replace('#/$defs/', '');
const anchor = (name: string): string => `[${name}](#${name.toLowerCase()})`;

/** The rows of one schema: its fields, and the fields of its unnamed objects, by dot path. */
function rowsOf(schema: Schema, defs: Record<string, Schema>, external: External): string[] {
	const rows: string[] = [];
	const typeOf = (s: Schema): string => {
		if (s.$ref) {
			const name = defName(s.$ref);
			return external[name]?.type ?? anchor(name);
		}
		if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
		if (s.enum) return s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(', ');
		const alternatives = s.anyOf ?? s.oneOf;
		if (alternatives) return [...new Set(alternatives.map(typeOf))].join(' or ');
		if (s.type === 'array') return `list of ${s.items ? typeOf(s.items) : 'values'}`;
		if (s.type === 'object' && !s.properties)
			return typeof s.additionalProperties === 'object'
				? `map to ${typeOf(s.additionalProperties)}`
				: 'object';
		if (s.type === 'integer')
			return s.minimum !== undefined ? `integer >= ${s.minimum}` : 'integer';
		return Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any JSON value');
	};
	const walk = (s: Schema, path: string) => {
		if (s.$ref) return;
		for (const branch of s.anyOf ?? s.oneOf ?? []) walk(branch, path);
		if (s.type === 'array' && s.items) walk(s.items, `${path}[]`);
		if (s.additionalProperties && typeof s.additionalProperties === 'object')
			walk(s.additionalProperties, `${path}.<name>`);
		for (const [name, property] of Object.entries(s.properties ?? {})) {
			if (name === '$schema') continue;
			const at = path ? `${path}.${name}` : name;
			const description =
				property.description ??
				(property.$ref
					? (external[defName(property.$ref)]?.description ??
						defs[defName(property.$ref)]?.description)
					: undefined) ??
				'';
			rows.push(
				`| \`${at}\`${s.required?.includes(name) ? ' (required)' : ''} | ${typeOf(property)} | ${description.replace(/\|/g, '\\|')} |`,
			);
			walk(property, at);
		}
	};
	walk(schema, '');
	return [...new Set(rows)];
}

/** A table for the file and one per named part (Case, Run, Change...), linked to each other. */
export function referenceTables(
	root: Schema & { $defs?: Record<string, Schema> },
	external: External = {},
): string {
	const defs = root.$defs ?? {};
	const table = (title: string, schema: Schema) =>
		[
			`#### ${title}`,
			'',
			...(schema.description ? [schema.description, ''] : []),
			'| Field | Type | What it says |',
			'|---|---|---|',
			...rowsOf(schema, defs, external),
		].join('\n');
	const parts = Object.entries(defs).filter(([name]) => !external[name]);
	return [
		table('The test file', { ...root, description: undefined }),
		...parts.map(([name, schema]) => table(name, schema)),
	].join('\n\n');
}
