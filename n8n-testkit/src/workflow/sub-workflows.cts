/**
 * Sub-workflows: the workflows a tested workflow calls by ID (Execute Workflow, and the AI Agent's
 * Call n8n Workflow tool), found among the user's exports, so a test creates them in its own n8n
 * beside the workflow it tests. Found before anything runs: a call the runner cannot follow is
 * named with its node, the ID and where the runner looked.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Workflow, WorkflowNode } from './workflow.cjs';

/** Nodes that run another workflow of the same n8n, chosen by ID. */
const CALLS_A_WORKFLOW = new Set([
	'n8n-nodes-base.executeWorkflow',
	'@n8n/n8n-nodes-langchain.toolWorkflow',
]);

/** One of the user's exports, called by the tested workflow (or by another sub-workflow). */
export interface SubWorkflow {
	/** The export's own ID: what calls to it name. */
	id: string;
	/** The export's name: what `expect.workflows` names it by. */
	name: string;
	file: string;
	workflow: Workflow;
	/**
	 * The tested workflow's error workflow (its settings' errorWorkflow, or the test file's): n8n
	 * runs it, from its Error Trigger, when a run of the workflow fails.
	 */
	errorWorkflow?: true;
}

/** A call to a stored workflow: its node and the ID it names (an expression when it computes one). */
interface Call {
	node: WorkflowNode;
	id: string;
}

/** The value of an ID parameter: text, or n8n's resource locator ({ __rl, value, mode }). */
const idOf = (value: unknown): string | undefined => {
	const raw = value && typeof value === 'object' ? (value as { value?: unknown }).value : value;
	return typeof raw === 'string' || typeof raw === 'number' ? String(raw) : undefined;
};

/** The workflow's enabled nodes that call a workflow stored in n8n (source "database", the default). */
export function callsOf(workflow: Workflow): Call[] {
	return workflow.nodes.flatMap((node) => {
		if (node.disabled || !CALLS_A_WORKFLOW.has(node.type)) return [];
		const source = node.parameters?.source ?? 'database';
		const id = idOf(node.parameters?.workflowId);
		return source === 'database' && id ? [{ node, id }] : [];
	});
}

/** Points a calling node at the workflow's ID in the test's n8n. */
export function retarget(node: WorkflowNode, id: string): void {
	const current = node.parameters?.workflowId;
	node.parameters = {
		...node.parameters,
		workflowId: current && typeof current === 'object' ? { ...current, value: id, mode: 'id' } : id,
	};
}

/** The exports a test file can reach: those it lists, then every export beside the workflow. */
function candidates(
	workflowPath: string,
	listed: string[],
	shown: (path: string) => string,
	refuse: (at: PropertyKey[], message: string) => void,
	/** Whether to read the folder's exports too (only a workflow that calls another needs them). */
	beside: boolean,
): Map<string, { file: string; workflow: Workflow }> {
	const found = new Map<string, { file: string; workflow: Workflow }>();
	const read = (file: string): Workflow | string => {
		try {
			const workflow = JSON.parse(readFileSync(file, 'utf8')) as Workflow;
			if (!Array.isArray(workflow?.nodes) || typeof workflow.connections !== 'object')
				return 'is not an n8n workflow (no nodes and connections)';
			if (workflow.id === undefined || workflow.id === null)
				return "has no id (n8n's Download keeps it: export it again from the editor)";
			return workflow;
		} catch (error) {
			return (error as NodeJS.ErrnoException).code === 'ENOENT'
				? 'no such file (the path is relative to the test file)'
				: `is not JSON: ${(error as Error).message}`;
		}
	};
	listed.forEach((file, i) => {
		const workflow = read(file);
		if (typeof workflow === 'string') refuse(['workflows', i], `${shown(file)} ${workflow}`);
		else found.set(String(workflow.id), { file, workflow });
	});
	const folder = dirname(workflowPath);
	for (const name of (beside ? readdirSync(folder) : [])
		.filter((f) => f.endsWith('.json'))
		.sort()) {
		const file = join(folder, name);
		if (file === resolve(workflowPath)) continue;
		const workflow = read(file);
		if (typeof workflow !== 'string' && !found.has(String(workflow.id)))
			found.set(String(workflow.id), { file, workflow });
	}
	return found;
}

