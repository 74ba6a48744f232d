import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { asNodeError } from './errors';

/**
 * Runs `work` for every input item and pairs its output to the item. With `continueOnFail` (the
 * node's execute() passes this.continueOnFail()) a failing item becomes an error item paired to it
 * (n8n routes it to the error output when that is on); otherwise the first failure stops the node.
 */
export async function perItem(
	ctx: IExecuteFunctions,
	work: (itemIndex: number) => Promise<INodeExecutionData['json'][]>,
	continueOnFail: boolean,
): Promise<INodeExecutionData[]> {
	const out: INodeExecutionData[] = [];
	const items = ctx.getInputData();
	for (let i = 0; i < items.length; i++) {
		try {
			for (const json of await work(i)) out.push({ json, pairedItem: { item: i } });
		} catch (error) {
			const nodeError = asNodeError(ctx, error, i);
			if (!continueOnFail) throw nodeError;
			out.push({ json: { error: nodeError.message }, error: nodeError, pairedItem: { item: i } });
		}
	}
	return out;
}
