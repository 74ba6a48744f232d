/**
 * The upgrade check's core: two n8n versions' runs of one suite, case by case and node by node.
 * Each case's detail (what --show prints) is reduced to the facts a workflow's users see (each
 * run's status and error, each node's items, what stubs and mocks received, a Webhook's answer, the
 * services' requests, the nodes that ran), with what differs between any two runs of the same
 * version masked (times, IDs), and the two are set side by side.
 */
import type {
	WorkflowTestCaseResult as CaseResult,
	WorkflowTestCoverage as Coverage,
	WorkflowTestFileResult as FileResult,
	WorkflowTestRunDetail as RunDetail,
} from '../types.cjs';

/** One fact that differs: where (run 1 › "Fetch Leads" › items), and what each version showed. */
export interface Difference {
	at: string;
	/** As the first version showed it (`absent` when it had none). */
	a: string;
	b: string;
}

/** A case of the suite on both versions: each one's verdict, and what differs. */
export interface CaseComparison {
	file: string;
	case: string;
	passed: [boolean | undefined, boolean | undefined];
	differences: Difference[];
}

/** Values that differ between two runs of the same workflow on one version: masked. */
const VOLATILE: [RegExp, string][] = [
	[/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?/g, '<time>'],
	[/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, '<uuid>'],
	// Each run's n8n and mocks listen on ports of their own (a Webhook's host header, a resume URL).
	[/\b(127\.0\.0\.1|localhost):\d+/g, '$1:<port>'],
];

/** A value as compared: JSON with volatile text and epoch-millisecond numbers masked. */
export function masked(value: unknown): string {
	let text =
		JSON.stringify(value, (_key, v: unknown) =>
			typeof v === 'number' && v > 1e12 && v < 1e13 ? '<epoch ms>' : v,
		) ?? 'absent';
	for (const [pattern, mask] of VOLATILE) text = text.replace(pattern, mask);
	return text;
}

/** The facts of a run a comparison reads, by where they are. */
function runFacts(run: RunDetail, prefix: string): Map<string, unknown> {
	const facts = new Map<string, unknown>();
	facts.set(`${prefix}status`, run.status);
	if (run.error) facts.set(`${prefix}error`, run.error);
	if (run.waiting) facts.set(`${prefix}waiting at`, run.waiting.node);
	for (const [name, node] of Object.entries(run.nodes)) {
		const at = `${prefix}"${name}"`;
		facts.set(`${at} › runs`, node.runs);
		facts.set(`${at} › items`, node.items);
		facts.set(`${at} › first items`, node.first);
		if (node.error) facts.set(`${at} › error`, node.error);
	}
	for (const [name, sent] of Object.entries(run.sent ?? {})) {
		facts.set(`${prefix}"${name}" (stubbed) › would have sent`, sent.items);
		facts.set(`${prefix}"${name}" (stubbed) › first sent`, sent.first);
		if (sent.errors?.length) facts.set(`${prefix}"${name}" (stubbed) › errors`, sent.errors);
	}
	if (run.response) {
		facts.set(`${prefix}response.status`, run.response.status);
		facts.set(`${prefix}response.body`, run.response.body);
		const type = run.response.headers['content-type'];
		if (type) facts.set(`${prefix}response.content-type`, type.split(';')[0]);
	}
	return facts;
}

/** Every fact of a case's detail (its runs, sub-workflows, requests), or its failures when it has none. */
function caseFacts(result: CaseResult | undefined): Map<string, unknown> {
	const facts = new Map<string, unknown>();
	if (!result) return facts;
	const detail = result.detail;
	if (!detail) {
		// A case that could not run: why.
		facts.set('ran', result.failures.map((f) => `${f.at}: ${f.message}`).join('; '));
		return facts;
	}
	detail.runs.forEach((run, r) => {
		for (const [at, value] of runFacts(run, `run ${r + 1} › `)) facts.set(at, value);
	});
	for (const [name, sub] of Object.entries(detail.workflows ?? {})) {
		facts.set(`sub-workflow "${name}" › executions`, sub.executions);
		for (const [at, value] of runFacts(sub, `sub-workflow "${name}" › `)) facts.set(at, value);
	}
	if (detail.http) facts.set('requests to other services (mocks)', detail.http);
	for (const [name, service] of Object.entries(detail.services ?? {})) {
		facts.set(`${name} › requests`, service.requests);
		for (const [count, value] of Object.entries(service.counts))
			facts.set(`${name} › ${count}`, value);
	}
	return facts;
}

/** What differs between two versions' results of one case. */
export function compareCase(a: CaseResult | undefined, b: CaseResult | undefined): Difference[] {
	const factsA = caseFacts(a);
	const factsB = caseFacts(b);
	const differences: Difference[] = [];
	for (const at of new Set([...factsA.keys(), ...factsB.keys()])) {
		const shownA = factsA.has(at) ? masked(factsA.get(at)) : 'absent';
		const shownB = factsB.has(at) ? masked(factsB.get(at)) : 'absent';
		if (shownA !== shownB) differences.push({ at, a: shownA, b: shownB });
	}
	return differences;
}

/** Every case of either version's run, in the first's order, with what differs. */
export function compareResults(a: FileResult[], b: FileResult[]): CaseComparison[] {
	const key = (file: string, name: string) => `${file}\u0000${name}`;
	const casesOf = (files: FileResult[]) =>
		new Map(
			files.flatMap((f) => f.cases.map((c) => [key(f.file, c.name), { file: f.file, c }] as const)),
		);
	const byA = casesOf(a);
	const byB = casesOf(b);
	return [...new Set([...byA.keys(), ...byB.keys()])].map((k) => {
		const one = byA.get(k);
		const other = byB.get(k);
		const where = (one ?? other)!;
		return {
			file: where.file,
			case: where.c.name,
			passed: [one?.c.passed, other?.c.passed],
			differences: compareCase(one?.c, other?.c),
		};
	});
}

/** A workflow's coverage on each version, where it differs (with --coverage). */
export interface CoverageDifference {
	workflow: string;
	differences: Difference[];
}

/** What each workflow's coverage shows on the two versions: nodes and branches run, and missed. */
export function compareCoverage(
	a: Coverage | undefined,
	b: Coverage | undefined,
): CoverageDifference[] {
	if (!a || !b) return [];
	const facts = (coverage: Coverage) =>
		new Map(
			coverage.workflows.map((w) => [
				w.file,
				new Map<string, unknown>([
					['nodes', `${w.nodes.covered}/${w.nodes.total}`],
					['nodes never run', w.nodes.missed],
					['branches', `${w.branches.covered}/${w.branches.total}`],
					['branches never taken', w.branches.missed.map((m) => `${m.node} › ${m.output}`)],
					['outputs to nowhere', w.nowhere.map((n) => `${n.node} › ${n.output}`)],
				]),
			]),
		);
	const byA = facts(a);
	const byB = facts(b);
	return [...new Set([...byA.keys(), ...byB.keys()])].flatMap((workflow) => {
		const one = byA.get(workflow) ?? new Map<string, unknown>();
		const other = byB.get(workflow) ?? new Map<string, unknown>();
		const differences = [...new Set([...one.keys(), ...other.keys()])].flatMap((at) => {
			const shownA = one.has(at) ? masked(one.get(at)) : 'absent';
			const shownB = other.has(at) ? masked(other.get(at)) : 'absent';
			return shownA === shownB ? [] : [{ at, a: shownA, b: shownB }];
		});
		return differences.length ? [{ workflow, differences }] : [];
	});
}
