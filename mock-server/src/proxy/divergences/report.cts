/**
 * The divergences seen so far: one entry per operation, kind and subject, counted, with the
 * first example (redacted), the words it differs from and what the nodes do with it. Read at
 * GET /__admin/divergences, printed when the server stops, written to --divergence-report as JSON
 * and Markdown, and judged by --fail-on.
 */
import { writeFileSync } from 'node:fs';
import type { FailOn } from '../../core/config.cjs';
import { redact } from '../../core/logger.cjs';
import { findingsOf } from './check.cjs';
import type { Exchange } from './exchange.cjs';
import {
	type DivergenceClass,
	DOCS,
	type Effect,
	type Kind,
	KINDS,
	type KindDefinition,
	nodeEffect,
	type NodeEffect,
	OPERATIONS,
} from './kinds.cjs';
import { Walks } from './listing.cjs';

export interface Divergence {
	class: DivergenceClass;
	kind: Kind;
	/** "POST /api/v1/inboxes" */
	operation: string;
	what: string;
	/** The first value seen, in words. */
	seen: string;
	/** The spec's words it differs from ("not shown" for an open point). */
	spec: string;
	/** An open point: this server's rule, quoted from docs/api.md, and where to read it. */
	decision?: { words: string; link: string };
	nodes: NodeEffect;
	/** Said first: inboxes created under an error status. */
	first?: true;
	count: number;
	example: { request: string; status: number; at?: string; value?: unknown };
}

export { FAIL_ON, type FailOn } from '../../core/config.cjs';

const CLASS_ORDER: DivergenceClass[] = ['breaks-spec', 'open-point', 'beyond-spec'];
/** Where a reader outside the clone finds docs/api.md: this repository, on GitHub. */
const DOCS_ONLINE =
	'https://github.com/n8n-nodes-lead-inbox/n8n-nodes-lead-inbox/blob/main/docs/api.md';
const EFFECT_WORDS: Record<Effect, string> = {
	handled: 'handled',
	notice: 'handled, with a notice',
	breaks: 'breaks',
};

export class DivergenceReport {
	private readonly entries = new Map<string, Divergence>();
	private readonly walks = new Walks();
	private exchanges = 0;

	add(exchange: Exchange): void {
		this.exchanges += 1;
		for (const finding of findingsOf(exchange, this.walks)) {
			const key = JSON.stringify([
				exchange.operation,
				finding.kind,
				finding.subject ?? finding.words ?? '',
			]);
			const entry = this.entries.get(key);
			if (entry) {
				entry.count += 1;
				continue;
			}
			const kind = KINDS[finding.kind] as KindDefinition;
			const query = new URLSearchParams(exchange.query).toString();
			this.entries.set(key, {
				class: kind.class,
				kind: finding.kind,
				operation: OPERATIONS[exchange.operation],
				what: kind.what,
				seen: redact(finding.seen) as string,
				spec: finding.words ?? kind.spec,
				...(kind.decision
					? { decision: { words: kind.decision.words, link: `${DOCS}#${kind.decision.section}` } }
					: {}),
				nodes: nodeEffect(finding.kind, exchange.operation),
				...(kind.first ? { first: true as const } : {}),
				count: 1,
				example: redact({
					request: `${exchange.method} ${exchange.path}${query ? `?${query}` : ''}`,
					status: exchange.status,
					...(finding.at ? { at: finding.at } : {}),
					...(finding.value !== undefined ? { value: finding.value } : {}),
				}) as Divergence['example'],
			});
		}
	}

	/** First what a status hides, then by class, operation and kind. */
	list(): Divergence[] {
		return [...this.entries.values()].sort(
			(a, b) =>
				Number(!!b.first) - Number(!!a.first) ||
				CLASS_ORDER.indexOf(a.class) - CLASS_ORDER.indexOf(b.class) ||
				a.operation.localeCompare(b.operation) ||
				a.what.localeCompare(b.what) ||
				a.seen.localeCompare(b.seen),
		);
	}

