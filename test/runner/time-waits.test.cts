import { TimeWaits } from '../../n8n-testkit/src/clock/time-waits.cjs';
import type { Rest } from '../../n8n-testkit/src/n8n/rest.cjs';

/**
 * A move of the case's clock passes time as the world does: each wait it passes ends at its own
 * instant, the earliest first, a wait for a request whose limit it passes times out there, and
 * what an execution does next (another wait) is judged against the move's end. n8n is played by
 * a fake here (its executions list, each execution, its WaitTracker's resume); the real one runs
 * the same in the workflow-runner suite (examples/cold-email-sequence).
 */
const T0 = Date.parse('2027-03-01T09:00:00Z');
const H = 3600_000;
const D = 24 * H;

interface Parked {
	node: { name: string; type: string; parameters: Record<string, unknown> };
	until: number;
	/** What it does once resumed: park again, or end. */
	then?: Parked;
}

const replyWait = {
	name: 'Wait for a reply',
	type: 'n8n-nodes-base.wait',
	parameters: { resume: 'webhook', limitWaitTime: true },
};
const onTime = (name: string) => ({ name, type: 'n8n-nodes-base.wait', parameters: { amount: 5 } });

function fakeN8n(parked: Record<string, Parked>) {
	let now = T0;
	const state = new Map(Object.entries(parked).map(([id, p]) => [id, p as Parked | undefined]));
	const resumedAt: { id: string; at: number }[] = [];
	const rest = (async (method: string, path: string) => {
		if (path.startsWith('/executions?'))
			return {
				status: 200,
				body: {
					data: {
						results: [...state]
							.filter(([, p]) => p)
							.map(([id]) => ({ id, workflowId: 'w1', status: 'waiting' })),
					},
				},
			};
		const id = path.split('/').pop()!;
		const p = state.get(id);
		return {
			status: 200,
			body: {
				data: {
					id,
					mode: 'webhook',
					startedAt: new Date(T0).toISOString(),
					status: p ? 'waiting' : 'success',
					waitTill: p ? new Date(p.until).toISOString() : null,
					workflowData: { nodes: p ? [p.node] : [] },
					data: JSON.stringify({ resultData: { runData: {}, lastNodeExecuted: p?.node.name } }),
				},
			},
		};
	}) as unknown as Rest;
	const clock = { now: () => now, set: async (ms: number) => void (now = ms) };
	const control = {
		resumeDue: async (ids: string[]) => {
			for (const id of ids) {
				resumedAt.push({ id, at: now });
				state.set(id, state.get(id)?.then);
			}
			return true;
		},
	};
	const waits = new TimeWaits({ rest, flatted: JSON, clock: control as never }, clock, () => [
		'w1',
	]);
	return { waits, clock, resumedAt, state };
}

describe('a move of the clock over waiting executions', () => {
	it('ends each wait it passes at its own instant, earliest first; a limit passed times out there', async () => {
		const { waits, clock, resumedAt, state } = fakeN8n({
			// Email 2 after a reply window of 2 hours, then a Wait of 5 days.
			'1': {
				node: replyWait,
				until: T0 + 2 * H,
				then: { node: onTime('Wait 5 days'), until: T0 + 2 * H + 5 * D },
			},
			// Another execution's Wait of one day.
			'2': { node: onTime('Wait 1 day'), until: T0 + D },
		});
		await waits.passTo(T0 + 3 * D);
		expect(resumedAt).toEqual([
			{ id: '1', at: T0 + 2 * H },
			{ id: '2', at: T0 + D },
		]);
		expect(clock.now()).toBe(T0 + 3 * D);
		expect(waits.skips.map(({ node, to, timeLimit }) => ({ node, to, timeLimit }))).toEqual([
			{ node: 'Wait for a reply', to: new Date(T0 + 2 * H).toISOString(), timeLimit: true },
			{ node: 'Wait 1 day', to: new Date(T0 + D).toISOString(), timeLimit: undefined },
		]);
		// A request after this finds nothing waiting: when it timed out is known.
		expect(waits.timedOutAt('1')).toBe(new Date(T0 + 2 * H).toISOString());
		expect(waits.timedOutAt('2')).toBeUndefined();
		// The Wait of 5 days it reached ends after the move: it still waits.
		expect(state.get('1')?.node.name).toBe('Wait 5 days');
	});

	it("a wait it reaches on the way that ends before the move's end resumes at that end too", async () => {
		const { waits, resumedAt } = fakeN8n({
			'1': {
				node: replyWait,
				until: T0 + 2 * D,
				then: { node: onTime('Wait 5 days'), until: T0 + 7 * D },
			},
		});
		await waits.passTo(T0 + 10 * D);
		expect(resumedAt).toEqual([
			{ id: '1', at: T0 + 2 * D },
			{ id: '1', at: T0 + 7 * D },
		]);
	});

	it('a wait with no limit (n8n parks it until the year 3000) is never passed', async () => {
		const { waits, resumedAt, clock } = fakeN8n({
			'1': { node: replyWait, until: Date.parse('3000-01-01T00:00:00Z') },
		});
		await waits.passTo(T0 + 30 * D);
		expect(resumedAt).toEqual([]);
		expect(clock.now()).toBe(T0 + 30 * D);
	});
});
