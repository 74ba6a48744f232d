import type { IDataObject, IExecuteFunctions, INode, INodeExecutionData } from 'n8n-workflow';
import { asNodeError } from './errors';

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

/**
 * Runs a node's execution; as an agent's tool, a failure becomes the tool's answer instead of an
 * error. n8n's AI Agent before version 3 runs tools through LangChain's AgentExecutor, which hands
 * the model an empty string for any tool that throws (only input-parsing errors are turned into
 * text), so a thrown error would tell the model nothing; version 3 shows the model the error's
 * text, and gets the same words this way. (n8n's own HTTP Request tool answers errors as text too.)
 */
export async function answeringAsTool(
	ctx: IExecuteFunctions,
	run: () => Promise<INodeExecutionData[][]>,
): Promise<INodeExecutionData[][]> {
	if (!isToolCall(ctx)) return await run();
	try {
		return await run();
	} catch (error) {
		const failure = asNodeError(ctx, error, 0);
		const details = failure.description ?? undefined;
		const httpCode = 'httpCode' in failure ? failure.httpCode : undefined;
		return [
			toolAnswer(
				{
					summary: `The call failed: ${failure.message}${details ? `${/[.!?)]$/.test(failure.message) ? '' : '.'} ${details}` : ''}`,
					error: failure.message,
					...(details ? { details } : {}),
					...(httpCode ? { httpCode } : {}),
				},
				ctx.getInputData().length,
			),
		];
	}
}
