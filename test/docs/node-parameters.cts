import type { INodeProperties, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { CreateInboxes } from '../../nodes/CreateInboxes/CreateInboxes.node';
import { FetchLeads } from '../../nodes/FetchLeads/FetchLeads.node';
import { LeadInboxTrigger } from '../../nodes/LeadInboxTrigger/LeadInboxTrigger.node';
import { ListInboxes } from '../../nodes/ListInboxes/ListInboxes.node';
import { ListPools } from '../../nodes/ListPools/ListPools.node';

/**
 * docs/nodes.md's reference of every node's parameters as an exported workflow holds them (the
 * name and the values beside the display name a person reads in the editor), generated from the
 * node descriptions, so a user writing a test file or an export by hand copies what n8n stores.
 */

const PACKAGE = 'n8n-nodes-lead-inbox';
export const BEGIN =
	'<!-- parameters: generated from the node descriptions by test/docs/node-parameters.test.cts (UPDATE_DOCS=1 rewrites it) -->';
export const END = '<!-- parameters: end -->';

const NODES: INodeType[] = [
	new FetchLeads(),
	new ListPools(),
	new ListInboxes(),
	new CreateInboxes(),
	new LeadInboxTrigger(),
];

const code = (value: unknown) =>
	`\`${typeof value === 'string' && value !== '' ? value : JSON.stringify(value)}\``;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A parameter's values: an options list as `value` (Name), else its type. */
function values(p: INodeProperties): string {
	if ((p.type === 'options' || p.type === 'multiOptions') && Array.isArray(p.options))
		return (
			(p.options as { name: string; value: unknown }[])
				.map((o) => `${code(o.value)} (${o.name})`)
				.join(', ') + (p.type === 'multiOptions' ? ': a list of these' : '')
		);
	if (p.type === 'resourceLocator')
		return '`{ "__rl": true, "mode": "id", "value": "..." }` (mode `list` or `id`)';
	if (p.type === 'boolean') return '`true`, `false`';
	return p.type;
}

/** A displayOptions condition: a value, or n8n's `{ _cnd: { gte: 1.2 } }`. */
function condition(value: unknown): string {
	const cnd = (value as { _cnd?: Record<string, unknown> } | null)?._cnd;
	if (!cnd) return code(value);
	const ops: Record<string, string> = {
		gte: '>=',
		gt: '>',
		lte: '<=',
		lt: '<',
		eq: '=',
		not: '!=',
	};
	return Object.entries(cnd)
		.map(([op, v]) => `${ops[op] ?? op} ${code(v)}`)
		.join(' and ');
}

/** n8n's own conditions, in the words of an export and of the editor. */
const SHOWN_BY: Record<string, string> = { '@version': 'typeVersion', '@tool': 'used as an AI tool' };

/** Where a parameter shows (displayOptions.show), as the export's values. */
function shownWhen(p: INodeProperties): string {
	const show = p.displayOptions?.show ?? {};
	return Object.entries(show)
		.map(
			([name, when]) =>
				`${SHOWN_BY[name] ?? name.replace(/^\//, '')}: ${(when ?? []).map(condition).join(' or ')}`,
		)
		.join('; ');
}

/** One row per parameter; a collection's options as `options.<name>` rows after it. */
function rows(properties: INodeProperties[], prefix = ''): string[] {
	return properties
		.filter((p) => p.type !== 'notice')
		.flatMap((p) => {
			const name = `${prefix}${p.name}`;
			const nested =
				p.type === 'collection' && Array.isArray(p.options)
					? rows(p.options as INodeProperties[], `${name}.`)
					: p.type === 'fixedCollection' && Array.isArray(p.options)
						? (
								p.options as { name: string; displayName: string; values: INodeProperties[] }[]
							).flatMap((group) => rows(group.values, `${name}.${group.name}.`))
						: [];
			const kind =
				p.type === 'collection' || p.type === 'fixedCollection'
					? 'an object of the rows below'
					: values(p);
			const when = shownWhen(p);
			return [
				`| ${cell(p.displayName)} | ${code(name)} | ${cell(kind)} | ${code(p.default)} | ${cell(when)} |`,
				...nested,
			];
		});
}

/** The latest version's description of a node (versioned or not). */
function described(node: INodeType): INodeTypeDescription {
	return node.description;
}

export function parameterReference(): string {
	const sections = NODES.map((node) => {
		const d = described(node);
		const versions = Array.isArray(d.version) ? d.version : [d.version];
		const latest = d.defaultVersion ?? Math.max(...versions);
		const tool = d.usableAsTool
			? `, as an AI Agent's tool ${code(`${PACKAGE}.${d.name}Tool`)}`
			: '';
		return [
			`#### ${d.displayName}`,
			'',
			`Type ${code(`${PACKAGE}.${d.name}`)}${tool}; \`typeVersion\` ${versions.map((v) => code(v)).join(', ')} (new nodes: ${code(latest)}).`,
			'',
			'| Parameter | Name in the export | Values in the export | Default | Shown when |',
			'| --- | --- | --- | --- | --- |',
			...rows(d.properties),
		].join('\n');
	});
	return [BEGIN, '', ...sections.flatMap((s) => [s, '']), END].join('\n');
}
