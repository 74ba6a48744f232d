/**
 * The coverage pages: index.html (a row per workflow) and a page per workflow drawing it as n8n lays
 * it out (the export's positions and connections). Covered nodes and connections are drawn solid,
 * never-run ones dashed and labelled "not run" (not told by colour alone); each connection says how
 * many items crossed it. A case chosen in the list shows the path that case took. Self-contained:
 * the styles, the script and the data are in the page; nothing is loaded from anywhere.
 */
import { type CoverageFile, wentNowhere, type WorkflowCoverage } from './model.cjs';

const NODE = 100;
const SUB = 80;

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const percent = (covered: number, total: number): string =>
	total ? `${Math.round((covered / total) * 1000) / 10} %` : '-';

/** The file name of a workflow's page. */
export function pageName(workflow: WorkflowCoverage, index: number): string {
	const slug = workflow.name
		.replace(/[^A-Za-z0-9._-]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 60);
	return `${String(index + 1).padStart(2, '0')}-${slug || 'workflow'}.html`;
}

const STYLE = `
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1f2328; background: #fff; }
h1 { font-size: 20px; margin: 0 0 8px; }
.summary { margin: 0 0 12px; }
.nowhere { color: #b3261e; }
.nowhere-label { fill: #b3261e; font-size: 11px; font-weight: 600; }
.nowhere-stub { stroke: #b3261e; stroke-width: 2; stroke-dasharray: 4 3; fill: none; }
table { border-collapse: collapse; margin: 12px 0; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; }
a { color: #0550ae; }
label { margin-right: 8px; }
select { font: inherit; padding: 2px 4px; }
svg { border: 1px solid #d0d7de; background: #f6f8fa; max-width: 100%; height: auto; }
.node rect, .node circle { fill: #fff; stroke-width: 2.5; }
.node.covered rect, .node.covered circle { stroke: #1a7f37; }
.node.missed rect, .node.missed circle { stroke: #6e7781; stroke-dasharray: 6 4; fill: #f6f8fa; }
.node.disabled rect, .node.disabled circle { stroke: #afb8c1; stroke-dasharray: 2 3; }
.node:focus { outline: none; }
.node:focus rect, .node:focus circle { stroke-width: 4; stroke: #0969da; }
.node .name { font-size: 12px; text-anchor: middle; }
.node .kind { font-size: 10px; fill: #57606a; text-anchor: middle; }
.node .badge { font-size: 11px; text-anchor: middle; font-weight: 600; }
.node.covered .badge { fill: #1a7f37; }
.node.missed .badge { fill: #57606a; }
.connection { fill: none; stroke-width: 2.5; }
.connection.covered { stroke: #1a7f37; }
.connection.missed { stroke: #8c959f; stroke-dasharray: 6 4; }
.connection.sub { stroke-width: 1.5; }
.count { font-size: 11px; fill: #1f2328; paint-order: stroke; stroke: #f6f8fa; stroke-width: 4px; }
.output { font-size: 10px; fill: #57606a; }
.legend span { margin-right: 16px; }
.outcome { font-size: 11px; text-anchor: middle; }
.outcome.covered { fill: #1a7f37; }
.outcome.missed { fill: #57606a; font-style: italic; }
`;

/** The page's script: re-marks nodes, connections and counts for the case chosen. */
const SCRIPT = `
const data = JSON.parse(document.getElementById('coverage-data').textContent);
const choose = document.getElementById('case');
const byName = new Map(data.graph.nodes.map((n) => [n.name, n]));
function itemsOn(output, chosen) {
	return chosen ? output.cases[chosen] || 0 : output.items;
}
function show() {
	const chosen = choose.value;
	for (const el of document.querySelectorAll('.node')) {
		const node = byName.get(el.dataset.name);
		const ran = chosen ? node.cases.includes(chosen) : node.cases.length > 0;
		el.classList.toggle('covered', !node.disabled && ran);
		el.classList.toggle('missed', !node.disabled && !ran);
		el.querySelector('.badge').textContent = node.disabled ? 'disabled' : ran ? 'ran' : 'not run';
		el.setAttribute('aria-label', node.name + ': ' + (node.disabled ? 'disabled' : ran ? 'ran' : 'not run'));
	}
	// A limited wait's outcomes: resumed by a request, timed out; each said in words.
	for (const el of document.querySelectorAll('.outcome')) {
		const outcome = byName.get(el.dataset.node).outcomes.find((o) => o.name === el.dataset.outcome);
		const cases = chosen ? (outcome.cases[chosen] ? 1 : 0) : Object.keys(outcome.cases).length;
		el.classList.toggle('covered', cases > 0);
		el.classList.toggle('missed', cases === 0);
		el.textContent = outcome.name + ': ' + (cases ? (chosen ? 'yes' : cases + (cases === 1 ? ' case' : ' cases')) : 'never');
	}
	for (const el of document.querySelectorAll('.connection')) {
		const node = byName.get(el.dataset.from);
		let crossed;
		if (el.dataset.type === 'main') {
			const output = node.outputs[Number(el.dataset.output)];
			const items = output ? itemsOn(output, chosen) : 0;
			crossed = items > 0;
			const label = document.getElementById(el.id + '-count');
			label.textContent = items + (items === 1 ? ' item' : ' items');
		} else {
			crossed = chosen ? node.cases.includes(chosen) : node.cases.length > 0;
		}
		el.classList.toggle('covered', crossed);
		el.classList.toggle('missed', !crossed);
	}
}
choose.addEventListener('change', show);
show();
`;