	clear(): void {
		this.entries.clear();
		this.walks.clear();
		this.exchanges = 0;
	}

	/** Whether a difference of that class (or a worse one) was seen: --fail-on. */
	fails(failOn: FailOn | undefined): boolean {
		if (!failOn) return false;
		const worst = CLASS_ORDER.indexOf(failOn);
		return this.list().some((d) => CLASS_ORDER.indexOf(d.class) <= worst);
	}

	counts(): Record<DivergenceClass, number> {
		const counts = { 'breaks-spec': 0, 'open-point': 0, 'beyond-spec': 0 };
		for (const d of this.entries.values()) counts[d.class] += 1;
		return counts;
	}

	toJSON() {
		return { exchanges: this.exchanges, counts: this.counts(), divergences: this.list() };
	}

	/** A summary a person reads in a terminal. */
	summary(): string {
		const list = this.list();
		if (list.length === 0)
			return `Divergences from the specs: none seen in ${this.exchanges} checked answer${this.exchanges === 1 ? '' : 's'}.`;
		const counts = this.counts();
		const lines = list.map((d) =>
			[
				`  ${d.first ? '!! ' : ''}[${d.class}] ${d.operation}: ${d.what}: ${d.seen} (${d.count}x)`,
				`      spec: ${d.spec}`,
				...(d.decision ? [`      this server: ${d.decision.words} (${d.decision.link})`] : []),
				`      the nodes: ${EFFECT_WORDS[d.nodes.effect]}: ${d.nodes.says}`,
			].join('\n'),
		);
		return [
			`Divergences from the specs, in ${this.exchanges} checked answers: ${counts['breaks-spec']} breaking the spec, ${counts['open-point']} open points answered otherwise, ${counts['beyond-spec']} beyond the spec.`,
			...lines,
		].join('\n');
	}

	/** The report as Markdown: a table first, then each entry with its words and an example. */
	markdown(): string {
		const list = this.list();
		const counts = this.counts();
		const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
		const out = [
			'# Divergences from the specs',
			'',
			`${this.exchanges} answers checked: **${counts['breaks-spec']}** kinds breaking the spec, **${counts['open-point']}** open points answered otherwise than this server, **${counts['beyond-spec']}** beyond the spec.`,
			'',
		];
		if (list.length === 0) return [...out, 'No divergence seen.', ''].join('\n');
		out.push(
			'| # | Class | Operation | What | Seen | Count | The nodes |',
			'|---|---|---|---|---|---|---|',
		);
		list.forEach((d, i) =>
			out.push(
				`| ${i + 1} | ${d.first ? '**' : ''}${d.class}${d.first ? '**' : ''} | \`${d.operation}\` | ${cell(d.what)} | ${cell(d.seen)} | ${d.count} | ${EFFECT_WORDS[d.nodes.effect]} |`,
			),
		);
		out.push('');
		list.forEach((d, i) => {
			out.push(`## ${i + 1}. ${d.what} (${d.class}): \`${d.operation}\``, '');
			out.push(
				`- Seen: ${d.seen} (${d.count}x); first in \`${d.example.request}\`, HTTP ${d.example.status}${d.example.at ? `, at \`${d.example.at}\`` : ''}`,
			);
			out.push(`- The spec: ${d.spec}`);
			if (d.decision)
				out.push(
					`- This server: ${d.decision.words} ([docs/api.md](${d.decision.link.replace(DOCS, DOCS_ONLINE)}))`,
				);
			out.push(`- The nodes: **${EFFECT_WORDS[d.nodes.effect]}**: ${d.nodes.says}`, '');
		});
		return out.join('\n');
	}

	/** Writes FILE (JSON) and the Markdown beside it (FILE without .json, plus .md). */
	write(file: string): string[] {
		const markdownFile = `${file.replace(/\.json$/i, '')}.md`;
		writeFileSync(file, `${JSON.stringify(this.toJSON(), null, 2)}\n`);
		writeFileSync(markdownFile, this.markdown());
		return [file, markdownFile];
	}
}
