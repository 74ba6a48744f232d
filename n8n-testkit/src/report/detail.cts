/**
 * What a case did, passed or not (`--show` prints it, `--report DIR` writes it as JSON): each
 * node's items per run and output (the count and the first few), what stubbed nodes would have
 * sent, the Webhook's answer, the sub-workflows' executions and the requests the service got.
 */
import { localIso, readable } from '../clock/zoned.cjs';
import type { RunView } from '../expect/check.cjs';
import { shown } from '../expect/match.cjs';
import type {
	WorkflowTestCaseDetail as CaseDetail,
	WorkflowTestNodeDetail as NodeDetail,
	WorkflowTestRunClock as RunClock,
	WorkflowTestRunDetail as RunDetail,
	WorkflowTestWaitSkip as WaitSkip,
} from '../types.cjs';

export type { CaseDetail, RunDetail };

/** Items kept per node output (the report is for reading, not a copy of n8n's database). */
const FIRST = 3;

/** A node's runs: how many, the items on each output (all runs together), the first few. */
function nodeDetail(runs: RunView['nodes'][string]): NodeDetail {
	const outputs = Math.max(1, ...runs.map((r) => r.outputs.length));
	const items = Array.from({ length: outputs }, (_, o) => runs.flatMap((r) => r.outputs[o] ?? []));
	const error = runs.find((r) => r.error)?.error?.message;
	return {
		runs: runs.length,
		items: items.map((list) => list.length),
		first: items.map((list) => list.slice(0, FIRST)),
		...(error ? { error } : {}),
	};
}

/** One run (or the sub-workflow's executions) as the report shows it. */
export function runDetail(view: RunView, timezone = 'UTC'): RunDetail {
	const { clock } = view;
	return {
		status: view.status,
		...(view.error ? { error: view.error } : {}),
		...(view.waiting ? { waiting: view.waiting } : {}),
		...(view.skips?.length ? { skips: view.skips } : {}),
		...(view.resumed ? { resumed: view.resumed } : {}),
		...(clock
			? {
					clock: {
						start: new Date(clock.start).toISOString(),
						end: new Date(clock.end).toISOString(),
						timezone,
						startLocal: localIso(clock.start, timezone),
						endLocal: localIso(clock.end, timezone),
					},
				}
			: {}),
		nodes: Object.fromEntries(
			Object.entries(view.nodes).map(([name, runs]) => [name, nodeDetail(runs)]),
		),
		...(view.sent && Object.keys(view.sent).length
			? {
					sent: Object.fromEntries(
						Object.entries(view.sent).map(([node, sent]) => [
							node,
							{
								items: sent.items.length,
								first: sent.items.slice(0, FIRST),
								...(sent.errors.length ? { errors: sent.errors } : {}),
							},
						]),
					),
				}
			: {}),
		...(view.response ? { response: view.response } : {}),
	};
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** A run's clock from its start to its end, in UTC and, where it differs, the workflow's zone. */
function clockLine(clock: RunClock): string {
	const utc = `clock ${clock.start} \u2192 ${clock.end}`;
	if (clock.timezone === 'UTC') return utc;
	const at = (iso: string) => readable(Date.parse(iso), clock.timezone);
	return `${utc} (${clock.timezone}: ${at(clock.start)} \u2192 ${at(clock.end)})`;
}

/** A wait the case's clock passed, and how. */
function skipLine(skip: WaitSkip): string {
	const what = `"${skip.node}" ${skip.timeLimit ? 'timed out, no request having come' : 'waited on time'}`;
	return Date.parse(skip.to) > Date.parse(skip.from)
		? `${what}: the clock moved from ${skip.from} to ${skip.to} at once`
		: `${what}: its end, ${skip.to}, had passed (the clock was at ${skip.from}): resumed at once`;
}

/** A run's lines under its case: each node's items per output and the first one, then its sends. */
function runLines(run: RunDetail, indent: string): string[] {
	const lines: string[] = [];
	for (const skip of run.skips ?? []) lines.push(`${indent}${skipLine(skip)}`);
	for (const [name, node] of Object.entries(run.nodes)) {
		const counts =
			node.items.length > 1
				? `outputs ${node.items.map((n, o) => `${o}: ${n}`).join(', ')}`
				: plural(node.items[0], 'item');
		const first = node.first.find((list) => list.length)?.[0];
		lines.push(
			`${indent}${name}: ${counts}${node.runs > 1 ? ` (${node.runs} runs)` : ''}${node.error ? `, error: ${node.error}` : ''}${first ? `  first: ${shown(first, 160)}` : ''}`,
		);
	}
	for (const [name, sent] of Object.entries(run.sent ?? {}))
		lines.push(
			`${indent}${name} would have sent ${plural(sent.items, 'item')}${sent.first.length ? `  first: ${shown(sent.first[0], 200)}` : ''}${sent.errors?.length ? `; ${sent.errors.length} parameter(s) n8n could not resolve, the first: ${sent.errors[0].parameter}: ${sent.errors[0].message}` : ''}`,
		);
	if (run.response)
		lines.push(`${indent}answered ${run.response.status}: ${shown(run.response.body, 200)}`);
	return lines;
}

/** The lines `--show` prints under a case's own. */
export function detailLines(detail: CaseDetail): string[] {
	const lines: string[] = [];
	detail.runs.forEach((run, r) => {
		lines.push(
			`      run ${r + 1}: ${run.status}${run.error ? ` at "${run.error.node ?? '?'}": ${run.error.message}` : ''}${run.waiting ? ` at "${run.waiting.node}" for a request (execution ${run.waiting.execution})` : ''}`,
		);
		if (run.clock) lines.push(`        ${clockLine(run.clock)}`);
		lines.push(...runLines(run, '        '));
	});
	for (const [name, sub] of Object.entries(detail.workflows ?? {})) {
		lines.push(
			`      sub-workflow "${name}": ${plural(sub.executions, 'execution')}, ${sub.status}`,
		);
		lines.push(...runLines(sub, '        '));
	}
	for (const [name, service] of Object.entries(detail.services ?? {})) {
		lines.push(
			`      ${name}: ${[plural(service.requests.length, 'request'), ...service.facts].join(', ')}`,
		);
		for (const request of service.requests) lines.push(`        ${request}`);
	}
	if (detail.http?.length) {
		lines.push(`      other services: ${plural(detail.http.length, 'request')}`);
		for (const request of detail.http) lines.push(`        ${request}`);
	}
	return lines;
}