/** Where a connection starts and ends on the drawing. */
function endpoints(
	workflow: WorkflowCoverage,
	from: string,
	output: number,
	to: string,
	type: string,
): { x1: number; y1: number; x2: number; y2: number } | undefined {
	const source = workflow.graph.nodes.find((n) => n.name === from);
	const target = workflow.graph.nodes.find((n) => n.name === to);
	if (!source || !target) return undefined;
	if (type !== 'main')
		// A sub-node (drawn below its root) feeds the root's bottom from its top.
		return {
			x1: source.position[0] + SUB / 2,
			y1: source.position[1],
			x2: target.position[0] + NODE / 2,
			y2: target.position[1] + NODE,
		};
	const outputs = Math.max(source.outputs.length, output + 1);
	return {
		x1: source.position[0] + NODE,
		y1: source.position[1] + ((output + 1) * NODE) / (outputs + 1),
		x2: target.position[0],
		y2: target.position[1] + NODE / 2,
	};
}

function drawing(workflow: WorkflowCoverage): string {
	const { nodes, connections } = workflow.graph;
	const xs = nodes.map((n) => n.position[0]);
	const ys = nodes.map((n) => n.position[1]);
	const left = Math.min(0, ...xs) - 80;
	const top = Math.min(0, ...ys) - 60;
	const width = Math.max(...xs, 0) - left + NODE + 160;
	const height = Math.max(...ys, 0) - top + NODE + 80;
	const parts: string[] = [];
	connections.forEach((c, i) => {
		const at = endpoints(workflow, c.from, c.output, c.to, c.type);
		if (!at) return;
		const bend = Math.max(40, Math.abs(at.x2 - at.x1) / 2);
		const path =
			c.type === 'main'
				? `M${at.x1},${at.y1} C${at.x1 + bend},${at.y1} ${at.x2 - bend},${at.y2} ${at.x2},${at.y2}`
				: `M${at.x1},${at.y1} C${at.x1},${at.y1 - 40} ${at.x2},${at.y2 + 40} ${at.x2},${at.y2}`;
		const id = `connection-${i}`;
		parts.push(
			`<path id="${id}" class="connection${c.type === 'main' ? '' : ' sub'}" data-from="${escape(c.from)}" data-output="${c.output}" data-to="${escape(c.to)}" data-type="${escape(c.type)}" d="${path}"><title>${escape(`${c.from} › ${c.to}`)}</title></path>`,
		);
		if (c.type === 'main') {
			const source = nodes.find((n) => n.name === c.from)!;
			const name = source.outputs[c.output]?.name;
			const midX = (at.x1 + at.x2) / 2;
			const midY = (at.y1 + at.y2) / 2;
			parts.push(
				`<text id="${id}-count" class="count" x="${midX}" y="${midY - 6}" text-anchor="middle"></text>`,
			);
			if (source.outputs.length > 1 && name !== undefined)
				parts.push(`<text class="output" x="${at.x1 + 6}" y="${at.y1 - 4}">${escape(name)}</text>`);
		}
	});
	// An output connected to nothing that carried items: a red stub from its port, saying so.
	for (const lost of workflow.nowhere ?? []) {
		const node = nodes.find((n) => n.name === lost.node);
		const index = node?.outputs.findIndex((o) => o.name === lost.output) ?? -1;
		if (!node || index < 0) continue;
		const x1 = node.position[0] + NODE;
		const y1 = node.position[1] + ((index + 1) * NODE) / (node.outputs.length + 1);
		parts.push(
			`<path class="nowhere-stub" d="M${x1},${y1} h40"><title>${escape(`${lost.node} › ${lost.output}: connected to nothing`)}</title></path>` +
				`<text class="nowhere-label" x="${x1 + 44}" y="${y1 + 4}">${escape(`${lost.output}: ${lost.items} item${lost.items === 1 ? '' : 's'} went nowhere`)}</text>`,
		);
	}
	for (const node of nodes) {
		const [x, y] = node.position;
		const type = node.type.replace(/^.*\./, '');
		// The type, short enough for the box (the table below names it whole).
		const kind = type.length > 16 ? `${type.slice(0, 15)}\u2026` : type;
		const shape = node.subNode
			? `<circle cx="${x + SUB / 2}" cy="${y + SUB / 2}" r="${SUB / 2}"/>`
			: `<rect x="${x}" y="${y}" width="${NODE}" height="${NODE}" rx="10"/>`;
		const size = node.subNode ? SUB : NODE;
		parts.push(
			`<g class="node${node.disabled ? ' disabled' : ''}" data-name="${escape(node.name)}" tabindex="0" role="img" aria-label="${escape(node.name)}">${shape}` +
				`<text class="kind" x="${x + size / 2}" y="${y + size / 2 - 4}">${escape(kind)}</text>` +
				`<text class="badge" x="${x + size / 2}" y="${y + size / 2 + 14}"></text>` +
				`<text class="name" x="${x + size / 2}" y="${y + size + 18}">${escape(node.name)}</text>` +
				(node.outcomes ?? [])
					.map(
						(o, i) =>
							`<text class="outcome" data-node="${escape(node.name)}" data-outcome="${escape(o.name)}" x="${x + size / 2}" y="${y + size + 34 + i * 14}"></text>`,
					)
					.join('') +
				'</g>',
		);
	}
	return `<svg role="group" aria-label="The workflow ${escape(workflow.name)}" viewBox="${left} ${top} ${width} ${height}" width="${width}" height="${height}">${parts.join('')}</svg>`;
}

