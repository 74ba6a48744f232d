import { type N8nApp, VERSIONS } from './n8n-app.cjs';
import {
	checkParameters,
	type Execution,
	executionList,
	executionsOf,
	finished,
	loadExample,
	runInEditor,
	type Stack,
	startStack,
	waitFor,
} from './support.cjs';

/**
 * The two lead-pull examples write into n8n's Data Table, which only a started n8n can reach
 * (`n8n execute` does not load n8n's modules). Both run here by hand, as the editor runs them, and
 * the scheduled lead pull (examples/scheduled-lead-pull-to-crm.json) also published in the real n8n
 * apps, both versions side by side, its schedule shortened from every morning to every 20 seconds:
 * each run must bring new leads from the same niche and city, charge exactly what it adds, and
 * leave each lead once in the n8n Data Table. A run that starts after the one before it ended
 * starts from the depth the workflow's static data remembers, which n8n saves only for a published
 * workflow. (n8n's schedule does not wait for a run to end: on a busy machine a run can take longer
 * than the 20 s, and the next one then starts before the depth is saved, from the top, its leads
 * new all the same.)
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
	/** The published workflow's executions (the manual runs below are of other workflows). */
	executions(): Promise<Execution[]>;
	/** The account before the workflow was published. */
	before: { credits: number; contactCount: number };
}

async function start(target: (typeof VERSIONS)[number]): Promise<Running> {
	const stack = await startStack(target);
	const before = (await stack.server.admin('GET', `/accounts/${stack.account.accountId}`)).body;
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
		before,
	};
}

/** Whether a run began after the one before it had ended, its memory saved (a second's margin). */
const startedAfter = (run: Execution, before: Execution): boolean =>
	before.stoppedAt !== undefined &&
	Date.parse(run.startedAt) >= Date.parse(before.stoppedAt) + 1000;

