import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
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

	constructor(private readonly items: INodeExecutionData[]) {}

	note(message: string | undefined): void {
		if (message) this.notes.push(message);
	}

	/** A failed entry: the input item's fields, then emailAddress, code and reason. */
	fail(failure: Failure): void {
		this.failed.push({
			json: {
				...this.items[failure.index].json,
				success: false,
				emailAddress: failure.emailAddress,
				code: failure.code,
				reason: failure.reason,
			},
			pairedItem: { item: failure.index },
		});
	}

	/** A created inbox: the service's result, with its pool (and the new pool's name). */
	succeed(item: Pending, result: IDataObject, pool: NewPool | undefined): void {
		const poolId = result.poolId ?? (item.newPool ? pool?.id : item.entry.poolId);
		const name = item.newPool && pool?.name && poolId === pool.id ? pool.name : undefined;
		this.created.push({
			json: {
				...result,
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
		if (this.created.length === 0 && !run.continueOnFail) throw error;
		for (const { index, entry } of batches.flatMap((batch) => batch.items))
			this.fail({ index, emailAddress: String(entry.emailAddress), code, reason: error.message });
	}

	/** Both outputs in input order, and a hint when entries failed or needed checking. */
	done(ctx: IExecuteFunctions): INodeExecutionData[][] {
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
}

function byItem(items: INodeExecutionData[]): INodeExecutionData[] {
	return items.sort(
		(a, b) => (a.pairedItem as { item: number }).item - (b.pairedItem as { item: number }).item,
	);
}
