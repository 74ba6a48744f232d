import type { IDataObject, INode, INodeExecutionData } from 'n8n-workflow';

/*
 * A node an AI Agent calls as a tool: n8n hands the model only the items of the node's first
 * output, their `json` flattened (an empty output reaches it as an empty string); a second
 * output, an execution hint or an error item's `error` never reach it. So in tool mode every node
 * answers with one item on its first output that says what happened, in words (`summary`) and as
 * fields the model can quote.
 */

/** Whether n8n runs this node as an agent's tool: its type then ends in "Tool". */
export function isToolCall(ctx: { getNode(): INode }): boolean {
	return ctx.getNode().type.endsWith('Tool');
}

/** The one item a tool call answers with, paired to every input item it speaks for. */
export function toolAnswer(json: IDataObject, inputCount: number): INodeExecutionData[] {
	return [
		{
			json,
			pairedItem: Array.from({ length: Math.max(1, inputCount) }, (_, item) => ({ item })),
		},
	];
}

export const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
