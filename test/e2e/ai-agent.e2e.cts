import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectSuccess, VERSIONS } from './n8n-app.cjs';
import { type ScriptedModel, startScriptedModel } from './scripted-model.cjs';
import { checkParameters, type Stack, startStack } from './support.cjs';

/**
 * The four action nodes as tools of n8n's AI Agent: the model (a scripted stand-in) fills their
 * parameters through $fromAI, and sees only each tool's first output: what it received is read
 * back from the model's side and must say what happened.
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
			body: [
				{ emailAddress: 'agent@gmail.com', imapPassword: 'pw' },
				{ emailAddress: 'agent1@gmail.com', imapPassword: 'pw' },
			],
		});
	});
	afterAll(async () => {
		await model?.close();
		await stack?.server.close();
	});

	it("calls all four tools with the model's arguments, and the model receives what happened: leads and their charge, nothing found, a listing with its paging, a created inbox and a failed entry with its reason", async () => {
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
		// The model saw the four tools, each described with what it costs or changes.
		const tools = (model.requests[0].body.tools ?? []).map((t: any) => t.function);
		expect(tools.map((t: any) => t.name)).toHaveLength(4);
		const fetchTool = tools.find((t: any) => /fetch/i.test(t.name));
		expect(fetchTool.description).toMatch(
			/one credit per new lead.*at most 100 credits per agent run/,
		);

		// What the model received from each call: exactly the tool messages of the last request.
		const received = (id: string) => {
			const message = model.requests
				.at(-1)!
				.body.messages?.find((m: any) => m.role === 'tool' && m.tool_call_id === id);
			expect(message).toBeDefined();
			return JSON.parse(String(message!.content));
		};
		const only = (value: any) => (Array.isArray(value) ? value[0] : value);
		expect(only(received('call_fetch'))).toMatchObject({
			summary: '3 new leads for "dentist" in "Austin, TX". Charged 3 credits.',
			chargedCredits: 3,
			leadCount: 3,
			nothingFound: false,
		});
		// As a tool, Fetch Leads answers in its Simplified form unless the workflow asks otherwise.
		expect(only(received('call_fetch')).leads[0]).toHaveProperty('runsMetaAds');
		expect(only(received('call_fetch')).leads[0]).not.toHaveProperty('phone_numbers');
		expect(only(received('call_fetch_none'))).toMatchObject({
			nothingFound: true,
			chargedCredits: 0,
			summary: expect.stringMatching(/^Nothing found: .*Nothing was charged\.$/),
		});
		expect(only(received('call_pools'))).toMatchObject({ listed: 1, hasMore: false });
		expect(only(received('call_inboxes'))).toMatchObject({
			summary: 'Listed 1 inbox of 2. More exist: 1 not listed (raise Limit or turn on Return All).',
			listed: 1,
			total: 2,
			hasMore: true,
		});
		expect(only(received('call_create'))).toMatchObject({
			createdCount: 1,
			failedCount: 0,
			created: [{ emailAddress: 'agent2@gmail.com', inboxId: expect.any(String) }],
		});
		expect(only(received('call_create_again'))).toMatchObject({
			createdCount: 0,
			failedCount: 1,
			failed: [
				{
					emailAddress: 'agent@gmail.com',
					code: 'email_exists',
					reason: expect.stringMatching(/already exists/i),
				},
			],
		});
		// The credits the model was told of are the account's.
		expect(
			(await stack.server.admin('GET', `/accounts/${stack.account.accountId}`)).body.credits,
		).toBe(1000 - 3);
	});
});
