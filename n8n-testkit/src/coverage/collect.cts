/**
 * Collects coverage over a run: one entry per workflow export (however many test files test it,
 * and a sub-workflow once whoever calls it), its outputs read from n8n's node descriptions the
 * first time a worker's n8n meets it, each case's detail added as the case ends.
 */
import { relative } from 'node:path';
import type { LoadedTestFile } from '../file/load.cjs';
import type { N8nHost } from '../session.cjs';
import type { WorkflowTestCaseDetail } from '../types.cjs';
import type { Workflow } from '../workflow/workflow.cjs';
import {
	addCase,
	addOutcomes,
	COVERAGE_FORMAT,
	type CoverageFile,
	emptyCoverage,
	type OutputShape,
	outputShape,
	type WorkflowCoverage,
} from './model.cjs';

export class CoverageCollector {
	private readonly workflows = new Map<string, Promise<WorkflowCoverage>>();

	constructor(
		private readonly cwd: string,
		private readonly n8nVersion: string,
	) {}

	/** The entry of an export, made once. */
	private entry(path: string, workflow: Workflow, host: N8nHost): Promise<WorkflowCoverage> {
		let entry = this.workflows.get(path);
		if (!entry) {
			entry = (async () => {
				const shapes = new Map<string, OutputShape>();
				for (const node of workflow.nodes)
					shapes.set(
						node.name,
						outputShape(node, workflow, await host.described(node.type, node.typeVersion)),
					);
				return emptyCoverage(workflow, relative(this.cwd, path) || path, shapes);
			})();
			this.workflows.set(path, entry);
		}
		return entry;
	}

	/** Adds what a case of a test file did: its runs to the workflow, its sub-workflows' to theirs. */
	async addCase(
		test: LoadedTestFile,
		host: N8nHost,
		caseName: string,
		detail: WorkflowTestCaseDetail,
	): Promise<void> {
		const id = `${test.file} \u203a ${caseName}`;
		const main = await this.entry(test.workflowPath, test.workflow, host);
		addCase(
			main,
			id,
			detail.runs.map((r) => r.nodes),
		);
		addOutcomes(main, id, detail.runs);
		for (const sub of test.subWorkflows) {
			const entry = await this.entry(sub.file, sub.workflow, host);
			const ran = detail.workflows?.[sub.name];
			if (ran) addCase(entry, id, [ran.nodes]);
			// A sub-workflow's waits are passed by the case's clock too (their skips are the case's).
			if (ran) addOutcomes(entry, id, detail.runs);
		}
	}

	async result(): Promise<CoverageFile> {
		const workflows = await Promise.all(this.workflows.values());
		return {
			format: COVERAGE_FORMAT,
			n8nVersions: [this.n8nVersion],
			workflows: workflows.sort((a, b) => a.file.localeCompare(b.file)),
		};
	}
}
