/**
 * A stand-in for an OpenAI-compatible chat model on loopback: it answers `POST .../chat/completions`
 * with what `reply` says (tool calls, or a text), and keeps every request (the messages the model
 * was told, tool results included). n8n's OpenAI chat model node is pointed at it; nothing leaves
 * the machine. The workflow test runner plays a test file's scripts with it (script.cts); the
 * project's AI Agent end-to-end test gives a reply of its own.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the model answers: an assistant message, or an error the agent sees (HTTP 400). */
export type ModelReply =
	| { message: { role: 'assistant'; content: string | null; tool_calls?: unknown[] } }
	| { error: string };

export interface ChatRequest {
	model?: string;
	messages?: { role: string; content?: unknown; tool_call_id?: string }[];
	tools?: { function?: { name?: string; description?: string } }[];
	[key: string]: unknown;
}

export interface ScriptedModel {
	/** The base URL, ending /v1, for the credential. */
	url: string;
	/** Every chat request, in order. */
	requests: { path: string; body: ChatRequest }[];
	close(): Promise<void>;
}

/**
 * The same answer as OpenAI streams it when asked (`stream: true`, as the AI Agent 1.x Tools Agent
 * asks): server-sent events of chunks, the message's content and tool calls as deltas, then the
 * reason it finished and `[DONE]`.
 */
function stream(
	res: http.ServerResponse,
	body: ChatRequest,
	message: { content: string | null; tool_calls?: unknown[] },
	n: number,
): void {
	const chunk = (delta: Record<string, unknown>, finish: string | null) =>
		`data: ${JSON.stringify({
			id: `chatcmpl-${n}`,
			object: 'chat.completion.chunk',
			created: Math.floor(Date.now() / 1000),
			model: body.model ?? 'scripted-model',
			choices: [{ index: 0, delta, finish_reason: finish }],
		})}\n\n`;
	const calls = (message.tool_calls ?? []).map((call, index) => ({
		index,
		...(call as Record<string, unknown>),
	}));
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	res.write(
		chunk(
			{
				role: 'assistant',
				content: message.content ?? (calls.length ? null : ''),
				...(calls.length ? { tool_calls: calls } : {}),
			},
			null,
		),
	);
	res.write(chunk({}, calls.length ? 'tool_calls' : 'stop'));
	res.end('data: [DONE]\n\n');
}

export async function startScriptedModel(
	reply: (body: ChatRequest) => ModelReply,
): Promise<ScriptedModel> {
	const requests: ScriptedModel['requests'] = [];
	const send = (res: http.ServerResponse, status: number, body: unknown) => {
		res.writeHead(status, { 'content-type': 'application/json' });
		res.end(JSON.stringify(body));
	};
	const server = http.createServer((req, res) => {
		let text = '';
		req.on('data', (chunk: Buffer) => (text += chunk.toString()));
		req.on('end', () => {
			if (req.method === 'GET' && req.url?.endsWith('/models'))
				return send(res, 200, {
					object: 'list',
					data: [{ id: 'scripted-model', object: 'model' }],
				});
			let body: ChatRequest;
			try {
				body = text ? (JSON.parse(text) as ChatRequest) : {};
			} catch {
				return send(res, 400, { error: { message: 'the request body is not JSON' } });
			}
			requests.push({ path: req.url ?? '', body });
			const answer = reply(body);
			if ('error' in answer)
				return send(res, 400, { error: { message: answer.error, type: 'invalid_request_error' } });
			const calls = answer.message.tool_calls?.length;
			if (body.stream === true) return stream(res, body, answer.message, requests.length);
			send(res, 200, {
				id: `chatcmpl-${requests.length}`,
				object: 'chat.completion',
				created: Math.floor(Date.now() / 1000),
				model: body.model ?? 'scripted-model',
				choices: [
					{ index: 0, message: answer.message, finish_reason: calls ? 'tool_calls' : 'stop' },
				],
				usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
