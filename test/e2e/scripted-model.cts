import {
	type ChatRequest,
	type ScriptedModel,
	startScriptedModel as startModel,
} from '../../n8n-testkit/src/ai/scripted-model.cjs';

export type { ScriptedModel };

/**
 * The workflow test runner's scripted chat model (one place for the stand-in), answering one
 * conversation of its own (see reply): it calls the package's tools with arguments of its own
 * choosing, then answers with what they returned. It sees only what n8n's AI Agent sends; nothing
 * leaves the machine.
 */
export function startScriptedModel(): Promise<ScriptedModel> {
	return startModel((body) => ({ message: reply(body) }));
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
function reply(body: ChatRequest): {
	role: 'assistant';
	content: string | null;
	tool_calls?: unknown[];
} {
	const messages = body.messages ?? [];
	const toolResults = messages.filter((m) => m.role === 'tool');
	const names = (body.tools ?? []).map((t) => t.function?.name ?? '');
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
