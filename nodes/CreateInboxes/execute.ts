import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { apiError } from '../shared/errors';
import { isToolCall } from '../shared/tool';
import { Outputs } from './outputs';
import { batchesOf, readEntries, runSettings } from './plan';
import { type NewPool, readBatch } from './results';
import { sendBatch } from './send';
import { settle } from './settle';

/**
 * One inbox per input item, sent in batches (<= 100). Entries that should land in a new pool go
 * to the pool the first batch of their New Pool Name created.
 *
 * Two outputs, each item paired to its input: Created, and Failed with the entry's data as fields
 * (emailAddress, code, reason, plus the input item's fields) so a workflow can branch on `code`.
 *
 * Nothing the service created is missing from Created. Each batch is one of:
 * - answered with results: each entry is created or refused as its result says; an entry without
 *   a result is looked up in the inbox list (settled);
 * - unclear (no answer, a 5xx, a 2xx without results): the whole batch is settled, and no further
 *   batch is sent;
 * - not sent (refused as a whole, or the hourly limit outlasts Max Wait): nothing was created; it
 *   and the batches after it fail as not_sent / rate_limited.
 * A run that created nothing and cannot go on stops the node with the error (unless Continue On
 * Fail).
 */
export async function createInboxes(
	ctx: IExecuteFunctions,
	run: { continueOnFail: boolean },
): Promise<INodeExecutionData[][]> {
	const items = ctx.getInputData();
	const outputs = new Outputs(ctx, items);
	const { settings, note } = runSettings(ctx, items.length, isToolCall(ctx));
	outputs.note(note);
	const { pending, invalid } = readEntries(ctx, items.length);
	invalid.forEach((failure) => outputs.fail(failure));

	const batches = batchesOf(pending, settings.batchSize);
	const waited = { ms: 0 };
	/** The new pool of the batch's group, once a batch of that group has created it. */
	let pool: NewPool | undefined;
	for (const [k, batch] of batches.entries()) {
		// Each New Pool Name is a pool of its own: the first batch of a group creates it.
		if (k > 0 && batch.group !== batches[k - 1].group) pool = undefined;

		const sent = await sendBatch(ctx, batch, pool, settings, waited);
		if (sent.kind === 'notSent' || sent.kind === 'rateLimited') {
			outputs.stop(
				batches.slice(k),
				sent.kind === 'notSent' ? 'not_sent' : 'rate_limited',
				sent.error,
				run,
			);
			break;
		}
		if (sent.kind === 'unclear') {
			const settled = await settle(ctx, batch.items, sent.error, pool, settings.timeoutMs);
			outputs.record(settled);
			outputs.stop(batches.slice(k + 1), 'not_sent', sent.error, run);
			break;
		}

		const reading = readBatch(batch.items, sent.answer, sent.results, pool);
		pool = reading.pool;
		outputs.record(reading);
		if (reading.unanswered.length > 0) {
			const missing = apiError(ctx.getNode(), {
				message: `The answer to the batch (HTTP ${sent.answer.statusCode}) had no result for this entry`,
				itemIndex: batch.items[0].index,
			});
			const settled = await settle(ctx, reading.unanswered, missing, pool, settings.timeoutMs);
			pool = settled.pool;
			outputs.record(settled);
		}
	}
	return outputs.done(ctx);
}
