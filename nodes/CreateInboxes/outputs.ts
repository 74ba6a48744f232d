import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { isToolCall, toolAnswer } from '../shared/tool';
import { secretsOf, withoutSecrets } from './inputFields';
import type { Batch, Failure, Pending } from './plan';
import type { NewPool } from './results';

/*
 * The node's two outputs, Created and Failed, each item paired to its input, and the notes the
 * run shows as hints. Steps report what happened; only this file writes the outputs.
 */

export class Outputs {
	private readonly created: INodeExecutionData[] = [];
	private readonly failed: INodeExecutionData[] = [];
	private readonly notes: string[] = [];

	constructor(
		private readonly ctx: IExecuteFunctions,
		private readonly items: INodeExecutionData[],
	) {}

	/** The input item's fields, less any secret: what both outputs carry first. */
	private inputOf(index: number, secrets = secretsOf(this.ctx, index)): IDataObject {
		return withoutSecrets(this.items[index].json, secrets);
	}

	note(message: string | undefined): void {
		if (message) this.notes.push(message);
	}

	/** A failed entry: the input item's fields (no secret), then emailAddress, code and reason. */
	fail(failure: Failure): void {
		this.failed.push({
			json: {
				...this.inputOf(failure.index),
				success: false,
				emailAddress: failure.emailAddress,
				code: failure.code,
				reason: failure.reason,
			},
			pairedItem: { item: failure.index },
		});
	}

	/**
	 * A created inbox: the input item's fields (no secret), then the service's result, with its
	 * pool (and the new pool's name).
	 */
	succeed(item: Pending, result: IDataObject, pool: NewPool | undefined): void {
		const poolId = result.poolId ?? (item.newPool ? pool?.id : item.entry.poolId);
		const name = item.newPool && pool?.name && poolId === pool.id ? pool.name : undefined;
		const secrets = secretsOf(this.ctx, item.index);
		this.created.push({
			json: {
				...this.inputOf(item.index, secrets),
				...withoutSecrets(result, secrets),
				emailAddress: result.emailAddress ?? item.entry.emailAddress,
				...(poolId !== undefined ? { poolId } : {}),
				...(name ? { poolName: name } : {}),
			},
			pairedItem: { item: item.index },
		});
	}

	/** What a step found: created entries (with the pool known after it), failures, a note. */
	record(found: {
		created: Array<{ item: Pending; result: IDataObject }>;
		failed: Failure[];
		pool: NewPool | undefined;
		note?: string;
	}): void {
		for (const { item, result } of found.created) this.succeed(item, result, found.pool);
		for (const failure of found.failed) this.fail(failure);
		this.note(found.note);
	}

	/**
	 * These batches were not sent: their entries fail with the error's words and `code`. When
	 * nothing was created at all, the node stops with the error instead (unless it continues
	 * on fail): a run that did nothing is an error, not a list of failures.
	 */
	stop(batches: Batch[], code: string, error: Error, run: { continueOnFail: boolean }): void {
		// An agent is told every entry's outcome instead (a thrown error would be all it saw).
		if (this.created.length === 0 && !run.continueOnFail && !isToolCall(this.ctx)) throw error;
		// The service's words, then what to do about them (for a rate limit: when it frees).
		const { description } = error as Error & { description?: unknown };
		const reason = [error.message, typeof description === 'string' ? description : '']
			.filter(Boolean)
			.join(' ');
		for (const { index, entry } of batches.flatMap((batch) => batch.items))
			this.fail({ index, emailAddress: String(entry.emailAddress), code, reason });
	}

	/**
	 * Both outputs in input order, and a hint when entries failed or needed checking. As an agent's
	 * tool, one item on the first output with both, since the model sees nothing else.
	 */
	done(ctx: IExecuteFunctions): INodeExecutionData[][] {
		if (isToolCall(ctx)) return [toolAnswer(this.toolResult(), this.items.length)];
		if (this.failed.length > 0) {
			const codes = [...new Set(this.failed.map((f) => f.json.code))].join(', ');
			ctx.addExecutionHints({
				message: `${this.created.length} inbox(es) created, ${this.failed.length} failed (${codes}): the failed ones are on the Failed output with emailAddress, code and reason.`,
				type: 'warning',
				location: 'outputPane',
			});
		}
		for (const message of this.notes)
			ctx.addExecutionHints({ message, type: 'warning', location: 'outputPane' });
		return [byItem(this.created), byItem(this.failed)];
	}

	/** What an agent is told: every entry's outcome, in words and as fields. */
	private toolResult(): IDataObject {
		const created = byItem(this.created).map(({ json }) => ({
			emailAddress: String(json.emailAddress),
			inboxId: json.inboxId ?? null,
			poolId: json.poolId ?? null,
			...(json.poolName ? { poolName: json.poolName } : {}),
		}));
		const outcomeOf = ({ json }: INodeExecutionData) => ({
			emailAddress: String(json.emailAddress),
			code: String(json.code),
			reason: String(json.reason),
		});
		const failed = byItem(this.failed).filter((f) => f.json.code !== UNKNOWN_OUTCOME);
		const unknown = byItem(this.failed).filter((f) => f.json.code === UNKNOWN_OUTCOME);
		const parts = [`${created.length} ${created.length === 1 ? 'inbox' : 'inboxes'} created`];
		if (failed.length > 0)
			parts.push(
				`${failed.length} failed (${failed.map((f) => `${String(f.json.emailAddress)}: ${String(f.json.code)}`).join('; ')})`,
			);
		if (unknown.length > 0)
			parts.push(
				`${unknown.length} with an unknown outcome (check them with List Inboxes before trying again)`,
			);
		return {
			summary: `${parts.join(', ')}.${this.notes.length > 0 ? ` ${this.notes.join(' ')}` : ''}`,
			createdCount: created.length,
			failedCount: failed.length,
			unknownCount: unknown.length,
			created,
			failed: failed.map(outcomeOf),
			unknown: unknown.map(outcomeOf),
		};
	}
}

function byItem(items: INodeExecutionData[]): INodeExecutionData[] {
	return items.sort(
		(a, b) => (a.pairedItem as { item: number }).item - (b.pairedItem as { item: number }).item,
	);
}

/** Failures whose entry may or may not exist: the service did not say, nor could a check tell. */
const UNKNOWN_OUTCOME = 'unknown_outcome';
