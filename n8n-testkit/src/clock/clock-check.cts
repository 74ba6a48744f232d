/**
 * Proof, each time the runner starts an n8n, that the test clock reaches every reader of "now" the
 * runner claims it does: an expression's $now and $today (n8n's expression engine of that line),
 * the Date & Time node's current date, a Code node's Date.now(), new Date() and DateTime.now()
 * (n8n's task runner, or 1.x's sandbox), and a Wait of three days, passed at once, after which a
 * Code node reads three days later. A reader left on this machine's time fails the start, naming
 * it: a test must never pass or fail on the day it runs.
 */
import { executionList, type Flatted, finished, readExecution } from '../n8n/executions.cjs';
import { n8nFetch, type Rest, until } from '../n8n/rest.cjs';
import type { ClockControl } from './clock-control.cjs';
import { TimeWaits } from './time-waits.cjs';

/** Far from any machine's time, so a reader left on it cannot pass by chance. */
const CHECK_AT = Date.parse('2031-05-06T07:08:09Z');
const DAY = 86_400_000;
/** How far a reading may be past the instant set: the seconds the check itself takes, and more. */
const SLACK_MS = 10 * 60_000;

/** The readers of the check workflow, as a failure names them. */
const READERS: Record<string, string> = {
	Expression: 'an expression',
	'Date & Time': 'the Date & Time node',
	Code: 'a Code node',
	'After the wait': 'a Code node after a Wait of 3 days',
};

const READ_IN_CODE =
	'return [{ json: { "Date.now()": Date.now(), "new Date()": new Date().getTime(), "DateTime.now()": DateTime.now().toMillis() } }];';

function checkWorkflow(path: string) {
	const at = (x: number) => [x, 0];
	return {
		name: 'Lead Inbox runner: clock check',
		active: false,
		settings: { executionOrder: 'v1' },
		nodes: [
			{
				name: 'Start',
				type: 'n8n-nodes-base.webhook',
				typeVersion: 2,
				position: at(0),
				webhookId: '7c10c4ec-0000-4000-8000-00000000c10c',
				parameters: { httpMethod: 'POST', path, options: {} },
			},
			{
				name: 'Expression',
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: at(200),
				parameters: {
					assignments: {
						assignments: [
							{ id: 'n', name: '$now', value: '={{ $now.toMillis() }}', type: 'number' },
							{ id: 't', name: '$today', value: '={{ $today.toMillis() }}', type: 'number' },
						],
					},
					options: {},
				},
			},
			{
				name: 'Date & Time',
				type: 'n8n-nodes-base.dateTime',
				typeVersion: 2,
				position: at(300),
				parameters: { operation: 'getCurrentDate', outputFieldName: 'current date', options: {} },
			},
			{
				name: 'Code',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: at(400),
				parameters: { jsCode: READ_IN_CODE },
			},
			{
				name: 'Wait',
				type: 'n8n-nodes-base.wait',
				typeVersion: 1.1,
				position: at(600),
				webhookId: '7c10c4ec-0000-4000-8000-00000000c10d',
				parameters: { amount: 3, unit: 'days' },
			},
			{
				name: 'After the wait',
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: at(800),
				parameters: { jsCode: READ_IN_CODE },
			},
		],
		connections: Object.fromEntries(
			[
				['Start', 'Expression'],
				['Expression', 'Date & Time'],
				['Date & Time', 'Code'],
				['Code', 'Wait'],
				['Wait', 'After the wait'],
			].map(([from, to]) => [from, { main: [[{ node: to, type: 'main', index: 0 }]] }]),
		),
	};
}

export async function checkClock(n8n: {
	version: string;
	url: string;
	rest: Rest;
	flatted: Flatted;
	clock: ClockControl;
}): Promise<void> {
	const { rest, clock } = n8n;
	await clock.connected('main');
	const path = `lead-inbox-clock-check-${process.pid}`;
	const created = await rest('POST', '/workflows', checkWorkflow(path));
	if (created.status !== 200)
		throw new Error(`n8n refused the clock check: ${JSON.stringify(created.body).slice(0, 500)}`);
	const { id, versionId } = (created.body as { data: { id: string; versionId?: string } }).data;
	const activated = await rest('POST', `/workflows/${id}/activate`, { versionId });
	if (activated.status !== 200)
		throw new Error(`n8n did not publish the clock check: ${JSON.stringify(activated.body)}`);
	try {
		await clock.set(CHECK_AT);
		await until(
			async () =>
				(
					await n8nFetch(`${n8n.url}/webhook/${path}`, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: '{}',
					})
				).status !== 404,
			120_000,
			"n8n to register the clock check's webhook",
			200,
		);
		const waits = new TimeWaits(n8n, clock, () => [String(id)]);
		let ended: { id: string | number } | undefined;
		await until(
			async () => {
				ended = (await executionList(rest, String(id))).find(finished);
				if (ended) return true;
				await waits.moveOn();
				return false;
			},
			120_000,
			'the clock check to run',
			100,
		);
		const execution = await readExecution(rest, n8n.flatted, String(ended!.id));
		const read = (node: string) => execution.items(node)[0] ?? {};
		const off: string[] = [];
		const expect = (node: string, at: number, fields: Record<string, unknown>) => {
			for (const [reader, value] of Object.entries(fields)) {
				const day = reader === '$today' ? Math.floor(at / DAY) * DAY : undefined;
				const read = typeof value === 'string' ? Date.parse(value) : value;
				const ok =
					typeof read === 'number' &&
					(day !== undefined ? read === day : read >= at && read < at + SLACK_MS);
				if (!ok)
					off.push(
						`${READERS[node]}'s ${reader} (read ${typeof read === 'number' && !Number.isNaN(read) ? new Date(read).toISOString() : JSON.stringify(value)}, the clock was ${new Date(day ?? at).toISOString()})`,
					);
			}
		};
		if (execution.status !== 'success')
			throw new Error(`the clock check failed in n8n: ${execution.error ?? execution.status}`);
		expect('Expression', CHECK_AT, read('Expression'));
		expect('Date & Time', CHECK_AT, { 'current date': read('Date & Time')['current date'] });
		expect('Code', CHECK_AT, read('Code'));
		expect('After the wait', CHECK_AT + 3 * DAY, read('After the wait'));
		const main = await clock.connected('main');
		if (!main.waitNode)
			off.push(
				"the Wait node's short waits (its code was not recognised: a Wait under 65 s would hold a run for its real length)",
			);
		if (!waits.skips.length) off.push('a Wait of 3 days (it was not moved past)');
		if (off.length)
			throw new Error(
				`the test clock does not reach, in n8n ${n8n.version}: ${off.join('; ')}. Tests of time would pass or fail on this machine's time: report it, naming the n8n version`,
			);
	} finally {
		await rest('POST', `/workflows/${id}/deactivate`, {});
		await clock.set(Date.now());
	}
}
