/**
 * Waits on time, passed in the case's time. An execution waiting on time alone (a Wait After Time
 * Interval or At Specified Time, however long) is moved on at once: the case's clock jumps to the
 * wait's end and n8n resumes it, as Temporal's test server skips time while a workflow only waits
 * on a timer. Later nodes read the moved clock. An execution waiting for a request (a Wait on a
 * webhook or a form, a Form node) is left waiting: its run ends `waiting`, and a later run's
 * resume sends the request, or lets the wait's time limit pass (timeout).
 *
 * Every move of the clock (a wait skipped, advanceClock, a run's clock, a timeout) passes time as
 * the world does, as Temporal's and Camunda's test clocks do: each wait it passes ends at its own
 * instant, the earliest first, and a wait for a request whose limit it passes times out there, as
 * n8n's WaitTracker would time it out. A request after that resumes nothing.
 */
import {
	type Execution,
	type Flatted,
	finished,
	readExecution,
	waitingExecutions,
} from '../n8n/executions.cjs';
import { type Rest, until } from '../n8n/rest.cjs';
import type { WorkflowTestWaitSkip as WaitSkip } from '../types.cjs';
import { waitsOnTime } from '../workflow/node-kinds.cjs';
import type { ClockControl } from './clock-control.cjs';

/** A clock the runner moves: a case's (n8n's and its services'), or n8n's alone. */
interface MovableClock {
	now(): number;
	set(ms: number): Promise<void>;
}

export type { WaitSkip };

/** How long n8n may take to resume an execution and bring it to rest (a bound, not a speed claim). */
const RESUMED_MS = 5 * 60_000;

/** Whether a wait's end is a time n8n resumes it at: n8n parks a wait with no limit until the year 3000 (n8n-workflow's WAIT_INDEFINITELY). */
const hasLimit = (until: string | undefined): boolean =>
	!!until && new Date(until).getUTCFullYear() < 3000;

export class TimeWaits {
	/** Every wait moved past in the case, in order. */
	readonly skips: WaitSkip[] = [];
	/** Executions moved on, with the wait's end: n8n is resuming them. */
	private readonly moved = new Map<string, string>();
	/** Executions whose wait for a request timed out, with the limit's end. */
	private readonly timedOut = new Map<string, string>();

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
		const ends: number[] = [];
		for (const execution of await this.waiting()) {
			const { waiting: at } = execution;
			// Moved on already: n8n is resuming it (it clears the wait's end before the status).
			const movedTo = this.moved.get(execution.id);
			if (movedTo !== undefined && (!at?.until || at.until === movedTo)) return true;
			if (at?.until && waitsOnTime(at.node)) ends.push(Date.parse(at.until));
		}
		if (!ends.length) return false;
		// As a move of the clock: a limit of another execution ending first times it out first.
		await this.passTo(Math.min(...ends));
		return true;
	}

	/**
	 * Lets the time limit of an execution waiting for a request pass: the clock moves to the
	 * limit's end (waits due before it resuming first) and n8n resumes the execution as it does
	 * when no request comes in time.
	 */
	async passLimit(execution: Execution): Promise<void> {
		const { node, until } = execution.waiting!;
		if (!hasLimit(until))
			throw new Error(
				`"${node.name}" waits for a request with no time limit (Limit Wait Time is off): only a request resumes it`,
			);
		await this.passTo(Date.parse(until!));
	}

	/**
	 * Moves the case's clock forward to `target` as the world passes that time: each of the case's
	 * executions whose wait ends by then (a wait on time, or the time limit of a wait for a
	 * request) is resumed at its own instant, the earliest first, and has come to rest again before
	 * the clock moves on (what it does next may be due before `target` too).
	 */
	async passTo(target: number): Promise<void> {
		for (;;) {
			const due = (await this.parked()).filter((w) => w.until <= target);
			if (!due.length) break;
			const at = Math.min(...due.map((w) => w.until));
			const from = this.clock.now();
			if (at > from) await this.clock.set(at);
			const now = due.filter((w) => w.until === at);
			await this.resume(
				now.map((w) => w.execution),
				from,
			);
			await this.rested(now.map((w) => w.execution));
		}
		if (target > this.clock.now()) await this.clock.set(target);
	}

	/** The case's time now. */
	now(): number {
		return this.clock.now();
	}

	/** When the case's clock passed the time limit of an execution's wait for a request, if it did. */
	timedOutAt(executionId: string): string | undefined {
		return this.timedOut.get(executionId);
	}

	/** The case's executions parked until a time (a wait on time, a limit), with that time. */
	private async parked(): Promise<{ execution: Execution; until: number }[]> {
		return (await this.waiting()).flatMap((execution) => {
			const until = execution.waiting?.until;
			return hasLimit(until) ? [{ execution, until: Date.parse(until!) }] : [];
		});
	}

	/** The case's executions n8n lists as waiting, each read. */
	private async waiting(): Promise<Execution[]> {
		const ids = new Set(this.workflowIds());
		const listed = (await waitingExecutions(this.n8n.rest)).filter((e) =>
			ids.has(String(e.workflowId)),
		);
		return await Promise.all(
			listed.map(({ id }) => readExecution(this.n8n.rest, this.n8n.flatted, String(id))),
		);
	}

	/** Until n8n has resumed each execution and it rests again: finished, or parked anew. */
	private async rested(executions: Execution[]): Promise<void> {
		for (const { id } of executions) {
			const from = this.moved.get(id);
			await until(
				async () => {
					const now = await readExecution(this.n8n.rest, this.n8n.flatted, id);
					return (
						finished({ id, status: now.status }) ||
						(now.status === 'waiting' && !!now.waiting?.until && now.waiting.until !== from)
					);
				},
				RESUMED_MS,
				`execution ${id} to come to rest after its wait ended`,
				50,
			);
		}
	}

	/**
	 * Has n8n resume executions whose wait the clock has moved past (from `from`), each recorded as
	 * a skip and as moved on (n8n is resuming it).
	 */
	private async resume(due: Execution[], from: number): Promise<void> {
		for (const { id, waiting } of due) {
			this.moved.set(id, waiting!.until!);
			// A wait for a request whose limit ended: n8n goes on with no request, and a request
			// after this finds nothing waiting.
			const timeLimit = !waitsOnTime(waiting!.node) || undefined;
			if (timeLimit) this.timedOut.set(id, waiting!.until!);
			this.skips.push({
				node: waiting!.node.name,
				execution: id,
				from: new Date(from).toISOString(),
				to: new Date(Date.parse(waiting!.until!)).toISOString(),
				...(timeLimit ? { timeLimit } : {}),
			});
		}
		if (!(await this.n8n.clock.resumeDue(due.map((e) => e.id))))
			throw new Error(
				"n8n's WaitTracker was not found in n8n's main process, so a Wait cannot be resumed in the test's time",
			);
	}
}
