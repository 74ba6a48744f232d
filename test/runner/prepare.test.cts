import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Workflow } from '../../n8n-testkit/src/file/load.cjs';
import { prepareWorkflow } from '../../n8n-testkit/src/workflow/prepare.cjs';
import { sentOf } from '../../n8n-testkit/src/workflow/sent.cjs';
import { findStart } from '../../n8n-testkit/src/workflow/start.cjs';

/**
 * The workflow a case runs: the user's export with only its start, its stubs and its credential
 * changed (that every node of another service is stubbed is the test file's check).
 */
const PROJECT = join(__dirname, '..', 'workflow-tests', 'project', 'workflows');
const load = (name: string): Workflow =>
	JSON.parse(readFileSync(join(PROJECT, `${name}.json`), 'utf8'));
/** The Lead Inbox service's credential, for the package's nodes (as a run's session gives it). */
const serviceCredentials = [
	{
		claims: (type: string) => type.startsWith('n8n-nodes-lead-inbox.'),
		credential: {
			type: 'leadInboxApi',
			id: 'leadInboxTest0001',
			name: 'Lead Inbox (workflow test)',
		},
	},
];
const polls = (type: string) => type === 'n8n-nodes-lead-inbox.leadInboxTrigger';
const prepare = (workflow: Workflow, stubs = {}) => {
	const start = findStart(workflow);
	if (typeof start === 'string') throw new Error(start);
	return prepareWorkflow(workflow, {
		start,
		stubs,
		serviceCredentials,
		polls,
		label: 'test: a case',
	});
};
const byName = (workflow: Workflow, name: string) => workflow.nodes.find((n) => n.name === name)!;

