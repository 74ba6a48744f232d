/*
 * One check at a time per trigger. n8n calls a polling node's poll() on every tick of its schedule
 * without waiting for the previous call (n8n-core's ActiveWorkflows), so a check that outlasts the
 * interval would run beside the next one: both would compare the listing with the same remembered
 * state and both would report the same change. A tick that finds its trigger's previous check
 * still running is skipped instead. Nothing is lost by skipping: every check compares the whole
 * listing with what the last finished check recorded, so the next one reports whatever happened
 * meanwhile. Waiting instead would pile checks up behind a slow service, each a full listing.
 *
 * The record lives in this module, so it is per n8n process. That is where it has to be: n8n runs
 * a workflow's pollers in one process only (the main instance in queue mode, the leader in
 * multi-main), and static data is not shared live between processes anyway.
 */

/** A check that is running, and the ticks skipped while it ran. */
interface Running {
	startedAt: number;
	skipped: number;
}

const running = new Map<string, Running>();

/** What a tick gets: either the check to run (release it when done), or the one still running. */
export type Turn =
	| { granted: true; release: (now: number) => { tookMs: number; skipped: number } }
	| { granted: false; startedAt: number; skipped: number };

/**
 * Asks to run a check of the trigger `key` (its workflow and node) at `now`. Synchronous: two ticks
 * can never both be granted, whatever runs between them.
 */
export function takeTurn(key: string, now: number): Turn {
	const current = running.get(key);
	if (current) {
		current.skipped += 1;
		return { granted: false, startedAt: current.startedAt, skipped: current.skipped };
	}
	const mine: Running = { startedAt: now, skipped: 0 };
	running.set(key, mine);
	return {
		granted: true,
		release: (end) => {
			// Only its own record: released twice, or after another took over, it changes nothing.
			if (running.get(key) === mine) running.delete(key);
			return { tookMs: end - mine.startedAt, skipped: mine.skipped };
		},
	};
}

/** Runs `check` when it is this trigger's turn; `undefined` (and `onSkipped`) when it is not. */
export async function oneAtATime<T>(
	key: string,
	clock: () => number,
	check: () => Promise<T>,
	report: {
		onSkipped: (runningForMs: number, skipped: number) => void;
		onSlow: (tookMs: number, skipped: number) => void;
	},
): Promise<T | undefined> {
	const turn = takeTurn(key, clock());
	if (!turn.granted) {
		report.onSkipped(clock() - turn.startedAt, turn.skipped);
		return undefined;
	}
	try {
		return await check();
	} finally {
		const { tookMs, skipped } = turn.release(clock());
		if (skipped > 0) report.onSlow(tookMs, skipped);
	}
}
