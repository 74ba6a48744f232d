import { ALL_LINES, type N8nApp } from './n8n-app.cjs';
import {
	checkParameters,
	createOutreachInboxes,
	type Execution,
	executionList,
	executionsOf,
	loadExample,
	type Stack,
	startStack,
	waitFor,
} from './support.cjs';

/**
 * The Lead Inbox Trigger in the real n8n apps, both versions side by side: the example workflow
 * (examples/inbox-error-alert.json) published and polling every minute, as n8n schedules it, and
 * "Fetch Test Event" through n8n's REST API, as the editor asks for it.
 */
const OWNER = { email: 'owner@lead-inbox.test', password: 'Lead-Inbox-e2e-1' };
const TRIGGER = 'Lead Inbox Trigger';
const MINUTE = 60_000;

interface Running {
	stack: Stack;
	rest: Awaited<ReturnType<N8nApp['signInOwner']>>;
	workflow: any;
	/** The inbox service's GET /inboxes answers so far: one per check (the account has < 1000). */
	checks(): Promise<number>;
	/** Resolves once a check beyond the first `count` has been made. */
	checkAfter(count: number, what: string, ms: number): Promise<void>;
	/** Finished executions of the workflow, newest first, with their data parsed. */
	executions(): Promise<Execution[]>;
	/** Every execution of the workflow n8n has started, finished or not. */
	started(): Promise<number>;
}

async function start(target: (typeof ALL_LINES)[number]): Promise<Running> {
	const stack = await startStack(target);
	const { server, app } = stack;
	await createOutreachInboxes(stack);
	const workflow = loadExample('inbox-error-alert.json');
	checkParameters(workflow);
	await app.importWorkflow(workflow);
	await app.publish(workflow.id);
	await app.start();
	const rest = await app.signInOwner(OWNER);
	const checks = async () =>
		(await server.admin('GET', '/requests?method=GET&path=/api/v1/inboxes')).body.requests.length;
	return {
		stack,
		rest,
		workflow,
		checks,
		checkAfter: async (count, what, ms) => {
			await waitFor(what, async () => ((await checks()) > count ? true : undefined), ms);
		},
		executions: async () => await executionsOf(rest, target.version, workflow.id),
		started: async () => (await executionList(rest, workflow.id)).length,
	};
}