/** Successful runs, oldest first. */
const inOrder = (executions: Execution[]): Execution[] =>
	executions
		.filter((e) => e.status === 'success')
		.sort((a, b) => a.startedAt.localeCompare(b.startedAt));

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
	}, 15 * MINUTE);
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
					const { before } = running;
					// At least RUNS runs, one of them started after the one before it had ended.
					await waitFor(
						`${RUNS} scheduled runs in n8n ${version}, one begun after the run before it ended`,
						async () => {
							const done = inOrder(await running.executions());
							return done.length >= RUNS &&
								done.some((run, k) => k > 0 && startedAfter(run, done[k - 1]))
								? true
								: undefined;
						},
						5 * MINUTE,
					);
					// Later runs are refused (401, nothing charged), so the account stops moving.
					await stack.server.admin('PATCH', `/accounts/${stack.account.accountId}`, {
						active: false,
					});
					// A run in flight may still charge: the account is read once none is running.
					await waitFor(
						`the runs in flight to end in n8n ${version}`,
						async () =>
							(await executionList(rest, running.workflow.id)).every(finished) ? true : undefined,
						MINUTE,
					);
					const after = await account();
					const runs = inOrder(await running.executions());
					expect([version, runs.length >= RUNS, runs.every((e) => e.mode === 'trigger')]).toEqual([
						version,
						true,
						true,
					]);

					const seen = new Set<string>();
					let saved = 0;
					let charged = 0;
					for (const [k, run] of runs.entries()) {
						const leads = run.items('Fetch Leads');
						// The number wanted every run, each with an email, none seen in an earlier run.
						expect([version, k, leads.length]).toEqual([version, k, WANTED]);
						for (const lead of leads) {
							expect([version, lead.email]).toEqual([version, expect.stringMatching(/@/)]);
							expect([version, lead.email, seen.has(lead.email)]).toEqual([
								version,
								lead.email,
								false,
							]);
							seen.add(lead.email);
						}
						expect(run.items('Save to Leads table')).toHaveLength(leads.length);
						saved += leads.length;
						const [spent, climb] = run.hints('Fetch Leads');
						// Leads without an email are charged too: at least the number wanted.
						const credits = Number(/^Charged (\d+) credits for (\d+) new leads/.exec(spent)?.[1]);
						expect([version, credits >= WANTED]).toEqual([version, true]);
						charged += credits;
						expect(climb).toMatch(
							new RegExp(`^New leads with an email: ${WANTED} of ${WANTED} wanted`),
						);
						// A run begun after the one before it ended: the depth remembered in static data
						// spares the climb.
						if (k > 0 && startedAfter(run, runs[k - 1]))
							expect([version, climb]).toEqual([
								version,
								expect.stringContaining('taken by earlier runs'),
							]);
					}
					// Charged exactly what was added, as the hints said: one credit per new contact.
					expect([version, before.credits - after.credits]).toEqual([version, charged]);
					expect([version, after.contactCount - before.contactCount]).toEqual([version, charged]);
					// Each lead once in the Data Table (upsert by email).
					const rows = await tableRows(rest, 'Leads');
					const emails = rows.map((r) => r.email);
					expect([version, emails.length, new Set(emails).size]).toEqual([version, saved, saved]);
					expect([version, new Set(emails)]).toEqual([version, seen]);
				}),
			);
		},
		8 * MINUTE,
	);

	test(
		'run by hand as imported: new leads each run, Simplified, saved once with their search',
		async () => {
			await Promise.all(
				apps.map(async ({ stack, rest }, n) => {
					const version = VERSIONS[n].version;
					// A second account: the published workflow's account is switched off by the test above.
					const { apiKey, accountId } = await stack.server.newAccount({ credits: 1000 });
					await stack.app.importCredentials([
						{
							id: 'leadInboxByHand01',
							name: 'Lead Inbox (by hand)',
							type: 'leadInboxApi',
							data: {
								apiKey,
								leadsBaseUrl: stack.server.url,
								inboxBaseUrl: `${stack.server.url}/api/v1`,
							},
						},
					]);
					const byHand = (file: string, id: string) => {
						const workflow = loadExample(file);
						workflow.id = id;
						for (const node of workflow.nodes)
							if (node.credentials?.leadInboxApi)
								node.credentials.leadInboxApi = {
									id: 'leadInboxByHand01',
									name: 'Lead Inbox (by hand)',
								};
						checkParameters(workflow);
						return workflow;
					};
					const pull = byHand('scheduled-lead-pull-to-crm.json', 'LeadPullByHand01');
					const cities = byHand('scheduled-lead-pull-city-by-city.json', 'CityPullByHand01');
					await stack.app.importWorkflow(pull);
					await stack.app.importWorkflow(cities);

					const emails = new Set<string>();
					for (const attempt of [1, 2]) {
						const run = await runInEditor(rest, version, pull.id, 'Try it now');
						expect([version, attempt, run.status]).toEqual([version, attempt, 'success']);
						const leads = run.items('Fetch Leads');
						expect([version, attempt, leads.length]).toEqual([version, attempt, 25]);
						for (const lead of leads) {
							expect(Object.keys(lead)).toEqual([
								'name',
								'email',
								'phone',
								'website',
								'address',
								'categories',
								'socialProfiles',
								'runsMetaAds',
								'runsTikTokAds',
								'usesGoogleAnalytics',
							]);
							expect(lead.runsMetaAds).toBe(true);
							expect([version, lead.email, emails.has(lead.email)]).toEqual([
								version,
								lead.email,
								false,
							]);
							emails.add(lead.email);
						}
						expect(run.items('Save to Leads table').map((row) => [row.email, row.source])).toEqual(
							leads.map((lead) => [lead.email, 'Lead Inbox: dentist in Austin, TX']),
						);
					}

					const run = await runInEditor(rest, version, cities.id, 'Try it now');
					expect([version, run.status]).toEqual([version, 'success']);
					const bySource = new Map<string, number>();
					for (const row of run.items('Save to Leads table'))
						bySource.set(row.source, (bySource.get(row.source) ?? 0) + 1);
					expect([version, [...bySource.keys()]]).toEqual([
						version,
						[
							'Lead Inbox: dentist in Austin, TX',
							'Lead Inbox: dentist in Denver',
							'Lead Inbox: chiropractor in Austin, TX',
						],
					]);
					expect([version, [...bySource.values()]]).toEqual([version, [10, 10, 10]]);
					// 25 + 25 + 3 x 10 leads with an email, and those without charged on top.
					const account = (await stack.server.admin('GET', `/accounts/${accountId}`)).body;
					expect([version, account.contactCount >= 80]).toEqual([version, true]);
					expect([version, account.credits]).toEqual([version, 1000 - account.contactCount]);
				}),
			);
		},
		5 * MINUTE,
	);
});
