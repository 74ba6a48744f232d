import { type N8nApp, VERSIONS } from './n8n-app.cjs';
import {
	checkParameters,
	type Execution,
	executionsOf,
	loadExample,
	type Stack,
	startStack,
	waitFor,
} from './support.cjs';

/**
 * The scheduled lead pull (examples/scheduled-lead-pull-to-crm.json) published in the real n8n
 * apps, both versions side by side, its schedule shortened from every morning to every 20 seconds:
 * each run must bring new leads from the same niche and city, charge exactly what it adds, and
 * leave each lead once in the n8n Data Table. Runs after the first start from the depth the
 * workflow's static data remembers, which n8n saves only for a published workflow.
 */
const OWNER = { email: 'owner@lead-inbox.test', password: 'Lead-Inbox-e2e-1' };
const MINUTE = 60_000;
const RUNS = 3;
const WANTED = 25;

type Rest = Awaited<ReturnType<N8nApp['signInOwner']>>;

interface Running {
	stack: Stack;
	rest: Rest;
	workflow: any;
	executions(): Promise<Execution[]>;
}

async function start(target: (typeof VERSIONS)[number]): Promise<Running> {
	const stack = await startStack(target);
	const workflow = loadExample('scheduled-lead-pull-to-crm.json');
	const schedule = workflow.nodes.find((n: any) => n.type === 'n8n-nodes-base.scheduleTrigger');
	schedule.parameters.rule.interval = [{ field: 'seconds', secondsInterval: 20 }];
	checkParameters(workflow);
	await stack.app.importWorkflow(workflow);
	await stack.app.cli(['publish:workflow', `--id=${workflow.id}`]);
	await stack.app.start();
	const rest = await stack.app.signInOwner(OWNER);
	return {
		stack,
		rest,
		workflow,
		executions: async () => await executionsOf(rest, target.version, workflow.id),
	};
}

/** The rows of the Data Table named `name`, through n8n's REST API. */
async function tableRows(rest: Rest, name: string): Promise<any[]> {
	const tables = (await rest('GET', '/data-tables-global')).body.data;
	const table = (tables.data ?? tables).find((t: any) => t.name === name);
	if (!table) throw new Error(`no Data Table named ${name}`);
	const rows = await rest(
		'GET',
		`/projects/${table.projectId}/data-tables/${table.id}/rows?take=1000`,
	);
	return rows.body.data.data ?? rows.body.data;
}

describe('the scheduled lead pull published in the real n8n apps', () => {
	const apps: Running[] = [];

	beforeAll(async () => {
		apps.push(...(await Promise.all(VERSIONS.map(start))));
	}, 5 * MINUTE);
	afterAll(async () => {
		await Promise.all(
			apps.map(async ({ stack }) => {
				await stack.app.stop();
				await stack.server.close();
			}),
		);
	});

	test(
		`${RUNS} scheduled runs: new leads each time, charged exactly, each once in the Data Table`,
		async () => {
			await Promise.all(
				apps.map(async (running, n) => {
					const { stack, rest } = running;
					const version = VERSIONS[n].version;
					const account = () =>
						stack.server.admin('GET', `/accounts/${stack.account.accountId}`).then((r) => r.body);
					const before = await account();
					await waitFor(
						`${RUNS} scheduled runs in n8n ${version}`,
						async () => ((await running.executions()).length >= RUNS ? true : undefined),
						3 * MINUTE,
					);
					// Later runs are refused (401, nothing charged), so the account stops moving.
					await stack.server.admin('PATCH', `/accounts/${stack.account.accountId}`, {
						active: false,
					});
					await new Promise((resolve) => setTimeout(resolve, 5000));
					const after = await account();
					const runs = (await running.executions())
						.filter((e) => e.status === 'success')
						.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
					expect([version, runs.length >= RUNS, runs.every((e) => e.mode === 'trigger')]).toEqual([
						version,
						true,
						true,
					]);

					const seen = new Set<string>();
					let saved = 0;
					for (const [k, run] of runs.entries()) {
						const leads = run.items('Fetch Leads');
						// New leads every run: none seen in an earlier run.
						expect([version, k, leads.length > 0]).toEqual([version, k, true]);
						for (const lead of leads) {
							expect([version, lead.email, seen.has(lead.email)]).toEqual([
								version,
								lead.email,
								false,
							]);
							seen.add(lead.email);
						}
						expect(run.items('Save to Leads table')).toHaveLength(leads.length);
						saved += leads.length;
						const [charged, climb] = run.hints('Fetch Leads');
						expect(charged).toMatch(new RegExp(`^Charged ${WANTED} credits for \\d+ new leads`));
						expect(climb).toMatch(new RegExp(`^New leads: ${WANTED} of ${WANTED} wanted`));
						// From the second run on, the depth remembered in static data spares the climb.
						if (k > 0)
							expect([version, climb]).toEqual([
								version,
								expect.stringContaining('taken by earlier runs'),
							]);
					}
					// Charged exactly what was added: one credit per new contact, 25 a run.
					expect([version, before.credits - after.credits]).toEqual([
						version,
						WANTED * runs.length,
					]);
					expect([version, after.contactCount - before.contactCount]).toEqual([
						version,
						WANTED * runs.length,
					]);
					// Each lead once in the Data Table (upsert by email).
					const rows = await tableRows(rest, 'Leads');
					const emails = rows.map((r) => r.email);
					expect([version, emails.length, new Set(emails).size]).toEqual([version, saved, saved]);
					expect([version, new Set(emails)]).toEqual([version, seen]);
				}),
			);
		},
		6 * MINUTE,
	);
});
