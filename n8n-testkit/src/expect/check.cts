/**
 * Checks what runs did against a case's expectations. Each failed expectation says where it is in
 * the test file, what was expected, what came, and the nearest item (or request) to what was asked.
 */
import type {
	CaseExpectation,
	NodeExpectation,
	ResponseExpectation,
	RunExpectation,
	SentExpectation,
	SubWorkflowExpectation,
} from '../file/schema.cjs';
import type { NodeRun } from '../n8n/executions.cjs';
import type {
	WorkflowTestFailure,
	WorkflowTestWaitSkip as WaitSkip,
} from '../types.cjs';
import { ERROR_OUTPUT, type OutputRef } from '../workflow/outputs.cjs';
import type { Sent } from '../workflow/sent.cjs';
import {
	countHolds,
	describeCount,
	fieldOf,
	shown,
	subsetMatches,
	valueMatches,
} from './match.cjs';

/** Where in the case (expect.nodes.HubSpot.items), and what was expected and what came. */
export type Failure = WorkflowTestFailure;

/** What one run (one start, or one trigger check) did. */
export interface RunView {
	status: 'success' | 'error' | 'waiting';
	error?: { node?: string; message: string };
	/** For a run that ends waiting for a request: the node, and the execution. */
	waiting?: { node: string; execution: string };
	/** Waits on time the runner moved past in the run. */
	skips?: WaitSkip[];
	/** The case's clock (epoch ms) as the run started, after its moves, and once it had ended. */
	clock?: { start: number; end: number };
	/** For a run that resumed a waiting execution by a request: the node that waited. */
	resumed?: { node: string };
	/** Each node that ran, with every run of it. */
	nodes: Record<string, NodeRun[]>;
	/** What each stubbed node a case reads `sent` of would have sent. */
	sent?: Record<string, Sent>;
	/** What a scripted model node was told (its messages' texts), over the case; none unscripted. */
	told?: (node: string) => string[] | undefined;
	/** What the caller of the Webhook got, for a run started by a real request. */
	response?: { status: number; headers: Record<string, string>; body: unknown };
	/**
	 * Resolves an output name (Failed, Spend, error) to its index for a node, or the error output
	 * (the last of each run); a string says why the name names none of the node's outputs.
	 */
	outputIndex(node: string, output: number | string): OutputRef | string;
}

