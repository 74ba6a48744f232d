import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectSuccess, VERSIONS } from './n8n-app.cjs';
import { type ScriptedModel, startScriptedModel } from './scripted-model.cjs';
import { checkParameters, type Stack, startStack } from './support.cjs';

/**
 * Fetch Leads and List Pools as tools of n8n's AI Agent: the model (a scripted stand-in) fills
 * their parameters through $fromAI, and the agent's answer carries what they returned.
 */
describe.each(VERSIONS)('the nodes as AI Agent tools in n8n $version', (target) => {
	let stack: Stack;
	let model: ScriptedModel;

	beforeAll(async () => {
		stack = await startStack(target);
		model = await startScriptedModel();
		await stack.app.importCredentials([
			{
				id: 'scriptedModel001',
				name: 'Scripted model',
				type: 'openAiApi',
				data: { apiKey: 'sk-scripted', url: model.url },
			},
		]);
		await stack.server.call('POST', '/api/v1/inboxes?poolName=Agent pool', {
			key: stack.account.apiKey,
			body: { emailAddress: 'agent@gmail.com', imapPassword: 'pw' },
		});
	});
	afterAll(async () => {
		await model?.close();
		await stack?.server.close();
	});

	it("calls both tools with the model's arguments and answers with their results", async () => {
		const workflow = JSON.parse(
			readFileSync(join(__dirname, 'workflows', 'ai-agent-tools.json'), 'utf8'),
		);
		checkParameters(workflow);
		await stack.app.importWorkflow(workflow);
		const result = await stack.app.execute(workflow.id);
		expectSuccess(workflow.name, result);

		const contacts = (
			await stack.server.admin('GET', `/accounts/${stack.account.accountId}/contacts`)
		).body.contacts as { businessName: string }[];
		expect(contacts).toHaveLength(3);
		const [answer] = result.output('AI Agent');
		expect(answer.json.output).toBe(
			`Leads: ${contacts.map((c) => c.businessName).join('; ')}. Pools: Agent pool.`,
		);
		// The model saw both tools, and the second call carried their results back.
		const tools = model.requests[0].body.tools.map((t: any) => t.function.name);
		expect(tools).toEqual(
			expect.arrayContaining([expect.stringMatching(/fetch/i), expect.stringMatching(/pool/i)]),
		);
		const toolMessages = model.requests.at(-1).body.messages.filter((m: any) => m.role === 'tool');
		expect(toolMessages).toHaveLength(2);
		// As a tool, Fetch Leads answers in its Simplified form unless the workflow asks otherwise.
		const leads = String(toolMessages.find((m: any) => m.tool_call_id === 'call_fetch').content);
		expect(leads).toContain('"runsMetaAds"');
		expect(leads).not.toContain('"phone_numbers"');
	});
});
