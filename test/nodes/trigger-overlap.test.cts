import { takeTurn } from '../../nodes/LeadInboxTrigger/oneAtATime';
import { stopEngineTimers, TriggerPoller } from '../helpers/n8n.cjs';
import { type OtherService, type Reply, startOtherService } from '../helpers/other-service.cjs';

/*
 * n8n calls a polling node on every tick of its schedule without waiting for the previous call.
 * A check that outlasts the interval must not run beside the next one (both would report the same
 * change): the later tick is skipped, said in n8n's log, and the next check after the slow one
 * reports whatever happened, once. The inbox service here holds a page until the test lets it go,
 * so "a check still running" is a state the test waits for, not a race against a timer.
 */

let service: OtherService;
beforeAll(async () => {
	service = await startOtherService();
});
afterAll(async () => {
	await service.close();
	stopEngineTimers();
});

/** An account of inboxes, listed two to a page; `hold()` keeps the next page until released. */
function account(count: number) {
	const inboxes = Array.from({ length: count }, (_, n) => ({
		id: `inbox_${n}`,
		emailAddress: `box${n}@gmail.com`,
		poolId: 'pool_1',
		status: 'active',
		createdAt: new Date(Date.now() - 86_400_000).toISOString(),
	}));
	let held: { arrived: () => void; answer: Promise<Reply | undefined> } | undefined;
	service.reset();
	service.on('GET /api/v1/inboxes', async (request) => {
		const skip = Number(request.query.get('skip') ?? 0);
		const page = inboxes.slice(skip, skip + 2);
		const hold = held;
		held = undefined;
		if (hold) {
			hold.arrived();
			const instead = await hold.answer;
			if (instead) return instead;
		}
		return {
			json: {
				inboxes: structuredClone(page),
				pagination: { total: inboxes.length, limit: 2, skip, hasMore: skip + 2 < inboxes.length },
			},
		};
	});
	service.on('GET /api/v1/pools', {
		json: {
			pools: [
				{ id: 'pool_1', name: 'Outreach', inboxCount: count, createdAt: '2026-01-01T00:00:00Z' },
			],
		},
	});
	return {
		inboxes,
		/** The next page waits until released (with the page, or `instead`); `asked` when it was asked for. */
		hold: () => {
			let release!: (instead?: Reply) => void;
			let arrived!: () => void;
			const answer = new Promise<Reply | undefined>((resolve) => (release = resolve));
			const asked = new Promise<void>((resolve) => (arrived = resolve));
			held = { arrived, answer };
			return { asked, release };
		},
	};
}

const listings = () => service.requests.filter((r) => r.path === '/api/v1/inboxes').length;
const statusChanged = { event: 'inboxStatusChanged', statuses: [] };

describe('Lead Inbox Trigger: one check at a time', () => {
	it('skips a tick while its previous check runs, then reports the change once', async () => {
		const { inboxes, hold } = account(5);
		const trigger = new TriggerPoller(statusChanged, service.credentials());
		expect(await trigger.poll()).toBeNull();

		inboxes[4].status = 'error';
		const page = hold();
		const slow = trigger.poll();
		await page.asked;
		const before = listings();
		// Two ticks while the slow check waits on its first page: neither lists anything.
		expect(await trigger.poll()).toBeNull();
		expect(await trigger.poll()).toBeNull();
		expect(listings()).toBe(before);
		expect(trigger.logged.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
			expect.stringMatching(
				/^Lead Inbox Trigger "Lead Inbox Trigger": a check was skipped, as the previous one is still running \(for \d+\.\d s\)\. Set a longer interval in Poll Times, or pick a Pool/,
			),
			expect.stringContaining('a check was skipped'),
		]);

		page.release();
		const reported = await slow;
		expect(reported?.map((i) => [i.emailAddress, i.previousStatus, i.status])).toEqual([
			['box4@gmail.com', 'active', 'error'],
		]);
		expect(trigger.logged.at(-1)).toEqual({
			level: 'warn',
			message: expect.stringMatching(
				/a check took \d+\.\d s, longer than the time between checks \(2 skipped meanwhile\)\. Set a longer interval/,
			),
		});
		// The next check runs again, and the change is not news twice.
		expect(await trigger.poll()).toBeNull();
		expect(listings()).toBeGreaterThan(before);
	});

	it('a check that fails gives the turn back: the next one runs and reports', async () => {
		const { inboxes, hold } = account(3);
		const trigger = new TriggerPoller({ event: 'newInbox' }, service.credentials(), {
			workflowId: 'failing',
		});
		expect(await trigger.poll()).toBeNull();
		inboxes.push({
			...inboxes[0],
			id: 'inbox_new',
			emailAddress: 'new@gmail.com',
			createdAt: new Date().toISOString(),
		});
		const page = hold();
		const failing = trigger.poll();
		await page.asked;
		page.release({ status: 503, json: { error: 'Service unavailable' } });
		await expect(failing).rejects.toThrow(/503|unavailable/i);
		expect((await trigger.poll())?.map((i) => i.emailAddress)).toEqual(['new@gmail.com']);
	});

	it('two triggers (other nodes or workflows) check side by side', async () => {
		const { hold } = account(2);
		const one = new TriggerPoller(statusChanged, service.credentials(), { workflowId: 'w1' });
		const other = new TriggerPoller(statusChanged, service.credentials(), { workflowId: 'w2' });
		const page = hold();
		const first = one.poll();
		await page.asked;
		// The other trigger is not held back by the first one's running check.
		expect(await other.poll()).toBeNull();
		expect(other.logged).toEqual([]);
		page.release();
		expect(await first).toBeNull();
	});

	it('Fetch Test Event is not a check: it runs while a check runs, and leaves the turn alone', async () => {
		const { hold } = account(2);
		const trigger = new TriggerPoller(statusChanged, service.credentials(), {
			workflowId: 'manual',
		});
		expect(await trigger.poll()).toBeNull();
		const page = hold();
		const running = trigger.poll();
		await page.asked;
		expect(await trigger.poll('manual')).toHaveLength(1);
		page.release();
		expect(await running).toBeNull();
		expect(trigger.logged).toEqual([]);
	});
});

describe('takeTurn (the rule, without n8n)', () => {
	it('grants one turn per trigger at a time, counts the skipped ticks, and gives it back once', () => {
		const first = takeTurn('w|a', 1000);
		expect(first.granted).toBe(true);
		expect(takeTurn('w|a', 1500)).toEqual({ granted: false, startedAt: 1000, skipped: 1 });
		expect(takeTurn('w|a', 1600)).toEqual({ granted: false, startedAt: 1000, skipped: 2 });
		const elsewhere = takeTurn('w|b', 1600);
		expect(elsewhere.granted).toBe(true);
		if (!first.granted || !elsewhere.granted) throw new Error('not granted');
		expect(first.release(4000)).toEqual({ tookMs: 3000, skipped: 2 });
		const next = takeTurn('w|a', 4100);
		expect(next.granted).toBe(true);
		// Releasing an old turn again does not end the new one.
		first.release(4200);
		expect(takeTurn('w|a', 4300).granted).toBe(false);
		if (next.granted) next.release(4400);
		elsewhere.release(4400);
		const last = takeTurn('w|a', 4500);
		expect(last.granted).toBe(true);
		if (last.granted) last.release(4600);
	});
});
