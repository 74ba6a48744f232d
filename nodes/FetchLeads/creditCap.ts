import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { plural } from '../shared/tool';

/*
 * Options > Max Credits per Run: a cap on what one execution may spend, checked before anything
 * is sent. The service reserves the whole count of a search up front and may charge all of it, so
 * a search is refused when the run's charges so far plus its count could pass the cap (a climb for
 * New Leads Wanted counts what it wants: it adds only what is missing). An agent calls the node
 * once per tool call, each call a run of its own within one execution: what the calls charged is
 * remembered per execution in this process, so the cap holds over all of them.
 */

/** The cap in tool mode when the user set none: one search at the spec's default count. */
export const TOOL_DEFAULT_MAX_CREDITS = 100;

/** Executions remembered: enough for the agents running at once in one n8n process. */
const REMEMBERED = 500;
const spentByExecution = new Map<string, number>();

export interface CreditCap {
	/** undefined: no cap. */
	limit: number | undefined;
	/** Charged earlier in this execution (earlier tool calls). */
	spentBefore: number;
	executionId: string;
}

/** The run's cap, read from the first item (it applies to the whole run). */
export function capOf(ctx: IExecuteFunctions, tool: boolean): CreditCap {
	const options = ctx.getNodeParameter('options', 0, {}) as { maxCreditsPerRun?: number };
	const set = options.maxCreditsPerRun;
	const executionId = String(ctx.getExecutionId?.() ?? '');
	return {
		limit:
			typeof set === 'number' && set >= 0
				? Math.floor(set)
				: tool
					? TOOL_DEFAULT_MAX_CREDITS
					: undefined,
		spentBefore: spentByExecution.get(executionId) ?? 0,
		executionId,
	};
}

/**
 * Which items may search: in input order, each whose most possible charge still fits beside the
 * items allowed before it. Returns the refusal of each item that does not fit.
 */
export function refusalsOf(
	ctx: IExecuteFunctions,
	cap: CreditCap,
	mostPossible: number[],
): Map<number, NodeOperationError> {
	const refused = new Map<number, NodeOperationError>();
	if (cap.limit === undefined) return refused;
	let committed = cap.spentBefore;
	mostPossible.forEach((credits, i) => {
		if (committed + credits <= cap.limit!) {
			committed += credits;
			return;
		}
		const before =
			committed > 0 ? ` and ${plural(committed, 'credit')} may already be spent in this run` : '';
		refused.set(
			i,
			new NodeOperationError(
				ctx.getNode(),
				`Max Credits per Run (${cap.limit}) would be passed: this search may charge up to ${plural(credits, 'credit')}${before}`,
				{
					itemIndex: i,
					description:
						'Nothing was sent for this item and nothing was charged. Lower Count, or raise Options > Max Credits per Run.',
				},
			),
		);
	});
	return refused;
}

/** Adds what this run charged to the execution's total, for the tool calls after it. */
export function recordSpend(cap: CreditCap, charged: number): void {
	if (!cap.executionId || charged <= 0) return;
	// Read again: tool calls of one execution may run side by side.
	const spent = spentByExecution.get(cap.executionId) ?? 0;
	spentByExecution.delete(cap.executionId);
	spentByExecution.set(cap.executionId, spent + charged);
	// A Map keeps insertion order: the first key is the execution heard of longest ago.
	if (spentByExecution.size > REMEMBERED)
		spentByExecution.delete(spentByExecution.keys().next().value as string);
}
