import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an OpenAI-compatible chat model, scripted for one conversation: first it asks for
 * the Fetch Leads and List Pools tools (arguments chosen by the "model"), then it answers with what
 * the tools returned. It sees only what n8n's AI Agent sends; nothing leaves the machine.
 */
export interface ScriptedModel {
	url: string;
	requests: any[];
	close(): Promise<void>;
}

export async function startScriptedModel(): Promise<ScriptedModel> {
	const requests: any[] = [];
	const server = http.createServer((req, res) => {
		let text = '';
		req.on('data', (chunk) => (text += chunk));
		req.on('end', () => {
			const body = text ? JSON.parse(text) : {};
			requests.push({ path: req.url, body });
			if (req.method === 'GET' && req.url?.endsWith('/models')) {
				return send(res, { object: 'list', data: [{ id: 'scripted-model', object: 'model' }] });
			}
			const message = reply(body);
			send(res, {
				id: `chatcmpl-${requests.length}`,
				object: 'chat.completion',
				created: Math.floor(Date.now() / 1000),
				model: body.model ?? 'scripted-model',
				choices: [{ index: 0, message, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
				usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
			});
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		requests,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

function send(res: http.ServerResponse, body: unknown) {
	res.writeHead(200, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

function reply(body: { messages?: any[]; tools?: any[] }) {
	const messages = body.messages ?? [];
	const toolResults = messages.filter((m) => m.role === 'tool');
	if (toolResults.length === 0) {
		const names: string[] = (body.tools ?? []).map((t) => t.function?.name);
		const fetchTool = names.find((n) => /fetch/i.test(n));
		const poolTool = names.find((n) => /pool/i.test(n));
		return {
			role: 'assistant',
			content: null,
			tool_calls: [
				fetchTool && {
					id: 'call_fetch',
					type: 'function',
					function: {
						name: fetchTool,
						arguments: JSON.stringify({ niche: 'dentist', city: 'Austin, TX', count: 3 }),
					},
				},
				poolTool && {
					id: 'call_pools',
					type: 'function',
					function: { name: poolTool, arguments: '{}' },
				},
			].filter(Boolean),
		};
	}
	const resultOf = (id: string) =>
		toolResults
			.filter((m) => m.tool_call_id === id)
			.map((m) => String(m.content))
			.join('\n');
	// Both tools name things "name": a lead (the Simplified output) and a pool.
	const names = (text: string) => [...text.matchAll(/"name":\s*"([^"]+)"/g)].map((m) => m[1]);
	const businesses = names(resultOf('call_fetch'));
	const pools = names(resultOf('call_pools'));
	return {
		role: 'assistant',
		content: `Leads: ${businesses.join('; ')}. Pools: ${pools.join('; ')}.`,
	};
}