export function checkRun(expect: RunExpectation, run: RunView, at: string): Failure[] {
	const failures: Failure[] = [];
	if (expect.status && expect.status !== run.status)
		failures.push({
			at: `${at}.status`,
			message: `expected ${expect.status}, got ${run.status}${run.error ? ` (${run.error.node ? `node "${run.error.node}": ` : ''}${run.error.message})` : ''}${run.waiting ? ` (at "${run.waiting.node}", for a request to its resume URL: a later run's resume sends it)` : ''}`,
		});
	if (expect.error) {
		if (!run.error)
			failures.push({ at: `${at}.error`, message: 'expected the run to fail, but it succeeded' });
		else {
			if (expect.error.node !== undefined && expect.error.node !== run.error.node)
				failures.push({
					at: `${at}.error.node`,
					message: `expected it to fail at "${expect.error.node}", it failed at "${run.error.node ?? '?'}": ${run.error.message}`,
				});
			if (
				expect.error.message !== undefined &&
				!valueMatches(expect.error.message, run.error.message)
			)
				failures.push({
					at: `${at}.error.message`,
					message: `expected ${shown(expect.error.message)}, got ${shown(run.error.message)}`,
				});
		}
	}
	if (expect.response) failures.push(...checkResponse(expect.response, run, `${at}.response`));
	for (const [node, expectations] of Object.entries(expect.nodes ?? {}))
		for (const [i, e] of (Array.isArray(expectations) ? expectations : [expectations]).entries())
			failures.push(
				...checkNode(
					node,
					e,
					run,
					`${at}.nodes.${node}${Array.isArray(expectations) ? `.${i}` : ''}`,
				),
			);
	return failures;
}

/** What the caller got: its status, headers and body (a JSON subset, or the text). */
function checkResponse(e: ResponseExpectation, run: RunView, at: string): Failure[] {
	const got = run.response;
	if (!got)
		return [{ at, message: 'the run was not started by a request: give the case a request' }];
	const failures: Failure[] = [];
	const answer = `(the answer: ${got.status} ${shown(got.body)})`;
	if (e.status !== undefined && e.status !== got.status)
		failures.push({
			at: `${at}.status`,
			message: `expected ${e.status}, got ${got.status} ${answer}`,
		});
	for (const [name, value] of Object.entries(e.headers ?? {}))
		if (!valueMatches(value, got.headers[name.toLowerCase()]))
			failures.push({
				at: `${at}.headers.${name}`,
				message: `expected ${shown(value)}, got ${shown(got.headers[name.toLowerCase()])}`,
			});
	if (e.body !== undefined && !subsetMatches(e.body, got.body))
		failures.push({
			at: `${at}.body`,
			message: `expected a body holding ${shown(e.body)}, got ${shown(got.body)}`,
		});
	return failures;
}

/** A node's items on an output, over every run of the node. */
export function itemsOf(
	run: RunView,
	node: string,
	output: number | string = 0,
): Record<string, unknown>[] | string {
	const index = run.outputIndex(node, output);
	if (typeof index === 'string' && index !== ERROR_OUTPUT) return index;
	return (run.nodes[node] ?? []).flatMap(
		(r) => r.outputs[index === ERROR_OUTPUT ? r.outputs.length - 1 : index] ?? [],
	);
}

function checkNode(node: string, e: NodeExpectation, run: RunView, at: string): Failure[] {
	const failures: Failure[] = [];
	const ran = run.nodes[node] !== undefined;
	if (e.ran !== undefined && e.ran !== ran)
		failures.push({
			at: `${at}.ran`,
			message: ran
				? `expected "${node}" not to run, but it ran`
				: `expected "${node}" to run, but it did not${run.error ? ` (the run failed at "${run.error.node ?? '?'}": ${run.error.message})` : ''}`,
		});
	const items = itemsOf(run, node, e.output);
	if (typeof items === 'string') return [...failures, { at: `${at}.output`, message: items }];
	const where = e.output !== undefined && e.output !== 0 ? ` on output ${shown(e.output)}` : '';
	const notRun = !ran
		? ` (the node did not run${run.error ? `; the run failed at "${run.error.node ?? '?'}": ${run.error.message}` : ''})`
		: '';
	failures.push(...checkItems(items, e, at, where, notRun));
	if (e.sent) {
		const sent = run.sent?.[node];
		// Each expression n8n could not resolve once, with how many items it failed for.
		const unresolved = new Map<string, number[]>();
		for (const error of sent?.errors ?? []) {
			const key = JSON.stringify([error.parameter, error.message]);
			unresolved.set(key, [...(unresolved.get(key) ?? []), error.item + 1]);
		}
		for (const [key, items] of unresolved) {
			const [parameter, message] = JSON.parse(key) as [string, string];
			failures.push({
				at: `${at}.sent`,
				message: `n8n could not resolve parameter "${parameter}" of "${node}" (for ${items.length} of ${sent!.items.length} item(s), the first item ${items[0]}): ${message}`,
			});
		}
		failures.push(...checkItems(sent?.items ?? [], e.sent, `${at}.sent`, ' sent', notRun));
	}
	if (e.told !== undefined) {
		const told = run.told?.(node);
		if (!told)
			failures.push({
				at: `${at}.told`,
				message: `"${node}" is not a scripted model in this case: stub it with { model: [...] }`,
			});
		else if (!told.some((text) => valueMatches(e.told, text)))
			failures.push({
				at: `${at}.told`,
				message: `expected the model to be told ${shown(e.told)}; it received ${told.length} message(s)${told.length ? `, the last: ${shown(told[told.length - 1])}` : ''}`,
			});
	}
	const runs = run.nodes[node] ?? [];
	if (e.error !== undefined) {
		const said =
			runs.map((r) => r.error?.message).find((m) => m !== undefined) ??
			(run.error?.node === node ? run.error.message : undefined);
		if (!valueMatches(e.error, said))
			failures.push({
				at: `${at}.error`,
				message: `expected "${node}" to fail with ${shown(e.error)}, got ${said === undefined ? 'no error' : shown(said)}`,
			});
	}
	if (e.hint !== undefined) {
		const hints = runs.flatMap((r) => r.hints);
		if (!hints.some((h) => valueMatches(e.hint, h)))
			failures.push({
				at: `${at}.hint`,
				message: `expected a hint ${shown(e.hint)}; "${node}" showed ${hints.length ? hints.map((h) => shown(h)).join(' | ') : 'none'}`,
			});
	}
	return failures;
}

/**
 * Items against a count and fields on every, some or none of them (a node's output, or what a
 * stubbed node would have sent). `where` says which items ("on output 1", " sent"), `note` why
 * there may be none.
 */
export function checkItems(
	items: Record<string, unknown>[],
	e: Pick<SentExpectation, 'items' | 'every' | 'some' | 'none'>,
	at: string,
	where: string,
	note: string,
	noun = 'item',
	/** An item as a failure shows it whole (a request with its credentials masked). */
	whole: (index: number) => unknown = (index) => items[index],
): Failure[] {
	const failures: Failure[] = [];
	if (e.items !== undefined && !countHolds(e.items, items.length))
		failures.push({
			at: `${at}.${noun === 'item' ? 'items' : `${noun}s`}`,
			message: `expected ${describeCount(e.items)} ${noun}(s)${where}, got ${items.length}${note}`,
		});
	for (const [field, value] of Object.entries(e.every ?? {})) {
		const bad = items.findIndex((item) => !valueMatches(value, fieldOf(item, field)));
		if (bad >= 0)
			failures.push({
				at: `${at}.every.${field}`,
				message: `expected every ${noun}${where} to have ${field} = ${shown(value)}; ${noun} ${bad + 1} of ${items.length} has ${shown(fieldOf(items[bad], field))} (${noun}: ${shown(whole(bad))})`,
			});
		else if (!items.length && e.items === undefined)
			failures.push({
				at: `${at}.every.${field}`,
				message: `expected ${noun}s${where} with ${field} = ${shown(value)}, but there were none${note}`,
			});
	}
	for (const [field, value] of Object.entries(e.some ?? {}))
		if (!items.some((item) => valueMatches(value, fieldOf(item, field))))
			failures.push({
				at: `${at}.some.${field}`,
				message: `expected at least one ${noun}${where} with ${field} = ${shown(value)}; none of ${items.length} has it${items.length ? ` (first ${noun}'s ${field}: ${shown(fieldOf(items[0], field))})` : ''}`,
			});
	for (const [field, value] of Object.entries(e.none ?? {})) {
		const bad = items.findIndex((item) => valueMatches(value, fieldOf(item, field)));
		if (bad >= 0)
			failures.push({
				at: `${at}.none.${field}`,
				message: `expected no ${noun}${where} with ${field} = ${shown(value)}; ${noun} ${bad + 1} has ${shown(fieldOf(items[bad], field))} (${noun}: ${shown(whole(bad))})`,
			});
	}
	return failures;
}

/** A sub-workflow's executions in a case, all together: how many, their status, their nodes. */
export function checkSubWorkflow(
	expect: SubWorkflowExpectation,
	executions: number,
	run: RunView,
	at: string,
): Failure[] {
	const { executions: count, ...rest } = expect;
	const failures: Failure[] = [];
	if (count !== undefined && !countHolds(count, executions))
		failures.push({
			at: `${at}.executions`,
			message: `expected ${describeCount(count)} execution(s), got ${executions}${executions ? '' : ' (nothing called it: is its caller on the path the case takes?)'}`,
		});
	return [...failures, ...checkRun(rest, run, at)];
}

/** A field's values across all runs: none twice, and how many. */
export function checkDistinct(
	expect: NonNullable<CaseExpectation['distinct']>,
	runs: RunView[],
	at: string,
): Failure[] {
	const seen = new Map<string, number>();
	const failures: Failure[] = [];
	let empty = 0;
	runs.forEach((run, r) => {
		const items = itemsOf(run, expect.node, expect.output);
		if (typeof items === 'string') {
			failures.push({ at, message: items });
			return;
		}
		for (const item of items) {
			const value = fieldOf(item, expect.field);
			if (value === undefined || value === null || value === '') {
				empty++;
				continue;
			}
			const key = JSON.stringify(value);
			const first = seen.get(key);
			if (first !== undefined && failures.length < 3)
				failures.push({
					at,
					message: `${expect.field} ${key} came twice: in run ${first + 1} and run ${r + 1} (item: ${shown(item)})`,
				});
			else if (first === undefined) seen.set(key, r);
		}
	});
	if (expect.count !== undefined && !countHolds(expect.count, seen.size))
		failures.push({
			at: `${at}.count`,
			message: `expected ${describeCount(expect.count)} distinct ${expect.field} value(s) from "${expect.node}" over ${runs.length} run(s), got ${seen.size}${empty ? ` (${empty} item(s) had no ${expect.field}: not counted)` : ''}`,
		});
	return failures;
}
