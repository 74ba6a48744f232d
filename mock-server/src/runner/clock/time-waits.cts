/**
 * Waits on time, passed in the case's time. An execution waiting on time alone (a Wait After Time
 * Interval or At Specified Time, however long) is moved on at once: the case's clock jumps to the
 * wait's end and n8n resumes it, as Temporal's test server skips time while a workflow only waits
 * on a timer. Later nodes read the moved clock. An execution waiting for a request (a Wait on a
 * webhook or a form, a Form node) is left waiting: its run ends `waiting`, and a later run's
 * resume sends the request, or lets the wait's time limit pass (timeout).
 */
import type { WorkflowTestWaitSkip as WaitSkip } from '../../api/workflow-test-types.cjs';
import {
	type Execution,
	type Flatted,
	readExecution,
	waitingExecutions,
} from '../n8n/executions.cjs';
import type { Rest } from '../n8n/rest.cjs';
import { waitsOnTime } from '../workflow/node-kinds.cjs';
import type { ClockControl } from './clock-control.cjs';

/** A clock the runner moves: a case's (n8n's and the server's), or n8n's alone. */
interface MovableClock {
	now(): number;
	set(ms: number): Promise<void>;
}

export type { WaitSkip };

export class TimeWaits {
	/** Every wait moved past in the case, in order. */
	readonly skips: WaitSkip[] = [];
	/** Executions moved on, with the wait's end: n8n is resuming them. */
	private readonly moved = new Map<string, string>();

	constructor(
		private readonly n8n: { rest: Rest; flatted: Flatted; clock: ClockControl },
		private readonly clock: MovableClock,
		/** The case's workflows in n8n (the tested one, its sub-workflows). */
		private readonly workflowIds: () => string[],
	) {}

	/**
	 * Moves on the case's executions that wait on time, the earliest wait first (the clock moves
	 * to its end); whether any is moving on (its run goes on: settling must wait for it).
	 */
	async moveOn(): Promise<boolean> {
		const ids = new Set(this.workflowIds());
		const waiting = (await waitingExecutions(this.n8n.rest)).filter((e) =>
			ids.has(String(e.workflowId)),
		);
		const onTime: { execution: Execution; until: number }[] = [];
		for (const listed of waiting) {
			const execution = await readExecution(this.n8n.rest, this.n8n.flatted, String(listed.id));
			const { waiting: at } = execution;
			// Moved on already: n8n is resuming it (it clears the wait's end before the status).
			const movedTo = this.moved.get(execution.id);
			if (movedTo !== undefined && (!at?.until || at.until === movedTo)) return true;
			if (!at?.until || !waitsOnTime(at.node)) continue;
			onTime.push({ execution, until: Date.parse(at.until) });
		}
		if (!onTime.length) return false;
		const from = this.clock.now();
		const earliest = Math.min(...onTime.map((w) => w.until));
		if (earliest > from) await this.clock.set(earliest);
		const due = onTime.filter((w) => w.until <= this.clock.now()).map((w) => w.execution);
		await this.resume(due, from);
		return true;
	}

	/**
	 * Lets the time limit of an execution waiting for a request pass: the clock moves to the
	 * limit's end and n8n resumes the execution as it does when no request comes in time.
	 */
	async passLimit(execution: Execution): Promise<void> {
		const { node, until } = execution.waiting!;
		// n8n parks a wait with no limit until its far future (n8n-workflow's WAIT_INDEFINITELY).
		if (!until || new Date(until).getUTCFullYear() >= 3000)
			throw new Error(
				`"${node.name}" waits for a request with no time limit (Limit Wait Time is off): only a request resumes it`,
			);
		const from = this.clock.now();
		const end = Date.parse(until);
		if (end > from) await this.clock.set(end);
		await this.resume([execution], from, true);
	}

	/**
	 * Has n8n resume executions whose wait the clock has moved past (from `from`), each recorded as
	 * a skip and as moved on (n8n is resuming it).
	 */
	private async resume(due: Execution[], from: number, timeLimit?: true): Promise<void> {
		for (const { id, waiting } of due) {
			this.moved.set(id, waiting!.until!);
			this.skips.push({
				node: waiting!.node.name,
				execution: id,
				from: new Date(from).toISOString(),
				to: new Date(Math.max(Date.parse(waiting!.until!), from)).toISOString(),
				...(timeLimit ? { timeLimit } : {}),
			});
		}
		if (!(await this.n8n.clock.resumeDue(due.map((e) => e.id))))
			throw new Error(
				"n8n's WaitTracker was not found in n8n's main process, so a Wait cannot be resumed in the test's time",
			);
	}
}
