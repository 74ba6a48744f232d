import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	CredentialTestContext,
	ExecutionLifecycleHooks,
	PollContext,
	WorkflowExecute,
} from 'n8n-core';
import {
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IHttpRequestOptions,
	type INode,
	type INodeType,
	type INodeTypeData,
	type INodeTypes,
	type IRun,
	type IWorkflowExecuteAdditionalData,
	type IExecuteFunctions,
	type INodeExecutionData,
	type IDataObject,
	NodeConnectionTypes,
	Workflow,
} from 'n8n-workflow';
import { LeadInboxApi } from '../../credentials/LeadInboxApi.credentials';
import { CreateInboxes } from '../../nodes/CreateInboxes/CreateInboxes.node';
import { FetchLeads } from '../../nodes/FetchLeads/FetchLeads.node';
import { LeadInboxTrigger } from '../../nodes/LeadInboxTrigger/LeadInboxTrigger.node';
import { ListInboxes } from '../../nodes/ListInboxes/ListInboxes.node';
import { ListPools } from '../../nodes/ListPools/ListPools.node';

/**
 * Runs real workflow JSON in n8n's own execution engine (n8n-core's WorkflowExecute), the way
 * n8n's NodeTestHarness does, with our nodes and a stand-in for n8n's Manual Trigger (its output
 * comes from the workflow's pinned data, as in a manual run in the editor).
 */
class ManualTrigger implements INodeType {
	description = {
		displayName: 'Manual Trigger',
		name: 'manualTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Stand-in for n8n-nodes-base.manualTrigger',
		defaults: { name: 'Manual Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		properties: [],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return [[{ json: {} }]];
	}
}

const NODES: Record<string, INodeType> = {
	'n8n-nodes-base.manualTrigger': new ManualTrigger(),
	'n8n-nodes-lead-inbox.fetchLeads': new FetchLeads(),
	'n8n-nodes-lead-inbox.listPools': new ListPools(),
	'n8n-nodes-lead-inbox.listInboxes': new ListInboxes(),
	'n8n-nodes-lead-inbox.createInboxes': new CreateInboxes(),
	'n8n-nodes-lead-inbox.leadInboxTrigger': new LeadInboxTrigger(),
};
// As an AI Agent's tool, n8n runs the same node class under its type name ending in "Tool".
for (const name of ['fetchLeads', 'listPools', 'listInboxes', 'createInboxes'])
	NODES[`n8n-nodes-lead-inbox.${name}Tool`] = NODES[`n8n-nodes-lead-inbox.${name}`];

class NodeTypes implements INodeTypes {
	getByName(type: string) {
		return this.getByNameAndVersion(type);
	}

	getByNameAndVersion(type: string): INodeType {
		const node = NODES[type];
		if (!node) throw new Error(`Unknown node type ${type}`);
		return node;
	}

