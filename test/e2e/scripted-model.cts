import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an OpenAI-compatible chat model, scripted for one conversation (see reply): it
 * calls the package's tools with arguments of its own choosing, then answers with what they
 * returned. It sees only what n8n's AI Agent sends; nothing leaves the machine.
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

const call = (id: string, name: string | undefined, args: object) =>
	name && { id, type: 'function', function: { name, arguments: JSON.stringify(args) } };

/**
 * The conversation, one step per model request:
 * 1. search leads (three dentists, then a niche with no business), list the pools and one inbox;
 * 2. with the pool listed, create an inbox in it and, as a careless agent would, the address
 *    that already exists;
 * 3. answer with what the tools returned.
 */
function reply(body: { messages?: any[]; tools?: any[] }) {
	const messages = body.messages ?? [];
	const toolResults = messages.filter((m) => m.role === 'tool');
	const names: string[] = (body.tools ?? []).map((t) => t.function?.name);
	const tool = (pattern: RegExp) => names.find((n) => pattern.test(n));
	const resultOf = (id: string) =>
		toolResults
			.filter((m) => m.tool_call_id === id)
			.map((m) => String(m.content))
			.join('\n');
	if (toolResults.length === 0) {
		const fetchTool = tool(/fetch/i);
		return {
			role: 'assistant',
			content: null,
			tool_calls: [
				call('call_fetch', fetchTool, { niche: 'dentist', city: 'Austin, TX', count: 3 }),
				call('call_fetch_none', fetchTool, {
					niche: 'unicorn trainer',
					city: 'Austin, TX',
					count: 3,
				}),
				call('call_pools', tool(/pool/i), {}),
				call('call_inboxes', tool(/list.*inbox/i), { limit: 1 }),
			].filter(Boolean),
		};
	}
	const createTool = tool(/create/i);
	const poolId = /"id":\s*"([^"]+)"/.exec(resultOf('call_pools'))?.[1];
	if (createTool && poolId && !toolResults.some((m) => m.tool_call_id === 'call_create')) {
		return {
			role: 'assistant',
			content: null,
			tool_calls: [
				call('call_create', createTool, {
					emailAddress: 'agent2@gmail.com',
					password: 'app-password',
					poolId,
				}),
				call('call_create_again', createTool, {
					emailAddress: 'agent@gmail.com',
					password: 'app-password',
					poolId,
				}),
			],
		};
	}
	// Both tools name things "name": a lead (the Simplified output) and a pool.
	const namesIn = (text: string) => [...text.matchAll(/"name":\s*"([^"]+)"/g)].map((m) => m[1]);
	const businesses = namesIn(resultOf('call_fetch'));
	const pools = namesIn(resultOf('call_pools'));
	return {
		role: 'assistant',
		content: `Leads: ${businesses.join('; ')}. Pools: ${pools.join('; ')}.`,
	};
}
