import {
	readersOf,
	requestFieldsRead,
	timeReaders,
} from '../../n8n-testkit/src/workflow/reads.cjs';
import type { Workflow } from '../../n8n-testkit/src/workflow/workflow.cjs';

/**
 * What `test init` reads of a workflow: the request fields a Webhook's workflow uses (its first
 * request is filled from them), which nodes read a stubbed node's answer (where its advice goes)
 * and which read the time (its file then fixes the clock).
 */
const node = (name: string, type: string, parameters: Record<string, unknown> = {}) => ({
	name,
	type: `n8n-nodes-base.${type}`,
	parameters,
});
const WORKFLOW: Workflow = {
	nodes: [
		node('Lead request', 'webhook', { httpMethod: 'POST' }),
		node('Search', 'set', {
			niche: '={{ $json.body.niche }}',
			city: "={{ $json['body']['city'] }}",
			page: '={{ $json.query.page }}',
		}),
		node('Later', 'set', { count: "={{ $('Lead request').item.json.body.count }}" }),
		node('Gmail', 'gmail', { sendTo: '={{ $json.email }}' }),
		node('Answer', 'respondToWebhook', {}),
		node('Log', 'set', { sent: '={{ $("Slack").first().json.ok }}' }),
		node('Slack', 'slack', {}),
		node('Done', 'noOp', {}),
	],
	connections: {
		'Lead request': { main: [[{ node: 'Search', type: 'main', index: 0 }]] },
		Search: { main: [[{ node: 'Later', type: 'main', index: 0 }]] },
		Later: { main: [[{ node: 'Gmail', type: 'main', index: 0 }]] },
		Gmail: { main: [[{ node: 'Answer', type: 'main', index: 0 }]] },
		Slack: { main: [[{ node: 'Done', type: 'main', index: 0 }]] },
	},
};

it('finds the request fields a Webhook workflow reads, after the Webhook and by its name', () => {
	expect(requestFieldsRead(WORKFLOW, WORKFLOW.nodes[0])).toEqual({
		body: ['niche', 'city', 'count'],
		query: ['page'],
	});
});

it("finds what a Wait's resume request is read for, through an If and with optional chaining", () => {
	const workflow: Workflow = {
		nodes: [
			node('Wait for a reply', 'wait', { resume: 'webhook', httpMethod: 'POST' }),
			node('Replied?', 'if', { conditions: { leftValue: '={{ $json.body?.reply }}' } }),
			node('Stop', 'set', { reply: '={{ $json.body.reply }}', from: '={{ $json.query?.from }}' }),
		],
		connections: {
			'Wait for a reply': { main: [[{ node: 'Replied?', type: 'main', index: 0 }]] },
			'Replied?': { main: [[{ node: 'Stop', type: 'main', index: 0 }]] },
		},
	};
	expect(requestFieldsRead(workflow, workflow.nodes[0])).toEqual({
		body: ['reply'],
		query: ['from'],
	});
});

it("finds the nodes that read a node's answer: by $json right after it, a Respond to Webhook, or by name", () => {
	const named = (name: string) => WORKFLOW.nodes.find((n) => n.name === name)!;
	// Respond to Webhook answers with the items Gmail hands on, without an expression.
	expect(readersOf(WORKFLOW, named('Gmail'))).toEqual(['Answer']);
	expect(readersOf(WORKFLOW, named('Slack'))).toEqual(['Log']);
	// "Later" reads the Webhook's request by name, not what Search hands on: no advice there.
	expect(readersOf(WORKFLOW, named('Search'))).toEqual([]);
	expect(readersOf(WORKFLOW, named('Later'))).toEqual(['Gmail']);
	expect(readersOf(WORKFLOW, named('Done'))).toEqual([]);
});

it('follows the data through nodes that hand on what they receive: Wait, No Operation, If, Filter, Switch, Sort, Limit, Loop Over Items', () => {
	const via = (...types: string[]): Workflow => {
		const names = ['Email 2', ...types.map((t, i) => `${t} ${i}`), 'Email 3'];
		return {
			nodes: [
				node('Email 2', 'gmail', {}),
				...types.map((t, i) => node(`${t} ${i}`, t, {})),
				node('Email 3', 'gmail', { sendTo: '={{ $json.email }}' }),
			],
			connections: Object.fromEntries(
				names.slice(0, -1).map((name, i) => [
					name,
					// The second output of a branching node (If's false, a Switch's, the loop's).
					{
						main: i
							? [[], [{ node: names[i + 1], type: 'main', index: 0 }]]
							: [[{ node: names[1], type: 'main', index: 0 }]],
					},
				]),
			),
		};
	};
	const email2 = (w: Workflow) => w.nodes[0];
	for (const types of [
		['wait'],
		['noOp', 'if'],
		['filter', 'switch'],
		['sort', 'limit', 'splitInBatches'],
	]) {
		const workflow = via(...types);
		expect([types, readersOf(workflow, email2(workflow))]).toEqual([types, ['Email 3']]);
	}
	// A node that makes items of its own (a Set, an HTTP call) ends the trail.
	const set = via('set');
	expect(readersOf(set, email2(set))).toEqual([]);
});

it('finds the nodes that read the time: a schedule, a Wait, Date & Time, "now" in an expression or code', () => {
	const timed: Workflow = {
		nodes: [
			node('Every Monday', 'scheduleTrigger', {}),
			node('Stamp', 'set', { at: '={{ $now.toISO() }}' }),
			node('Today', 'set', { day: '={{ $today.weekday }}' }),
			node('Code', 'code', { jsCode: 'return [{ json: { t: Date.now() } }];' }),
			node('Luxon', 'code', { jsCode: 'const d = DateTime.now();' }),
			node('Wait 3 days', 'wait', { amount: 3, unit: 'days' }),
			node('Current date', 'dateTime', { operation: 'getCurrentDate' }),
			// A date given, not read from the clock; a field named like one; a disabled reader.
			node('Parse', 'code', { jsCode: "return [{ json: { d: new Date('2027-01-01') } }];" }),
			node('Names', 'set', { nowhere: '={{ $json.nowPlaying }}' }),
			{ ...node('Off', 'set', { at: '={{ $now }}' }), disabled: true },
		],
		connections: {},
	};
	expect(timeReaders(timed)).toEqual([
		'Every Monday',
		'Stamp',
		'Today',
		'Code',
		'Luxon',
		'Wait 3 days',
		'Current date',
	]);
	expect(timeReaders(WORKFLOW)).toEqual([]);
});
