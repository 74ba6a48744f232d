import { ModelScripts } from '../../n8n-testkit/src/ai/script.cjs';
import { startScriptedModel } from '../../n8n-testkit/src/ai/scripted-model.cjs';

/**
 * A stubbed chat model plays its script over HTTP as an OpenAI-compatible model: tool calls by
 * the tools' node names (as n8n names them from the nodes), then the answer; a script that runs
 * out, or a tool the agent does not offer, is an error the agent sees and a failure naming the turn.
 */
describe('a scripted chat model', () => {
	const ask = async (url: string, body: object) =>
		(await fetch(`${url}/chat/completions`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		}).then(async (r) => ({ status: r.status, body: await r.json() }))) as {
			status: number;
			body: any;
		};
	const tools = [{ type: 'function', function: { name: 'Fetch_Leads', description: 'leads' } }];

	it('plays its turns in order, and keeps what the model was told', async () => {
		const scripts = new ModelScripts();
		const model = await startScriptedModel(scripts.reply);
		try {
			scripts.load({
				Claude: [
					{ toolCalls: [{ tool: 'Fetch Leads', arguments: { niche: 'dentist' } }] },
					{ answer: 'Done.' },
				],
			});
			const first = await ask(model.url, {
				model: 'scripted:Claude',
				messages: [{ role: 'user', content: 'Find dentists' }],
				tools,
			});
			expect(first.body.choices[0]).toMatchObject({
				finish_reason: 'tool_calls',
				message: {
					tool_calls: [
						{
							type: 'function',
							function: { name: 'Fetch_Leads', arguments: '{"niche":"dentist"}' },
						},
					],
				},
			});
			const second = await ask(model.url, {
				model: 'scripted:Claude',
				messages: [{ role: 'tool', tool_call_id: 'call_1_1', content: 'Charged 3 credits.' }],
				tools,
			});
			expect(second.body.choices[0]).toMatchObject({
				finish_reason: 'stop',
				message: { content: 'Done.' },
			});
			expect(scripts.toldTo('Claude')).toEqual(['Find dentists', 'Charged 3 credits.']);
			expect(scripts.failures).toEqual([]);
			// Asked once more than scripted: the agent gets an error, the case a failure.
			const third = await ask(model.url, { model: 'scripted:Claude', messages: [], tools });
			expect(third.status).toBe(400);
			expect(scripts.failures).toEqual([
				{
					node: 'Claude',
					message:
						'the agent asked the model a 3rd time, but its script has 2 turn(s): add a turn (answer: ... ends the conversation)',
				},
			]);
		} finally {
			await model.close();
		}
	});

	it('streams the same turns as server-sent events when asked to (as the AI Agent 1.x Tools Agent asks)', async () => {
		const scripts = new ModelScripts();
		const model = await startScriptedModel(scripts.reply);
		const events = async (body: object) =>
			(
				await (
					await fetch(`${model.url}/chat/completions`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ ...body, stream: true }),
					})
				).text()
			)
				.split('\n\n')
				.filter(Boolean)
				.map((event) => event.replace(/^data: /, ''));
		try {
			scripts.load({
				Claude: [
					{ toolCalls: [{ tool: 'Fetch Leads', arguments: { niche: 'dentist' } }] },
					{ answer: 'Done.' },
				],
			});
			const first = await events({ model: 'scripted:Claude', messages: [], tools });
			expect(first.at(-1)).toBe('[DONE]');
			const chunks = first.slice(0, -1).map((e) => JSON.parse(e).choices[0]);
			expect(chunks[0].delta.tool_calls).toEqual([
				expect.objectContaining({
					index: 0,
					type: 'function',
					function: { name: 'Fetch_Leads', arguments: '{"niche":"dentist"}' },
				}),
			]);
			expect(chunks.at(-1).finish_reason).toBe('tool_calls');
			const second = await events({ model: 'scripted:Claude', messages: [], tools });
			const answer = second.slice(0, -1).map((e) => JSON.parse(e).choices[0]);
			expect(answer[0].delta.content).toBe('Done.');
			expect(answer.at(-1).finish_reason).toBe('stop');
		} finally {
			await model.close();
		}
	});

	it('names the turn that calls a tool the agent does not offer', async () => {
		const scripts = new ModelScripts();
		const model = await startScriptedModel(scripts.reply);
		try {
			scripts.load({ Claude: [{ toolCalls: [{ tool: 'List Pools' }] }] });
			const answer = await ask(model.url, { model: 'scripted:Claude', messages: [], tools });
			expect(answer.status).toBe(400);
			expect(scripts.failures).toEqual([
				{
					node: 'Claude',
					message: 'turn 1: the agent offers no tool named "List Pools" (it offers: Fetch_Leads)',
				},
			]);
		} finally {
			await model.close();
		}
	});
});