/**
 * Every sub-workflow the workflow reaches (its calls, their calls...), callees before callers (the
 * order they are created in), skipping calls of nodes stubbed for the whole file. Each call that
 * cannot be followed is told to `refuse`.
 */
export function findSubWorkflows(
	workflow: Workflow,
	workflowPath: string,
	options: {
		/** Exports the test file names (absolute paths). */
		listed: string[];
		stubbed: (node: string) => boolean;
		/** A path as messages show it (relative to the working folder). */
		shown: (path: string) => string;
		refuse: (at: PropertyKey[], message: string) => void;
		/** The export the test file names as the error workflow (absolute path; one of `listed`). */
		errorWorkflow?: string;
	},
): SubWorkflow[] {
	const { listed, stubbed, shown, refuse } = options;
	// Every test file of a project loads its workflow: the folder's exports are read only for one
	// that calls a workflow or names an error workflow.
	const calls = callsOf(workflow).some((call) => !stubbed(call.node.name));
	const settingsErrorId = idOf(workflow.settings?.errorWorkflow);
	const exports = candidates(
		workflowPath,
		listed,
		shown,
		refuse,
		calls || settingsErrorId !== undefined,
	);
	const ordered: SubWorkflow[] = [];
	const visiting: string[] = [];
	const visit = (from: Workflow, fromName: string) => {
		for (const { node, id } of callsOf(from)) {
			if (stubbed(node.name)) continue;
			const at = listed.length ? ['workflows'] : ['workflow'];
			if (id.startsWith('='))
				refuse(
					at,
					`node "${node.name}" (in "${fromName}") chooses the workflow it calls with an expression (${id}): the runner cannot tell which export that is; choose it by ID (From list or By ID), or stub the node`,
				);
			else if (!exports.has(id))
				refuse(
					at,
					`node "${node.name}" (in "${fromName}") calls workflow ID ${id}${cachedName(node)}, which is none of the exports looked at (${[...listed.map((f) => basename(f)), `the *.json beside ${basename(workflowPath)}`].join(', ')}): export it from n8n into ${shown(dirname(workflowPath)) || '.'}, list its file under workflows:, or stub the node`,
				);
			else if (visiting.includes(id))
				refuse(
					at,
					`workflows call each other (${[...visiting, id].map((i) => exports.get(i)!.workflow.name ?? i).join(' → ')}): the runner creates a sub-workflow before its callers, so it cannot create a cycle; stub node "${node.name}"`,
				);
			else if (!ordered.some((s) => s.id === id)) {
				const { file, workflow: sub } = exports.get(id)!;
				visiting.push(id);
				visit(sub, sub.name ?? id);
				visiting.pop();
				ordered.push({ id, name: sub.name ?? id, file, workflow: sub });
			}
		}
	};
	visit(workflow, workflow.name ?? basename(workflowPath));
	// The error workflow: the test file's, else the one the workflow's settings name when it is
	// among the exports (a workflow exported without its error workflow runs without one, as before).
	const named = options.errorWorkflow
		? [...exports.values()].find((e) => resolve(e.file) === resolve(options.errorWorkflow!))
		: undefined;
	const errorId = named ? String(named.workflow.id) : settingsErrorId;
	const found = errorId !== undefined ? exports.get(errorId) : undefined;
	if (errorId !== undefined && found && errorId !== String(workflow.id)) {
		const known = ordered.find((s) => s.id === errorId);
		if (known) known.errorWorkflow = true;
		else {
			visit(found.workflow, found.workflow.name ?? errorId);
			ordered.push({
				id: errorId,
				name: found.workflow.name ?? errorId,
				file: found.file,
				workflow: found.workflow,
				errorWorkflow: true,
			});
		}
	}
	return ordered;
}

/** The name the editor showed for the called workflow, when the export keeps it. */
function cachedName(node: WorkflowNode): string {
	const name = (node.parameters?.workflowId as { cachedResultName?: unknown } | undefined)
		?.cachedResultName;
	return typeof name === 'string' && name ? ` ("${name}")` : '';
}
