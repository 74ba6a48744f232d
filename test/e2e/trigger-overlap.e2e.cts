import { ALL_LINES } from './n8n-app.cjs';
import { checkParameters, executionsOf, loadExample, startStack, waitFor } from './support.cjs';

/**
 * A published Lead Inbox Trigger whose check outlasts the interval between checks, in the real n8n
 * apps: n8n starts a poll on every tick without waiting for the previous one, so without the
 * node's one-check-at-a-time rule the tick during a slow check reports the same change as the
 * slow check does. Checks every 10 s (custom cron, as a user sets it in Poll Times); one listing
 * held 25 s by the reference server's route fault; the change happens while it is held.
 */
const OWNER = { email: 'owner@lead-inbox.test', password: 'Lead-Inbox-e2e-1' };
const TRIGGER = 'Lead Inbox Trigger';
const MINUTE = 60_000;
const EVERY_10_SECONDS = '0,10,20,30,40,50 * * * * *';
const HELD_MS = 25_000;

describe('Lead Inbox Trigger checks that outlast the interval, in the real n8n apps', () => {
	const stops: Array<() => Promise<void>> = [];
	afterAll(async () => {
		await Promise.all(stops.map((stop) => stop()));
	});

	test(
		'one execution per change, no check beside another, the skipped ticks said in n8n’s log',
		async () => {
			await Promise.all(
				ALL_LINES.map(async (target) => {
					const { version } = target;
					const { app, server, account } = await startStack(target);
					stops.push(async () => {
						await app.stop();
						await server.close();
					});
					const created = await server.call('POST', '/api/v1/inboxes?poolName=Outreach', {
						key: account.apiKey,
						body: ['sam@gmail.com', 'alex@gmail.com', 'kim@yahoo.com'].map((emailAddress) => ({
							emailAddress,
							imapPassword: 'app-password',
							skipConnectionTest: true,
						})),
					});
					expect(created.body.summary.created).toBe(3);

					const workflow = loadExample('inbox-error-alert.json');
					workflow.id = 'LeadInboxSlowChecks';
					const trigger = workflow.nodes.find((n: any) => n.name === TRIGGER);
					trigger.parameters.pollTimes = {
						item: [{ mode: 'custom', cronExpression: EVERY_10_SECONDS }],
					};
					checkParameters(workflow);
					await app.importWorkflow(workflow);
					await app.publish(workflow.id);
					const main = await app.startProcess(['start'], 'Editor is now accessible');
					const rest = await app.signInOwner(OWNER);
					const listings = async () =>
						(await server.admin('GET', '/requests?method=GET&path=/api/v1/inboxes')).body
							.requests as Array<{ time: string; durationMs: number }>;
					const checksAfter = async (count: number, what: string) =>
						await waitFor(
							`${what} (n8n ${version})`,
							async () => ((await listings()).length > count ? true : undefined),
							MINUTE,
						);

					// The check at publish records the three inboxes; a scheduled one follows.
					await checksAfter(1, 'a scheduled check');
					// The next listing is held 25 s: the check that asks for it outlasts two ticks.
					const armed = await server.admin('POST', '/faults', {
						route: 'GET /api/v1/inboxes',
						times: 1,
						delayMs: HELD_MS,
					});
					expect(armed.status).toBe(200);
					await waitFor(
						`the held listing to be asked for (n8n ${version})`,
						async () =>
							(await server.admin('GET', '/faults')).body.routes.length === 0 ? true : undefined,
						MINUTE,
					);
					// While it is held, an inbox goes to error (the held listing is read after the wait).
					const changed = await server.admin(
						'PATCH',
						`/accounts/${account.accountId}/inboxes/alex@gmail.com`,
						{ status: 'error' },
					);
					expect(changed.status).toBe(200);

					const executions = async () => await executionsOf(rest, version, workflow.id);
					await waitFor(
						`the execution of the change (n8n ${version})`,
						async () => ((await executions()).length ? true : undefined),
						2 * MINUTE,
					);
					// Two more checks after it: the change is not told again.
					const seen = (await listings()).length;
					await checksAfter(seen + 1, 'two more checks');
					// Their executions, had they any, would be saved before the next check starts.
					await checksAfter(seen + 2, 'the check after them');
					const runs = await executions();
					expect([version, runs.length]).toEqual([version, 1]);
					expect(runs[0].items(TRIGGER)).toEqual([
						expect.objectContaining({
							emailAddress: 'alex@gmail.com',
							previousStatus: 'active',
							status: 'error',
						}),
					]);

					// No listing began before the one before it had been answered.
					const spans = (await listings())
						.map((r) => ({ start: Date.parse(r.time), end: Date.parse(r.time) + r.durationMs }))
						.sort((a, b) => a.start - b.start);
					const overlapping = spans.filter((span, i) => i > 0 && span.start < spans[i - 1].end);
					expect([version, overlapping]).toEqual([version, []]);
					expect(spans.some((s) => s.end - s.start >= HELD_MS)).toBe(true);

					// n8n's log says which ticks were skipped, and how long the slow check took.
					expect(main.log).toMatch(
						/Lead Inbox Trigger "Lead Inbox Trigger": a check was skipped, as the previous one is still running/,
					);
					expect(main.log).toMatch(
						/a check took \d+\.\d s, longer than the time between checks \(\d+ skipped meanwhile\)\. Set a longer interval in Poll Times/,
					);
					console.log(
						`n8n ${version}: ${spans.length} checks every 10 s, one held ${HELD_MS / 1000} s; 1 execution; no listing beside another`,
					);
				}),
			);
		},
		6 * MINUTE,
	);
});
