import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { plural } from '../shared/tool';

/*
 * Options > Max Credits per Run: a cap on what one execution may spend, checked before anything
 * is sent. The service reserves the whole count of a search up front and may charge all of it, so
 * each search first holds its most possible charge against the cap and is refused, unsent, when
 * that could pass it; once answered, the hold becomes what the search charged and the rest is
 * given back. An agent calls the node once per tool call, and the calls of one execution may run
 * side by side: the ledger is kept per execution in this process, and a hold is checked and taken
 * in one synchronous step, so two calls can never both fit under the cap with the same credits.
 * What the ledger cannot see: another n8n process (a queue-mode worker running another call of
 * the same execution) and anything before a restart of this one.
 */

/** The cap in tool mode when the user set none: one search at the spec's default count. */
export const TOOL_DEFAULT_MAX_CREDITS = 100;

/** Executions remembered: enough for the agents running at once in one n8n process. */
const REMEMBERED = 500;

/** One execution's credits: charged by its runs so far, and held by searches not yet answered. */
interface Ledger {
	spent: number;
	held: number;
}
const ledgers = new Map<string, Ledger>();

export interface CreditCap {
	/** undefined: no cap. */
	limit: number | undefined;
	ledger: Ledger;
}

/** The execution's ledger, most recently used last, so the oldest idle one is forgotten first. */
function ledgerOf(executionId: string): Ledger {
	// Without an execution ID (never seen in n8n, possible in a harness) the run keeps its own.
	if (!executionId) return { spent: 0, held: 0 };
	const ledger = ledgers.get(executionId) ?? { spent: 0, held: 0 };
	ledgers.delete(executionId);
	ledgers.set(executionId, ledger);
	if (ledgers.size > REMEMBERED) {
		for (const [id, old] of ledgers) {
			if (old.held === 0) {
				ledgers.delete(id);
				break;
			}
		}
	}
	return ledger;
}

/** The run's cap, read from the first item (it applies to the whole run). */
export function capOf(ctx: IExecuteFunctions, tool: boolean): CreditCap {
	const options = ctx.getNodeParameter('options', 0, {}) as { maxCreditsPerRun?: number };
	const set = options.maxCreditsPerRun;
	return {
		limit:
			typeof set === 'number' && set >= 0
				? Math.floor(set)
				: tool
					? TOOL_DEFAULT_MAX_CREDITS
					: undefined,
		ledger: ledgerOf(String(ctx.getExecutionId?.() ?? '')),
	};
}

/**
 * What one item's searches may charge, held against the cap. It starts at the item's most
 * possible charge; a climb for new leads that needs more asks for more before each request.
 */
export class CreditHold {
	constructor(
		private readonly cap: CreditCap,
		private held: number,
	) {}

	/** The cap it is held against (undefined: none). */
	get limit(): number | undefined {
		return this.cap.limit;
	}

	/** Whether the cap has room for `total` credits held by this item; if so they are held. */
	holdUpTo(total: number): boolean {
		const extra = total - this.held;
		if (extra <= 0) return true;
		if (!takeHold(this.cap, extra)) return false;
		this.held = total;
		return true;
	}

	/** The item is done: `charged` becomes spent, the rest of the hold is given back. */
	settle(charged: number): void {
		this.cap.ledger.held -= this.held;
		this.cap.ledger.spent += Math.max(0, charged);
		this.held = 0;
	}

	/** Settles as if everything held was charged: the search may have been carried out. */
	settleAsSpent(): void {
		this.settle(this.held);
	}
}

/** Checks and takes a hold in one step (nothing else runs in between in this process). */
function takeHold(cap: CreditCap, credits: number): boolean {
	const { ledger, limit } = cap;
	if (limit !== undefined && ledger.spent + ledger.held + credits > limit) return false;
	ledger.held += credits;
	return true;
}

/** The credits spent or held in the execution: what the next hold must fit beside. */
function committed(cap: CreditCap): number {
	return cap.ledger.spent + cap.ledger.held;
}

/**
 * Holds each item's most possible charge, in input order: an item that does not fit beside the
 * items held before it (and what this execution spent or holds elsewhere) gets its refusal instead.
 */
export function holdForItems(
	ctx: IExecuteFunctions,
	cap: CreditCap,
	mostPossible: number[],
): { holds: Map<number, CreditHold>; refusals: Map<number, NodeOperationError> } {
	const holds = new Map<number, CreditHold>();
	const refusals = new Map<number, NodeOperationError>();
	mostPossible.forEach((credits, i) => {
		const before = committed(cap);
		if (takeHold(cap, credits)) {
			holds.set(i, new CreditHold(cap, credits));
			return;
		}
		const already =
			before > 0 ? ` and ${plural(before, 'credit')} may already be spent in this run` : '';
		refusals.set(
			i,
			new NodeOperationError(
				ctx.getNode(),
				`Max Credits per Run (${cap.limit}) would be passed: this search may charge up to ${plural(credits, 'credit')}${already}`,
				{
					itemIndex: i,
					description:
						'Nothing was sent for this item and nothing was charged. Lower Count, or raise Options > Max Credits per Run.',
				},
			),
		);
	});
	return { holds, refusals };
}
