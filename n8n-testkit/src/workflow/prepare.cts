/**
 * The workflow as a test runs it: the user's export, with only what a run in a test needs changed.
 * - Its start node: a service's polling trigger (the Lead Inbox Trigger) stays (each check is an
 *   activation of the published workflow, which polls once); any other trigger is replaced by a webhook the runner calls and a
 *   node of the trigger's name handing on the run's items (a Schedule Trigger's item, or `input`),
 *   so that every run is a production run: n8n saves the workflow's static data after it, as after
 *   a scheduled run (Fetch Leads' New Leads Wanted remembers its depth there).
 * - Stubbed nodes: pass-through (n8n's No Operation), given items, or a chat model answered by the
 *   runner's scripted model, under the node's name; beside
 *   those a case reads `sent` of, recorders of what they would have sent (sent.cts).
 * - A service's nodes use its credential (whichever one the export names).
 * - Calls of sub-workflows (Execute Workflow) go to the case's copies of them, made the same way.
 * Nodes that would call another service must be stubbed: the test file's check refuses one that is
 * not before anything starts (file/misfits.cts).
 */
import { randomUUID } from 'node:crypto';
import { modelIdOf } from '../ai/script.cjs';
import type { Stub } from '../file/schema.cjs';
import { useMadeUpCredentials } from '../http-mocks/credentials.cjs';
import { FORM_TRIGGER, staysInside, isSchedule, takesRequests } from './node-kinds.cjs';
import { addRecorders, type SentPlan } from './sent.cjs';
import { callsOf, retarget } from './sub-workflows.cjs';
import type { Workflow, WorkflowNode } from './workflow.cjs';

export interface StartPlan {
	/**
	 * webhook: the runner calls its own webhook in the start node's place for each run; request: the
	 * workflow's own Webhook is called with the case's request; poll: each run is an activation (one
	 * check).
	 */
	kind: 'webhook' | 'request' | 'poll';
	node: string;
	/** For webhook starts: whether the start node was a schedule (the default items differ). */
	schedule: boolean;
	webhookPath?: string;
	/** For request starts: the Webhook node's own HTTP method. */
	method?: string;
	/** For request starts at a Form Trigger: the node (its fields), called under /form/. */
	form?: WorkflowNode;
}

export interface Prepared {
	workflow: Workflow;
	start: StartPlan;
	/** The stubbed nodes whose sent parameters are recorded, with how (sent.cts). */
	sent: Record<string, SentPlan>;
}

/** How a case changes the workflows it creates (the tested one and its sub-workflows alike). */
export interface AdaptOptions {
	stubs: Record<string, Stub>;
	/** Stubbed nodes whose sent parameters a case reads. */
	record?: Set<string>;
	/** The credential of the scripted chat model (an OpenAI credential pointing at it). */
	modelCredential?: { id: string; name: string };
	/** The credentials of the file's services, each for the nodes its service claims. */
	serviceCredentials?: {
		claims(type: string): boolean;
		credential: { type: string; id: string; name: string };
	}[];
	/** Whether a node type is a service's polling trigger (a run is one poll). */
	polls?(type: string): boolean;
	/** Made-up credentials for the nodes that run for real against mocks, by type and export name. */
	madeUp?: Map<string, { id: string; name: string }>;
	/** The sub-workflows created for the case: the export's ID to the ID in the test's n8n. */
	created?: Map<string, string>;
	/** The ID in the test's n8n of the error workflow n8n runs when a run fails. */
	errorWorkflow?: string;
	label: string;
}

/**
 * The export as a case creates it in its n8n: stubs in place, the test's credentials, calls to
 * sub-workflows pointed at the case's copies, every execution kept.
 */
export function adaptWorkflow(
	source: Workflow,
	options: AdaptOptions,
): { workflow: Workflow; sent: Record<string, SentPlan> } {
	const workflow = structuredClone(source);
	for (const key of ['id', 'versionId', 'pinData', 'activeVersionId', 'shared', 'tags', 'meta'])
		delete workflow[key];
	// Created unpublished (1.x requires the field), then published by the runner.
	workflow.active = false;
	// n8n takes names of up to 128 characters.
	workflow.name = `${(source.name ?? 'Workflow').slice(0, 60)} [${options.label}]`.slice(0, 128);
	// Every execution kept (the checks read them, whatever the export's settings say); the error
	// workflow the case created in the test's n8n, else none (the export's ID is not there).
	const { errorWorkflow: _errorWorkflow, ...settings } = source.settings ?? {};
	workflow.settings = {
		...settings,
		...(options.errorWorkflow ? { errorWorkflow: options.errorWorkflow } : {}),
		saveDataSuccessExecution: 'all',
		saveDataErrorExecution: 'all',
		saveManualExecutions: true,
	};

	// A service's nodes get its credential (whichever the export names), pointing at its simulator.
	for (const node of workflow.nodes) {
		const served = options.serviceCredentials?.find((s) => s.claims(node.type));
		if (served && !node.disabled)
			node.credentials = {
				...node.credentials,
				[served.credential.type]: { id: served.credential.id, name: served.credential.name },
			};
	}
	// Nodes of other services left unstubbed run for real, against the case's mocks.
	const claimed = (type: string) =>
		options.serviceCredentials?.some((s) => s.claims(type)) ?? false;
	if (options.madeUp)
		useMadeUpCredentials(
			workflow,
			(node) => !staysInside(node.type, claimed) && !options.stubs[node.name],
			options.madeUp,
		);
	for (const { node, id } of callsOf(workflow)) {
		const created = options.created?.get(id);
		if (created) retarget(node, created);
	}

	const sent: Record<string, SentPlan> = {};
	for (const node of [...workflow.nodes]) {
		const stub = options.stubs[node.name];
		if (!stub) continue;
		if (options.record?.has(node.name)) sent[node.name] = addRecorders(workflow, node, node.name);
		stubNode(workflow, node, stub, options.modelCredential);
	}
	return { workflow, sent };
}