describe('the workflow a case runs', () => {
	it("a Schedule Trigger becomes the runner's webhook and a node of its name handing on the run's items", () => {
		const source = load('dentists-to-hubspot');
		const { workflow, start } = prepare(source, { HubSpot: 'passThrough' });
		expect(start).toEqual({
			kind: 'webhook',
			node: 'Every morning',
			schedule: true,
			webhookPath: expect.stringMatching(/^lead-inbox-test-/),
		});
		expect(byName(workflow, 'Every morning (test start)')).toMatchObject({
			type: 'n8n-nodes-base.webhook',
			parameters: { httpMethod: 'POST', path: start.webhookPath, responseMode: 'onReceived' },
		});
		expect(byName(workflow, 'Every morning')).toMatchObject({
			type: 'n8n-nodes-base.splitOut',
			parameters: { fieldToSplitOut: 'body.items' },
		});
		expect(workflow.connections['Every morning (test start)']).toEqual({
			main: [[{ node: 'Every morning', type: 'main', index: 0 }]],
		});
		// Onward, the workflow is the user's: the start node's connections, Fetch Leads as exported.
		expect(workflow.connections['Every morning']).toEqual(source.connections['Every morning']);
		expect(byName(workflow, 'Fetch Leads').parameters).toEqual(
			byName(source, 'Fetch Leads').parameters,
		);
		expect(workflow.active).toBe(false);
		// Whatever the export keeps of its executions, the test's n8n keeps every one (the checks read them).
		expect(workflow.settings).toMatchObject({
			executionOrder: 'v1',
			saveDataSuccessExecution: 'all',
			saveDataErrorExecution: 'all',
		});
		expect(workflow.id).toBeUndefined();
	});

	it('a Lead Inbox Trigger stays, its own schedule moved where it never fires during a test', () => {
		const { workflow, start } = prepare(load('inbox-alert'));
		expect(start).toEqual({ kind: 'poll', node: 'Inbox broke', schedule: false });
		expect(byName(workflow, 'Inbox broke')).toMatchObject({
			type: 'n8n-nodes-lead-inbox.leadInboxTrigger',
			parameters: {
				event: 'inboxStatusChanged',
				pollTimes: { item: [{ mode: 'custom', cronExpression: '0 0 29 2 *' }] },
			},
		});
	});

	it('stubs: pass-through under the same name, or given items handed on whatever came in', () => {
		const { workflow } = prepare(load('onboard-inboxes'), {
			'Tell the team': { items: [{ ok: true }, { ok: false }] },
		});
		expect(byName(workflow, 'Tell the team')).toMatchObject({
			type: 'n8n-nodes-base.splitOut',
			parameters: { fieldToSplitOut: 'items' },
		});
		expect(byName(workflow, 'Tell the team (test stub items)')).toMatchObject({
			type: 'n8n-nodes-base.set',
			executeOnce: true,
			parameters: { mode: 'raw', jsonOutput: '{"items":[{"ok":true},{"ok":false}]}' },
		});
		// Create Inboxes' Failed output now feeds the holder, which feeds the node of the stub's name.
		expect(workflow.connections['Create Inboxes'].main[1]).toEqual([
			{ node: 'Tell the team (test stub items)', type: 'main', index: 0 },
		]);
		expect(workflow.connections['Tell the team (test stub items)']).toEqual({
			main: [[{ node: 'Tell the team', type: 'main', index: 0 }]],
		});
		const passing = prepare(load('onboard-inboxes'), { 'Tell the team': 'passThrough' }).workflow;
		expect(byName(passing, 'Tell the team')).toMatchObject({ type: 'n8n-nodes-base.noOp' });
	});

	it('a stubbed node whose sent parameters a case reads gets a recorder per expression, fed what the node is fed', () => {
		const source = load('dentists-to-hubspot');
		const { workflow, sent } = prepareWorkflow(source, {
			start: findStart(source) as never,
			stubs: { HubSpot: 'passThrough' },
			record: new Set(['HubSpot']),
			serviceCredentials,
			label: 'test: a case',
		});
		expect(sent.HubSpot.expressions).toEqual([
			{ path: 'email', recorder: 'HubSpot (test sent #1)' },
			{ path: 'additionalFields.companyName', recorder: 'HubSpot (test sent #2)' },
		]);
		expect(byName(workflow, 'HubSpot (test sent #2)')).toMatchObject({
			type: 'n8n-nodes-base.set',
			onError: 'continueRegularOutput',
			parameters: {
				assignments: {
					assignments: [expect.objectContaining({ value: '={{ $json.company }}', type: 'object' })],
				},
			},
		});
		// Fed by the output that feeds HubSpot, beside it.
		expect(workflow.connections['CRM contact'].main[0]).toEqual([
			{ node: 'HubSpot', type: 'main', index: 0 },
			{ node: 'HubSpot (test sent #1)', type: 'main', index: 0 },
			{ node: 'HubSpot (test sent #2)', type: 'main', index: 0 },
		]);
		// The recorders' items make the parameters each item would have been sent with; an
		// expression n8n could not resolve is named with its parameter and n8n's message.
		const run = (items: Record<string, unknown>[]) => [{ outputs: [items], hints: [] }];
		expect(
			sentOf(sent.HubSpot, {
				'HubSpot (test sent #1)': run([{ value: 'a@x.test' }, { value: null }]),
				'HubSpot (test sent #2)': run([{ value: 'A' }, { error: "Referenced node doesn't exist" }]),
			}),
		).toEqual({
			items: [
				expect.objectContaining({
					operation: 'upsert',
					email: 'a@x.test',
					additionalFields: { companyName: 'A' },
				}),
				expect.objectContaining({
					email: null,
					additionalFields: { companyName: '={{ $json.company }}' },
				}),
			],
			errors: [
				{
					item: 1,
					parameter: 'additionalFields.companyName',
					message: "Referenced node doesn't exist",
				},
			],
		});
	});

	it("the package's nodes use the test's credential, whichever one the export names", () => {
		const { workflow } = prepare(load('onboard-inboxes'), { 'Tell the team': 'passThrough' });
		expect(byName(workflow, 'Create Inboxes').credentials).toEqual({
			leadInboxApi: { id: 'leadInboxTest0001', name: 'Lead Inbox (workflow test)' },
		});
	});

	it('the start node: the only trigger, or the one named; none or several say what to do', () => {
		const two = load('dentists-to-hubspot');
		two.nodes.push({ name: 'Try it now', type: 'n8n-nodes-base.manualTrigger', parameters: {} });
		expect(findStart(two)).toBe(
			'the workflow has 2 triggers (Every morning, Try it now): name the one to start from with `start:`',
		);
		expect(findStart(two, 'Try it now')).toMatchObject({ name: 'Try it now' });
		const none = load('dentists-to-hubspot');
		none.nodes = none.nodes.filter((n) => n.name !== 'Every morning');
		expect(findStart(none)).toMatch(/^the workflow has no trigger to start from/);
	});
});