describe('Lead Inbox Trigger in the real n8n apps', () => {
	const apps: Running[] = [];

	// Three n8n apps starting at once: bounded for a loaded 2-core machine (a hang, not a speed claim).
	beforeAll(async () => {
		apps.push(...(await Promise.all(ALL_LINES.map(start))));
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
		'published, polling every minute: nothing on the first check or without a change, one item per status change',
		async () => {
			await Promise.all(
				apps.map(async (running, n) => {
					const { stack } = running;
					const version = ALL_LINES[n].version;
					// The check n8n makes when it publishes the workflow records the three inboxes...
					await running.checkAfter(0, 'the first check', 3 * MINUTE);
					// ...and a scheduled check a minute later finds nothing new.
					await running.checkAfter(await running.checks(), 'a scheduled check', 4 * MINUTE);
					expect([version, await running.executions()]).toEqual([version, []]);

					const changed = await stack.server.admin(
						'PATCH',
						`/accounts/${stack.account.accountId}/inboxes/alex@gmail.com`,
						{ status: 'error' },
					);
					expect(changed.status).toBe(200);
					const [execution] = await waitFor(
						'the execution of the change',
						async () => {
							const runs = await running.executions();
							return runs.length ? runs : undefined;
						},
						2 * MINUTE + 30_000,
					);
					expect([version, execution.mode]).toEqual([version, 'trigger']);
					expect(execution.items(TRIGGER)).toEqual([
						expect.objectContaining({
							event: 'inboxStatusChanged',
							id: changed.body.id,
							emailAddress: 'alex@gmail.com',
							poolName: 'Outreach',
							previousStatus: 'active',
							status: 'error',
						}),
					]);
					expect(execution.items('Compose alert')).toEqual([
						expect.objectContaining({
							message: expect.stringMatching(
								/^Inbox alex@gmail\.com in pool "Outreach" went from active to error \(seen /,
							),
							pool: 'Outreach',
						}),
					]);

					// The next check sees the same statuses: no second execution. One check at a time
					// (the node's rule), so once the check after it has begun, the next one has ended,
					// and an execution it started would be listed.
					const after = await running.checks();
					await running.checkAfter(after + 1, 'the check after the next one', 6 * MINUTE);
					expect([version, await running.started()]).toEqual([version, 1]);
					console.log(
						`n8n ${version}: ${await running.checks()} checks of the published trigger, 1 execution (the status change)`,
					);
				}),
			);
		},
		20 * MINUTE,
	);

	test(
		'Fetch Test Event through the REST API returns a real inbox as an example',
		async () => {
			await Promise.all(
				apps.map(async (running, n) => {
					const version = ALL_LINES[n].version;
					const { workflow, rest } = running;
					const stored = (await rest('GET', `/workflows/${workflow.id}`)).body.data;
					// What the editor sends for "Fetch Test Event" (2.8.4 reads workflowData, 2.40.7 the stored workflow).
					const started = await rest('POST', `/workflows/${workflow.id}/run`, {
						workflowData: stored,
						triggerToStartFrom: { name: TRIGGER },
						destinationNode: { nodeName: TRIGGER, mode: 'inclusive' },
					});
					expect([version, started.status]).toEqual([version, 200]);
					const executionId = String(started.body.data.executionId);
					const manual = await waitFor(
						'the manual execution',
						async () => (await running.executions()).find((e) => e.id === executionId),
						MINUTE,
					);
					expect([version, manual.mode]).toEqual([version, 'manual']);
					// The inbox in error is the one that matches the trigger's New Status.
					expect(manual.items(TRIGGER)).toEqual([
						expect.objectContaining({
							event: 'inboxStatusChanged',
							emailAddress: 'alex@gmail.com',
							status: 'error',
							previousStatus: null,
							poolName: 'Outreach',
						}),
					]);
				}),
			);
		},
		3 * MINUTE,
	);

	test(
		'an empty list from a glitching service: one failed execution that says so, then only the real change',
		async () => {
			await Promise.all(
				apps.map(async (running, n) => {
					const { stack } = running;
					const version = ALL_LINES[n].version;
					const known = new Set((await running.executions()).map((e) => e.id));
					const news = async () => (await running.executions()).filter((e) => !known.has(e.id));
					// The next GET /inboxes answers 200 with an empty list, as a replica behind would...
					const empty = {
						inboxes: [],
						pagination: { total: 0, limit: 1000, skip: 0, hasMore: false },
					};
					const armed = await stack.server.admin('POST', '/faults', {
						route: 'GET /api/v1/inboxes',
						status: 200,
						body: empty,
					});
					expect(armed.status).toBe(200);
					// ...while an inbox really goes to error.
					const changed = await stack.server.admin(
						'PATCH',
						`/accounts/${stack.account.accountId}/inboxes/kim@yahoo.com`,
						{ status: 'error' },
					);
					expect(changed.status).toBe(200);
					const runs = await waitFor(
						'the failed check and the execution of the change',
						async () => {
							const seen = await news();
							return seen.length >= 2 ? seen : undefined;
						},
						3 * MINUTE + 30_000,
					);
					const [change, glitch] = runs; // newest first
					expect([version, glitch.status, glitch.error]).toEqual([
						version,
						'error',
						'The inbox service listed 0 of the 3 inboxes this trigger follows: it cannot tell an outage from a removal',
					]);
					expect([version, change.status]).toEqual([version, 'success']);
					expect(change.items(TRIGGER)).toEqual([
						expect.objectContaining({
							emailAddress: 'kim@yahoo.com',
							previousStatus: 'active',
							status: 'error',
						}),
					]);
					// The next check finds the list whole and nothing new: nothing announced twice (as
					// above: once the check after it has begun, the next one has ended).
					await running.checkAfter(
						(await running.checks()) + 1,
						'the check after the next one',
						3 * MINUTE,
					);
					expect([version, (await running.started()) - known.size]).toEqual([version, 2]);
				}),
			);
		},
		7 * MINUTE,
	);
});