/** A workflow's page. */
export function workflowPage(workflow: WorkflowCoverage, n8nVersions: string[]): string {
	const missedBranches = workflow.branches.missed.map((b) => `${b.node} › ${b.output}`);
	const nowhere = wentNowhere(workflow);
	const rows = workflow.graph.nodes
		.map(
			(n) =>
				`<tr><td>${escape(n.name)}</td><td>${escape(n.type)}</td><td>${n.disabled ? 'disabled' : n.cases.length ? `ran in ${n.cases.length} case(s)` : 'not run'}</td><td>${n.outputs.map((o) => `${escape(o.name)}: ${o.items}`).join(', ')}</td></tr>`,
		)
		.join('');
	const data = JSON.stringify({ graph: workflow.graph }).replace(/</g, '\\u003c');
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Coverage: ${escape(workflow.name)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>
<body><p><a href="index.html">All workflows</a></p>
<h1>${escape(workflow.name)}</h1>
<p class="summary" id="summary">${escape(workflow.file)}: <strong id="nodes">nodes ${workflow.nodes.covered}/${workflow.nodes.total}</strong>, <strong id="branches">branches ${workflow.branches.covered}/${workflow.branches.total}</strong>${n8nVersions.length ? ` (n8n ${escape(n8nVersions.join(', '))})` : ''}${workflow.nodes.missed.length || missedBranches.length ? `; never: ${escape([...workflow.nodes.missed.map((n) => `"${n}"`), ...missedBranches].join(', '))}` : ''}${nowhere.length ? `; <strong id="nowhere" class="nowhere">${escape(nowhere.join(', '))}</strong>` : ''}</p>
<p><label for="case">Case</label><select id="case"><option value="">All cases (${workflow.cases.length})</option>${workflow.cases.map((c) => `<option value="${escape(c)}">${escape(c)}</option>`).join('')}</select></p>
<p class="legend"><span>Solid green: ran (items crossed)</span><span>Dashed grey, "not run": never ran (no item crossed)</span></p>
${drawing(workflow)}
<table><thead><tr><th>Node</th><th>Type</th><th>Ran</th><th>Items per output</th></tr></thead><tbody>${rows}</tbody></table>
<script type="application/json" id="coverage-data">${data}</script>
<script>${SCRIPT}</script></body></html>
`;
}

/** index.html: a row per workflow, with its ratios and a link to its page. */
export function indexPage(coverage: CoverageFile): string {
	const rows = coverage.workflows
		.map(
			(w, i) =>
				`<tr><td><a href="${pageName(w, i)}">${escape(w.name)}</a></td><td>${escape(w.file)}</td><td>${w.nodes.covered}/${w.nodes.total} (${percent(w.nodes.covered, w.nodes.total)})</td><td>${w.branches.covered}/${w.branches.total} (${percent(w.branches.covered, w.branches.total)})</td><td>${w.cases.length}</td></tr>`,
		)
		.join('');
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Workflow coverage</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>${STYLE}</style></head>
<body><h1>Workflow coverage</h1>
<p>${coverage.n8nVersions.length ? `n8n ${escape(coverage.n8nVersions.join(', '))}` : ''}</p>
<table><thead><tr><th>Workflow</th><th>Export</th><th>Nodes</th><th>Branches</th><th>Cases</th></tr></thead><tbody>${rows}</tbody></table>
</body></html>
`;
}