	getKnownTypes(): INodeTypeData {
		return {};
	}
}

const CREDENTIAL: ICredentialType = new LeadInboxApi();

/** Resolves `={{$credentials.x}}` templates the way n8n's credentials helper does for generic auth. */
function resolveTemplate(value: string, credentials: ICredentialDataDecryptedObject): string {
	const text = value.startsWith('=') ? value.slice(1) : value;
	return text.replace(/\{\{\s*\$credentials\.(\w+)\s*\}\}/g, (_, key: string) =>
		String((credentials[key] as string | number | boolean | undefined) ?? ''),
	);
}

export function applyGenericAuth(
	credentials: ICredentialDataDecryptedObject,
	request: IHttpRequestOptions,
): IHttpRequestOptions {
	const auth = CREDENTIAL.authenticate as { properties: { headers?: Record<string, string> } };
	const headers = { ...(request.headers ?? {}) } as Record<string, string>;
	for (const [name, value] of Object.entries(auth.properties.headers ?? {}))
		headers[name] = resolveTemplate(value, credentials);
	return { ...request, headers };
}

export interface RunOptions {
	credentials: { apiKey: string; leadsBaseUrl: string; inboxBaseUrl: string };
	/** Replaces the workflow's pinned data per node name. */
	pinData?: Record<string, IDataObject[]>;
	/** Overrides node parameters: { 'Create Inboxes': { options: {...} } } */
	parameters?: Record<string, IDataObject>;
	/** Per node: onError setting ('continueRegularOutput' | 'continueErrorOutput'). */
	onError?: Record<string, 'continueRegularOutput' | 'continueErrorOutput' | 'stopWorkflow'>;
	/** The workflow's static data: pass the same object to runs that stand for one saved workflow. */
	staticData?: IDataObject;
	/** Per node: fields of the node itself, e.g. { type: '...fetchLeadsTool', typeVersion: 1.1 }. */
	nodes?: Record<string, IDataObject>;
	/** The execution's id (n8n gives every run one; runs with the same id are one execution). */
	executionId?: string;
}

export interface WorkflowJson {
	name: string;
	nodes: IDataObject[];
	connections: IDataObject;
	pinData?: Record<string, IDataObject[]>;
}

export function loadWorkflow(file: string): WorkflowJson {
	return JSON.parse(readFileSync(join(__dirname, '../workflows', file), 'utf8'));
}

/** What n8n gives a node besides its parameters: the credential (with generic auth applied), hooks. */
function additionalDataFor(
	credentials: RunOptions['credentials'],
	hooks: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	const credentialData = credentials as unknown as ICredentialDataDecryptedObject;
	return {
		credentialsHelper: {
			getParentTypes: () => [],
			authenticate: async (
				credentials: ICredentialDataDecryptedObject,
				_type: string,
				request: IHttpRequestOptions,
			) => applyGenericAuth(credentials, request),
			preAuthentication: async () => undefined,
			getCredentials: async () => ({}),
			getDecrypted: async () => credentialData,
			updateCredentials: async () => undefined,
			updateCredentialsOauthTokenData: async () => undefined,
			getCredentialsProperties: () => CREDENTIAL.properties,
		},
		hooks,
		executeWorkflow: async () => {
			throw new Error('not supported in tests');
		},
		getRunExecutionData: async () => undefined,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: 'http://127.0.0.1/',
		formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
		webhookBaseUrl: 'http://127.0.0.1/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
		variables: {},
		logAiEvent: () => undefined,
		startRunnerTask: async () => {
			throw new Error('not supported in tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;
}

export async function runWorkflow(json: WorkflowJson, options: RunOptions): Promise<IRun> {
	const nodes = json.nodes.map((node) => ({
		...node,
		parameters: {
			...(node.parameters as IDataObject),
			...(options.parameters?.[node.name as string] ?? {}),
		},
		...(options.onError?.[node.name as string]
			? { onError: options.onError[node.name as string] }
			: {}),
		...(options.nodes?.[node.name as string] ?? {}),
	}));
	const workflow = new Workflow({
		id: 'test-workflow',
		name: json.name,
		nodes: nodes as never,
		connections: json.connections as never,
		active: false,
		nodeTypes: new NodeTypes(),
		staticData: options.staticData,
	});
	const hooks = new ExecutionLifecycleHooks('manual', 'test-execution', {
		id: 'test-workflow',
		name: json.name,
		nodes,
		connections: json.connections,
	} as never);
	const additionalData = additionalDataFor(options.credentials, hooks);
	if (options.executionId) additionalData.executionId = options.executionId;

	const trigger = workflow.getStartNode();
	if (!trigger) throw new Error('workflow has no start node');
	const pinData = { ...(json.pinData ?? {}), ...(options.pinData ?? {}) };
	const pinned = Object.fromEntries(
		Object.entries(pinData).map(([name, items]) => [name, items.map((json) => ({ json }))]),
	);
	const done = new Promise<IRun>((resolve) =>
		hooks.addHandler('workflowExecuteAfter', async (run) => resolve(run)),
	);
	void new WorkflowExecute(additionalData, 'manual').run({
		workflow,
		startNode: trigger,
		pinData: pinned,
	});
	return done;
}

/** Output items of a node's last run (main output `index`). */
export function outputOf(run: IRun, nodeName: string, index = 0): INodeExecutionData[] {
	const runs = run.data.resultData.runData[nodeName];
	if (!runs?.length) return [];
	return runs[runs.length - 1].data?.main?.[index] ?? [];
}

export function errorOf(
	run: IRun,
):
	| { message: string; description?: string; node?: string; itemIndex?: number; httpCode?: string }
	| undefined {
	const error = run.data.resultData.error as unknown as
		| {
				message: string;
				description?: string;
				node?: { name: string };
				context?: { itemIndex?: number };
				httpCode?: string;
		  }
		| undefined;
	if (!error) return undefined;
	return {
		message: error.message,
		description: error.description ?? undefined,
		node: error.node?.name,
		itemIndex: error.context?.itemIndex,
		httpCode: error.httpCode,
	};
}

export function hintsOf(run: IRun, nodeName: string): string[] {
	return (run.data.resultData.runData[nodeName]?.[0]?.hints ?? []).map((h) => h.message);
}

/** n8n-core starts a 60 s clean-up interval (SSH clients) that would keep jest alive. */
export function stopEngineTimers(): void {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { SSHClientsManager } = require('n8n-core/dist/execution-engine/ssh-clients-manager');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Container } = require('@n8n/di');
	clearInterval(
		(Container.get(SSHClientsManager) as { cleanupTimer: NodeJS.Timeout }).cleanupTimer,
	);
}

/**
 * Runs the credential test the way n8n's credential tester does for a credential without a
 * declarative `test`: the function a node names in `testedBy`, called on n8n-core's own
 * CredentialTestContext with the decrypted credential. The real tester is exercised by the e2e suite.
 */
export async function testCredential(
	credentials: RunOptions['credentials'],
): Promise<{ status: 'OK' | 'Error'; message: string }> {
	const testedBy = NODES['n8n-nodes-lead-inbox.listPools'].description.credentials?.[0].testedBy;
	const test =
		NODES['n8n-nodes-lead-inbox.listPools'].methods?.credentialTest?.[testedBy as string];
	if (!test) throw new Error('no credential test function');
	return (await test.call(new CredentialTestContext(), {
		id: 'c',
		name: 'Lead Inbox API',
		type: 'leadInboxApi',
		data: credentials as unknown as ICredentialDataDecryptedObject,
	})) as { status: 'OK' | 'Error'; message: string };
}

/**
 * The Lead Inbox Trigger as n8n polls it: one workflow object kept between checks (an active
 * workflow's static data lives on it), each check a fresh n8n-core PollContext in "trigger" mode,
 * or "manual" for the editor's Fetch Test Event.
 */
export class TriggerPoller {
	private readonly workflow: Workflow;
	private readonly node: INode;
	/** What the node told n8n's logger, in order. */
	readonly logged: Array<{ level: string; message: string }> = [];

	/** `where`: another workflow or node is another trigger, with a memory and a turn of its own. */
	constructor(
		parameters: IDataObject,
		private readonly credentials: RunOptions['credentials'],
		where: { workflowId?: string; nodeId?: string } = {},
	) {
		this.node = {
			id: where.nodeId ?? 'trigger',
			name: 'Lead Inbox Trigger',
			type: 'n8n-nodes-lead-inbox.leadInboxTrigger',
			typeVersion: 1,
			position: [0, 0],
			parameters: parameters as INode['parameters'],
			credentials: { leadInboxApi: { id: 'c', name: 'Lead Inbox API' } },
		};
		this.workflow = new Workflow({
			id: where.workflowId ?? 'trigger-workflow',
			name: 'Trigger',
			nodes: [this.node],
			connections: {},
			active: true,
			nodeTypes: new NodeTypes(),
		});
	}

	/** The workflow's static data, as n8n would save it. */
	get staticData(): IDataObject {
		return this.workflow.staticData;
	}

	/** What the node keeps in it (n8n's key for a node's own static data). */
	get record(): IDataObject | undefined {
		return this.workflow.staticData[`node:${this.node.name}`] as IDataObject | undefined;
	}

	async poll(mode: 'trigger' | 'manual' = 'trigger'): Promise<IDataObject[] | null> {
		const hooks = new ExecutionLifecycleHooks(mode, 'poll', {} as never);
		const context = new PollContext(
			this.workflow,
			this.node,
			additionalDataFor(this.credentials, hooks),
			mode,
			'activate',
		);
		const record = (level: string) => (message: string) => this.logged.push({ level, message });
		// n8n-core's context gets its logger from the DI container; this one keeps what is said.
		Object.defineProperty(context, 'logger', {
			value: {
				error: record('error'),
				warn: record('warn'),
				info: record('info'),
				debug: record('debug'),
			},
		});
		const result = await NODES[this.node.type].poll!.call(context);
		return result ? result[0].map((item) => item.json) : null;
	}
}
