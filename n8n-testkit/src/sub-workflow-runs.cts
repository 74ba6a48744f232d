/**
 * A case's copies of the sub-workflows its workflow calls: created in the file's n8n with the
 * case's stubs and credentials, published (n8n 2.x runs only a published sub-workflow), and read
 * back after the case: every execution of each, once all have ended.
 */
import { type Execution, executionList, finished, readExecution } from './n8n/executions.cjs';
import { until } from './n8n/rest.cjs';
import type { Session } from './session.cjs';
import { type AdaptOptions, adaptWorkflow } from './workflow/prepare.cjs';
import type { SentPlan } from './workflow/sent.cjs';
import type { SubWorkflow } from './workflow/sub-workflows.cjs';

/** How long a sub-workflow called without waiting may take to end after its caller (a bound). */
const SETTLED_MS = 5 * 60_000;

export interface CreatedSubWorkflow {
	sub: SubWorkflow;
	/** Its ID in the test's n8n. */
	id: string;
	/** The stubbed nodes whose sent parameters the case reads, with how. */
	sent: Record<string, SentPlan>;
	/** Its executions in the case, once n8n has ended them all (and started at least `least`). */
	executions: (least?: number) => Promise<Execution[]>;
	deactivate: () => Promise<void>;
}

export async function createSubWorkflow(
	session: Session,
	sub: SubWorkflow,
	options: AdaptOptions,
): Promise<CreatedSubWorkflow> {
	const { rest } = session;
	const { workflow, sent } = adaptWorkflow(sub.workflow, options);
	const created = await rest('POST', '/workflows', workflow);
	if (created.status !== 200)
		throw new Error(
			`n8n refused sub-workflow "${sub.name}" (${sub.file}): ${JSON.stringify(created.body).slice(0, 1000)}`,
		);
	const stored = (created.body as { data: { id: string; versionId?: string } }).data;
	const id = String(stored.id);
	// 2.x publishes a workflow whose only trigger is an Execute Workflow Trigger and runs only a
	// published one; 1.x runs it unpublished and refuses to publish it ("no trigger"): either way
	// the call works, and a sub-workflow that cannot run says so in its caller's run.
	const published = await rest('POST', `/workflows/${id}/activate`, {
		versionId: stored.versionId,
	});
	return {
		sub,
		id,
		sent,
		executions: async (least = 0) => {
			let listed = await executionList(rest, id);
			const settled = () => listed.length >= least && listed.every(finished);
			if (!settled())
				await until(
					async () => ((listed = await executionList(rest, id)), settled()),
					SETTLED_MS,
					`the executions of sub-workflow "${sub.name}" to end in n8n`,
					100,
				);
			const read = await Promise.all(
				listed.map((e) => readExecution(rest, session.app.runDataReader, String(e.id))),
			);
			return read.sort((a, b) => Number(a.id) - Number(b.id));
		},
		deactivate: async () => {
			if (published.status === 200)
				await rest('POST', `/workflows/${id}/deactivate`, {}).catch(() => undefined);
		},
	};
}