export function prepareWorkflow(
	source: Workflow,
	options: AdaptOptions & {
		start: WorkflowNode;
		/** The case calls the workflow's own Webhook (its start) with real requests. */
		viaRequest?: boolean;
	},
): Prepared {
	const { workflow, sent } = adaptWorkflow(source, options);

	const start = options.start;
	if (options.polls?.(start.type)) {
		// Checks are driven by the runner (an activation polls once); n8n's own schedule is moved to
		// a date that does not come during a test (29 February), so it never adds a check.
		const trigger = workflow.nodes.find((n) => n.name === start.name)!;
		trigger.parameters = {
			...trigger.parameters,
			pollTimes: { item: [{ mode: 'custom', cronExpression: '0 0 29 2 *' }] },
		};
		return { workflow, start: { kind: 'poll', node: start.name, schedule: false }, sent };
	}
	if (options.viaRequest && takesRequests(start.type)) {
		// The Webhook (or Form Trigger) stays as exported: the runner publishes the workflow and
		// calls its production URL (a form's under /form/, where n8n serves it).
		const node = workflow.nodes.find((n) => n.name === start.name)!;
		const text = (value: unknown) => (typeof value === 'string' ? value : '');
		const form = start.type === FORM_TRIGGER;
		const path =
			text(node.parameters?.path) ||
			(form ? text((node.parameters?.options as { path?: unknown } | undefined)?.path) : '') ||
			text(node.webhookId);
		return {
			workflow,
			start: {
				kind: 'request',
				node: start.name,
				schedule: false,
				webhookPath: path.replace(/^\/+/, ''),
				method: form ? 'POST' : text(node.parameters?.httpMethod) || 'GET',
				...(form ? { form: node } : {}),
			},
			sent,
		};
	}
	const webhookPath = `lead-inbox-test-${randomUUID()}`;
	replaceStart(workflow, start, webhookPath);
	return {
		workflow,
		start: { kind: 'webhook', node: start.name, schedule: isSchedule(start.type), webhookPath },
		sent,
	};
}

/** A node named `name` handing on `field` of its input's first item, split into items. */
function splitNode(name: string, field: string, position: unknown): WorkflowNode {
	return {
		id: randomUUID(),
		name,
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position,
		parameters: { fieldToSplitOut: field, options: {} },
	};
}

function replaceStart(workflow: Workflow, start: WorkflowNode, path: string): void {
	const webhook = `${start.name} (test start)`;
	workflow.nodes = workflow.nodes.filter((n) => n.name !== start.name);
	workflow.nodes.push(
		{
			id: randomUUID(),
			name: webhook,
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: start.position,
			webhookId: randomUUID(),
			parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
		},
		splitNode(start.name, 'body.items', start.position),
	);
	workflow.connections[webhook] = { main: [[{ node: start.name, type: 'main', index: 0 }]] };
}

function stubNode(
	workflow: Workflow,
	node: WorkflowNode,
	stub: Stub,
	modelCredential: { id: string; name: string } | undefined,
): void {
	const index = workflow.nodes.indexOf(node);
	const base = { id: node.id ?? randomUUID(), name: node.name, position: node.position };
	if (typeof stub === 'object' && 'model' in stub) {
		// n8n's OpenAI chat model, asking the runner's scripted model for this node's script; its
		// connection to the agent is the node's own.
		if (!modelCredential) throw new Error('a model stub needs the scripted model credential');
		workflow.nodes[index] = {
			...base,
			type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
			typeVersion: 1.2,
			parameters: { model: { __rl: true, mode: 'id', value: modelIdOf(node.name) }, options: {} },
			credentials: { openAiApi: modelCredential },
		};
		return;
	}
	if (stub === 'passThrough') {
		workflow.nodes[index] = {
			...base,
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			parameters: {},
		};
		return;
	}
	// Given items: a Set node (once, whatever it received) holding them, split into items by a
	// node of the stubbed node's name, whose connections onward are the stubbed node's own.
	const holder = `${node.name} (test stub items)`;
	workflow.nodes[index] = splitNode(node.name, 'items', node.position);
	workflow.nodes.push({
		id: randomUUID(),
		name: holder,
		type: 'n8n-nodes-base.set',
		typeVersion: 3.4,
		position: node.position,
		executeOnce: true,
		parameters: { mode: 'raw', jsonOutput: JSON.stringify({ items: stub.items }), options: {} },
	});
	for (const outputs of Object.values(workflow.connections))
		for (const list of Object.values(outputs ?? {}))
			for (const targets of list ?? [])
				for (const target of targets ?? []) if (target.node === node.name) target.node = holder;
	workflow.connections[holder] = { main: [[{ node: node.name, type: 'main', index: 0 }]] };
}
