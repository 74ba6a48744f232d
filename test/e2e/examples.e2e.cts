import { ALL_LINES, expectSuccess } from './n8n-app.cjs';
import {
	checkParameters,
	exampleFiles,
	lastStoredRunData,
	loadExample,
	prepareExample,
	type Stack,
	startStack,
} from './support.cjs';

/**
 * Every workflow of examples/ runs headless (`n8n execute`) in the real n8n apps, with the packed
 * package installed as the README says, against the reference server.
 */
describe.each(ALL_LINES)('examples in n8n $version', (target) => {
	let stack: Stack;
	const run = async (file: string) => {
		const workflow = prepareExample(stack.app, loadExample(file));
		checkParameters(workflow);
		await stack.app.importWorkflow(workflow);
		const result = await stack.app.execute(workflow.id);
		expectSuccess(workflow.name, result);
		return result;
	};

	beforeAll(async () => {
		stack = await startStack(target);
	});
	afterAll(async () => {
		await stack?.server.close();
	});

	// The inbox alert runs as a published workflow in trigger.e2e.cts: a polling trigger does not
	// poll under `n8n execute`. The lead request endpoint (a Webhook) and the lead research agent (a
	// Chat Trigger, a chat model) wait for a call, and the follow-up and the cold-email sequence
	// send mail through Gmail and wait days (the sequence for a reply too): their test files run
	// them in workflow-tests.e2e.cts, called for real, with a scripted model and on the case's
	// clock, on every line.
	it('ships the nine examples, each with a sticky note and no pinned data', () => {
		expect(exampleFiles().sort()).toEqual([
			'bulk-inbox-onboarding-from-csv.json',
			'cold-email-sequence.json',
			'follow-up-after-3-days.json',
			'inbox-error-alert.json',
			'inbox-inventory.json',
			'lead-request-webhook.json',
			'lead-research-agent.json',
			'scheduled-lead-pull-city-by-city.json',
			'scheduled-lead-pull-to-crm.json',
		]);
		for (const file of exampleFiles()) {
			const workflow = loadExample(file);
			expect([
				file,
				workflow.nodes.some((n: any) => n.type === 'n8n-nodes-base.stickyNote'),
			]).toEqual([file, true]);
			expect([file, workflow.pinData ?? {}]).toEqual([file, {}]);
		}
	});

	// The two lead pulls write into n8n's Data Table, which `n8n execute` cannot reach (it does not
	// load n8n's modules): they run in a started n8n, by hand and published, in data-table-examples.e2e.cts.

	it('bulk onboarding from CSV: created rows in the named pool, failed rows in a report', async () => {
		const result = await run('bulk-inbox-onboarding-from-csv.json');
		const created = result.output('Created inboxes').map((i) => i.json);
		expect(created.map((c) => c.emailAddress)).toEqual([
			'sales.team@gmail.com',
			'outreach@yahoo.com',
			'hello@outlook.com',
			'growth@icloud.com',
		]);
		expect(new Set(created.map((c) => c.pool))).toEqual(new Set(['CSV import']));
		const report = result.output('Failure report').map((i) => i.json);
		expect(report).toEqual([
			{
				address: 'wrong.password@gmail.com',
				code: 'connection_failed',
				reason: expect.stringMatching(/authentication refused/),
			},
			{
				address: 'team@our-own-domain.com',
				code: 'invalid_entry',
				reason: expect.stringMatching(/Cannot detect the mail provider/),
			},
			{
				address: 'jane@gmial.com',
				code: 'invalid_entry',
				reason: expect.stringMatching(/did you mean jane@gmail.com\?/),
			},
		]);
		const [file] = result.output('failed-inboxes.csv') as any[];
		expect(file.binary.data.fileName).toBe('failed-inboxes.csv');

		const pools = await stack.server.call('GET', '/api/v1/pools', { key: stack.account.apiKey });
		expect(pools.body.pools).toEqual([
			expect.objectContaining({ name: 'CSV import', inboxCount: 4 }),
		]);
		const listed = await stack.server.call('GET', '/api/v1/inboxes', {
			key: stack.account.apiKey,
		});
		expect(listed.body.inboxes.map((i: any) => i.dailySendingLimit)).toEqual([30, 30, 20, 20]);

		// No password in what n8n stored of Create Inboxes and every node after it: the failed rows
		// keep their other columns, not app_password (the CSV's own nodes hold it as their input).
		const csv = loadExample('bulk-inbox-onboarding-from-csv.json').nodes.find(
			(n: any) => n.name === 'Inboxes CSV',
		).parameters.assignments.assignments[0].value as string;
		const passwords = csv
			.trim()
			.split('\n')
			.slice(1)
			.map((row) => row.split(',')[1]);
		expect(passwords).toHaveLength(7);
		const stored = lastStoredRunData(stack.app);
		const after = ['Create Inboxes', 'Created inboxes', 'Failure report', 'failed-inboxes.csv'];
		for (const node of after) {
			const runs = JSON.stringify(stored[node]);
			const files = [...runs.matchAll(/"data":"([A-Za-z0-9+/=]{16,})"/g)].map((m) =>
				Buffer.from(m[1], 'base64').toString('utf8'),
			);
			for (const password of passwords)
				expect([node, [runs, ...files].some((text) => text.includes(password))]).toEqual([
					node,
					false,
				]);
		}
		const failedRow = stored['Create Inboxes'][0].data.main[1][0].json;
		expect(failedRow).toMatchObject({ email: 'wrong.password@gmail.com', daily_limit: '30' });
		expect(failedRow).not.toHaveProperty('app_password');
	});

	it('inbox inventory: counts per pool and status, across pools', async () => {
		// A second pool with two inboxes, beside the CSV import's pool.
		const seeded = await stack.server.call('POST', '/api/v1/inboxes?poolName=Warm-up', {
			key: stack.account.apiKey,
			body: [
				{ emailAddress: 'warm1@gmail.com', imapPassword: 'pw' },
				{ emailAddress: 'warm2@gmail.com', imapPassword: 'pw' },
			],
		});
		expect(seeded.body.summary.created).toBe(2);
		const result = await run('inbox-inventory.json');
		expect(result.output('Count per pool and status').map((i) => i.json)).toEqual([
			{ pool: 'CSV import', status: 'active', count_inboxId: 4 },
			{ pool: 'Warm-up', status: 'active', count_inboxId: 2 },
		]);
	});

	it('keeps the inboxes created before the hourly limit, the rest on the Failed output', async () => {
		// Another account that has created 998 inboxes this hour: room for two.
		const nearlyFull = await stack.server.newAccount();
		await stack.server.fillInboxes(nearlyFull.apiKey, 998);
		await stack.app.importCredentials([
			{
				id: 'leadInboxFull001',
				name: 'Lead Inbox (nearly full)',
				type: 'leadInboxApi',
				data: {
					apiKey: nearlyFull.apiKey,
					leadsBaseUrl: stack.server.url,
					inboxBaseUrl: `${stack.server.url}/api/v1`,
				},
			},
		]);
		const workflow = prepareExample(stack.app, loadExample('bulk-inbox-onboarding-from-csv.json'));
		workflow.id = 'CsvImportAtLimit';
		workflow.name = 'CSV import at the hourly limit';
		const create = workflow.nodes.find((n: any) => n.name === 'Create Inboxes');
		create.credentials.leadInboxApi = { id: 'leadInboxFull001', name: 'Lead Inbox (nearly full)' };
		create.parameters.options = { batchSize: 2, maxRateLimitWait: 0 };
		await stack.app.importWorkflow(workflow);
		const result = await stack.app.execute(workflow.id);
		expectSuccess(workflow.name, result);
		expect(result.output('Created inboxes').map((i) => i.json.emailAddress)).toEqual([
			'sales.team@gmail.com',
			'outreach@yahoo.com',
		]);
		const failed = result.output('Failure report').map((i) => i.json);
		// Nothing after the limit was sent, so every later row is rate_limited (not yet checked).
		expect(failed.map((f) => [f.address, f.code])).toEqual([
			['hello@outlook.com', 'rate_limited'],
			['growth@icloud.com', 'rate_limited'],
			['wrong.password@gmail.com', 'rate_limited'],
			['team@our-own-domain.com', 'rate_limited'],
			['jane@gmial.com', 'rate_limited'],
		]);
	});

	it('names the workflow and the node when an example is broken', async () => {
		const broken = loadExample('scheduled-lead-pull-to-crm.json');
		broken.id = 'BrokenLeadPull01';
		broken.name = 'Broken lead pull';
		// Without the Data Table nodes, which `n8n execute` cannot run, and the schedule it would start from.
		broken.nodes = broken.nodes.filter(
			(n: any) => !n.type.endsWith('.dataTable') && !n.type.endsWith('.scheduleTrigger'),
		);
		broken.connections = {
			'Try it now': { main: [[{ node: 'Fetch Leads', type: 'main', index: 0 }]] },
		};
		const fetch = broken.nodes.find((n: any) => n.name === 'Fetch Leads');
		// A misspelt parameter name: n8n drops it, then refuses the workflow without naming the node.
		fetch.parameters.nich = fetch.parameters.niche;
		delete fetch.parameters.niche;
		expect(() => checkParameters(broken)).toThrow(
			'Workflow "Broken lead pull": node "Fetch Leads": unknown parameter "nich"',
		);
		expect(() => checkParameters(broken)).toThrow(
			'node "Fetch Leads": required parameter "niche" is not set',
		);

		// A value the service refuses: the run fails at the node, and the report names both.
		fetch.parameters.niche = 'dentist';
		fetch.parameters.city = 'Atlantis';
		delete fetch.parameters.nich;
		checkParameters(broken);
		await stack.app.importWorkflow(broken);
		const result = await stack.app.execute(broken.id);
		expect(result.status).toBe('error');
		expect(() => expectSuccess(broken.name, result)).toThrow(
			/^Workflow "Broken lead pull" failed at node "Fetch Leads": City 'Atlantis' could not be resolved/,
		);
	});
});
