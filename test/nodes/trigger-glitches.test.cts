import type { IDataObject } from 'n8n-workflow';
import { compare, firstMemory } from '../../nodes/LeadInboxTrigger/compare';
import { keyOf } from '../../nodes/LeadInboxTrigger/keys';
import { stopEngineTimers, TriggerPoller } from '../helpers/n8n.cjs';
import {
	type Received,
	type Reply,
	startOtherService,
	type OtherService,
} from '../helpers/other-service.cjs';

/*
 * The Lead Inbox Trigger against a scripted inbox service that glitches between checks the ways
 * real deployments do and the specs leave open: empty or partial lists, lists shorter than their
 * own total, other orders, lists that change while they are paged, pages that fail part-way. Each
 * test plays several checks and asserts that nothing that existed all along is announced, that
 * what really happened is announced once, and that a check that cannot tell says so.
 */

interface Inbox {
	id: string;
	emailAddress: string;
	poolId: string;
	status: string;
	dailySendingLimit: number;
	createdAt: string;
}

/** What the service lists this time, from the account's inboxes in the spec's order. */
type View = (inboxes: Inbox[], request: Received, page: number) => Reply;

const DAY = 24 * 60 * 60 * 1000;
/** Pages of at most this many: a small account still takes several pages. */
const PAGE_CAP = 2;

/** A normal page of `list` for the request's skip, capped, with the service's pagination. */
function pageOf(list: Inbox[], request: Received, total = list.length): Reply {
	const skip = Number(request.query.get('skip') ?? 0);
	const limit = Math.min(Number(request.query.get('limit') ?? 100), PAGE_CAP);
	const inboxes = list.slice(skip, skip + limit);
	return {
		json: { inboxes, pagination: { total, limit, skip, hasMore: skip + inboxes.length < total } },
	};
}

const normal: View = (inboxes, request) => pageOf(inboxes, request);

class Account {
	inboxes: Inbox[] = [];
	private next = 0;
	/** The view of the next listing (one check), then back to normal. */
	private views: View[] = [];
	private pagesThisCheck = 0;

	constructor(service: OtherService) {
		service.on('GET /api/v1/inboxes', (request) => {
			const view = this.views[0] ?? normal;
			const reply = view(this.inboxes, request, ++this.pagesThisCheck);
			return reply;
		});
		service.on('GET /api/v1/pools', () => ({
			json: {
				pools: [
					{
						id: 'pool_1',
						name: 'Outreach',
						inboxCount: this.inboxes.length,
						createdAt: this.old(),
					},
				],
			},
		}));
	}

	/** A createdAt `ago` ms before now. */
	old(ago = 30 * DAY) {
		return new Date(Date.now() - ago).toISOString();
	}

	add(count: number, createdAt = new Date().toISOString()): Inbox[] {
		const added = Array.from({ length: count }, () => {
			const n = this.next++;
			return {
				id: `inbox_${String(n).padStart(4, '0')}`,
				emailAddress: `box${n}@gmail.com`,
				poolId: 'pool_1',
				status: 'active',
				dailySendingLimit: 2,
				createdAt,
			};
		});
		this.inboxes.push(...added);
		return added;
	}

	remove(id: string) {
		this.inboxes = this.inboxes.filter((inbox) => inbox.id !== id);
	}

	setStatus(id: string, status: string) {
		const inbox = this.inboxes.find((i) => i.id === id)!;
		inbox.status = status;
	}

	/** The next check is listed through `view`; later ones normally. */
	glitch(view: View) {
		this.views = [view];
	}

	/** Called after each check: the next one starts from page 1 with the normal view. */
	checked() {
		this.views.shift();
		this.pagesThisCheck = 0;
	}
}

let service: OtherService;
beforeAll(async () => {
	service = await startOtherService();
});
afterEach(() => service.reset());
afterAll(async () => {
	await service.close();
	stopEngineTimers();
});

/** An event in short: "address", or "address:before>after" for a status change. */
function summary(event: IDataObject): string {
	const [address, before, after] = [event.emailAddress, event.previousStatus, event.status].map(
		(value) => (typeof value === 'string' ? value : ''),
	);
	return before ? `${address}:${before}>${after}` : address;
}

/** A trigger over a fresh scripted account of `count` inboxes created a month ago. */
function setup(parameters: IDataObject, count = 5) {
	const account = new Account(service);
	account.add(count, account.old());
	const trigger = new TriggerPoller(parameters, service.credentials());
	/** One check: its items (emails), null when quiet; a thrown error is returned as such. */
	const check = async (): Promise<string[] | null | Error> => {
		try {
			const items = await trigger.poll();
			return items ? items.map(summary) : null;
		} catch (error) {
			return error as Error;
		} finally {
			account.checked();
		}
	};
	return { account, trigger, check };
}

const NEW_INBOX = { event: 'newInbox' };
const STATUS = { event: 'inboxStatusChanged', statuses: [] };

describe('Lead Inbox Trigger: a check whose listing lies', () => {
	it('an empty listing says it cannot tell, and the inboxes are not news when they are back', async () => {
		for (const parameters of [NEW_INBOX, STATUS]) {
			const { account, check } = setup(parameters);
			expect(await check()).toBeNull();
			account.glitch((_, request) => pageOf([], request));
			const doubted = await check();
			expect(doubted).toBeInstanceOf(Error);
			expect((doubted as Error).message).toMatch(
				'The inbox service listed 0 of the 5 inboxes this trigger follows: it cannot tell an outage from a removal',
			);
			expect(await check()).toBeNull();
			expect(await check()).toBeNull();
		}
	});

	it('a maintenance page answering 200 fails the check without touching the memory', async () => {
		const { account, check } = setup(NEW_INBOX);
		expect(await check()).toBeNull();
		account.glitch(() => ({
			html: '<!DOCTYPE html><html><body>Down for maintenance</body></html>',
		}));
		expect(await check()).toBeInstanceOf(Error);
		const [added] = account.add(1);
		expect(await check()).toEqual([added.emailAddress]);
		expect(await check()).toBeNull();
	});

	it('a partial listing (a few left out, no error) makes nothing news when they return', async () => {
		for (const parameters of [NEW_INBOX, STATUS]) {
			const { account, check } = setup(parameters, 8);
			expect(await check()).toBeNull();
			account.glitch((inboxes, request) => pageOf(inboxes.slice(0, 6), request));
			expect(await check()).toBeNull();
			expect(await check()).toBeNull();
		}
	});

	it('a listing shorter than its own total is read twice, and what it left out is not news later', async () => {
		const { account, check } = setup(NEW_INBOX, 6);
		expect(await check()).toBeNull();
		const pages = () => service.requests.filter((r) => r.path === '/api/v1/inboxes').length;
		const before = pages();
		// Says 6, lists 4: the two at the end are never there in this check.
		account.glitch((inboxes, request) => pageOf(inboxes.slice(0, 4), request, 6));
		expect(await check()).toBeNull();
		// Two passes of three pages (the third is the empty one the service says more is in).
		expect(pages() - before).toBe(2 * 3);
		expect(await check()).toBeNull();
	});

	it('newest first, or no stable order, changes nothing', async () => {
		const { account, check } = setup(STATUS, 7);
		expect(await check()).toBeNull();
		account.glitch((inboxes, request) => pageOf([...inboxes].reverse(), request));
		expect(await check()).toBeNull();
		// A different shuffle for every page: pages overlap and leave some out.
		let seed = 7;
		const shuffled = (list: Inbox[]) =>
			[...list].sort(() => ((seed = (seed * 16807) % 2147483647) % 3) - 1);
		account.glitch((inboxes, request) => pageOf(shuffled(inboxes), request));
		expect(await check()).toBeNull();
		expect(await check()).toBeNull();
		account.setStatus('inbox_0003', 'error');
		expect(await check()).toEqual(['box3@gmail.com:active>error']);
	});

	it('an inbox removed or created between two pages: nothing false, the new one once', async () => {
		const { account, check } = setup(NEW_INBOX, 6);
		expect(await check()).toBeNull();
		// After page 1 the first inbox is removed: the rest shift up by one.
		account.glitch((inboxes, request, page) => {
			if (page === 2) account.remove('inbox_0000');
			return pageOf(account.inboxes, request);
		});
		expect(await check()).toBeNull();
		expect(await check()).toBeNull();

		// Newest first, and one created after page 1: every later page repeats one.
		let created: Inbox | undefined;
		account.glitch((_, request, page) => {
			if (page === 2) [created] = account.add(1);
			return pageOf([...account.inboxes].reverse(), request);
		});
		const during = await check();
		const after = await check();
		// Announced once: in the check that saw it, or the next one.
		expect([during, after].filter((items) => items !== null)).toEqual([[created!.emailAddress]]);
		expect(await check()).toBeNull();
	});

	it.each([
		['401', { status: 401, json: { error: 'Invalid API key' } }],
		['403', { status: 403, json: { error: 'Missing permission inboxes:read' } }],
		['404', { status: 404, json: { error: 'Not found' } }],
		['429', { status: 429, headers: { 'retry-after': '1' }, json: { error: 'Slow down' } }],
		['500', { status: 500, json: { error: 'Internal server error' } }],
		['503 page', { status: 503, html: '<html><body>Service Unavailable</body></html>' }],
		['non-JSON 200', { text: 'OK' }],
	] as [string, Reply][])(
		'a page failing part-way (%s) fails the check and loses nothing',
		async (_, reply) => {
			const { account, check } = setup(STATUS, 6);
			expect(await check()).toBeNull();
			account.setStatus('inbox_0001', 'paused');
			account.glitch((inboxes, request, page) => (page === 2 ? reply : pageOf(inboxes, request)));
			expect(await check()).toBeInstanceOf(Error);
			expect(await check()).toEqual(['box1@gmail.com:active>paused']);
			expect(await check()).toBeNull();
		},
	);

	it('a page that never comes times out, and the next check reports what happened', async () => {
		const account = new Account(service);
		account.add(4, account.old());
		const trigger = new TriggerPoller(
			{ ...NEW_INBOX, options: { timeoutSeconds: 1 } },
			service.credentials(),
		);
		expect(await trigger.poll()).toBeNull();
		account.checked();
		account.glitch((inboxes, request, page) =>
			page === 2 ? { stall: true } : pageOf(inboxes, request),
		);
		const [added] = account.add(1);
		await expect(trigger.poll()).rejects.toThrow('did not answer within 1 s');
		account.checked();
		expect((await trigger.poll())?.map((i) => i.emailAddress)).toEqual([added.emailAddress]);
	});
});

describe('Lead Inbox Trigger: nothing lost', () => {
	it('an inbox created during an empty-list glitch is announced once, when it is listed', async () => {
		const { account, check } = setup(NEW_INBOX);
		expect(await check()).toBeNull();
		const [added] = account.add(1);
		account.glitch((_, request) => pageOf([], request));
		expect(await check()).toBeInstanceOf(Error);
		expect(await check()).toEqual([added.emailAddress]);
		expect(await check()).toBeNull();
	});

	it('a real status change around an empty-list glitch is announced once; one that changed back is not', async () => {
		const { account, check } = setup({ event: 'inboxStatusChanged', statuses: ['error'] });
		expect(await check()).toBeNull();
		account.setStatus('inbox_0002', 'error');
		account.glitch((_, request) => pageOf([], request));
		expect(await check()).toBeInstanceOf(Error);
		expect(await check()).toEqual(['box2@gmail.com:active>error']);
		account.setStatus('inbox_0004', 'error');
		account.setStatus('inbox_0004', 'active');
		expect(await check()).toBeNull();
	});

	it('a status change of an inbox that a partial listing left out is announced when it is back', async () => {
		const { account, check } = setup(STATUS, 6);
		expect(await check()).toBeNull();
		account.glitch((inboxes, request) => pageOf(inboxes.slice(1), request));
		expect(await check()).toBeNull();
		account.setStatus('inbox_0000', 'deactivated');
		expect(await check()).toEqual(['box0@gmail.com:active>deactivated']);
	});

	it('when most of the account is really removed, it says so for a few checks, then follows the new list', async () => {
		const { account, check } = setup(NEW_INBOX, 6);
		expect(await check()).toBeNull();
		for (const id of ['inbox_0000', 'inbox_0001', 'inbox_0002', 'inbox_0003']) account.remove(id);
		const doubted = [await check(), await check()];
		expect(doubted.map((d) => (d as Error).message)).toEqual([
			expect.stringContaining('listed 2 of the 6 inboxes'),
			expect.stringContaining('listed 2 of the 6 inboxes'),
		]);
		expect((doubted[0] as Error & { description: string }).description).toMatch(
			/so no inbox that existed all along is announced .*\(this was check 1\)/,
		);
		const [added] = account.add(1);
		// A new inbox changes the list: doubted again, and announced once the list is taken.
		expect(await check()).toBeInstanceOf(Error);
		expect(await check()).toBeInstanceOf(Error);
		expect(await check()).toEqual([added.emailAddress]);
		expect(await check()).toBeNull();
	});

	it('New Pool: an empty pool list is doubted, a new pool announced once', async () => {
		const account = new Account(service);
		const pools = [1, 2, 3, 4].map((n) => ({
			id: `pool_${n}`,
			name: `Pool ${n}`,
			createdAt: account.old(),
		}));
		let answer: { id: string; name: string; createdAt: string }[] = pools;
		service.on('GET /api/v1/pools', () => ({ json: { pools: answer } }));
		const trigger = new TriggerPoller({ event: 'newPool' }, service.credentials());
		expect(await trigger.poll()).toBeNull();
		answer = [];
		await expect(trigger.poll()).rejects.toThrow('listed 0 of the 4 pools');
		answer = [...pools, { id: 'pool_5', name: 'Pool 5', createdAt: new Date().toISOString() }];
		expect((await trigger.poll())?.map((p) => p.name)).toEqual(['Pool 5']);
		answer = [...pools].reverse().concat(answer.slice(4));
		expect(await trigger.poll()).toBeNull();
	});
});

describe('Lead Inbox Trigger: when the first check is the glitch', () => {
	it('inboxes older than the trigger are not news when a first empty check missed them', async () => {
		const { account, check } = setup(NEW_INBOX);
		account.glitch((_, request) => pageOf([], request));
		expect(await check()).toBeNull();
		const [added] = account.add(1);
		expect(await check()).toEqual([added.emailAddress]);
	});
});

describe('Lead Inbox Trigger memory (compare, without a service)', () => {
	const inbox = (n: number, createdAt = '2026-01-01T00:00:00.000Z') => ({
		id: `i${n}`,
		status: 'active',
		createdAt,
	});
	const base = { unsettled: false, groupOf: () => 'all', kind: 'new' as const, statuses: [] };

	it('forgets a missing inbox only after several trustworthy checks and a day', () => {
		const start = Date.parse('2026-06-01T00:00:00Z');
		let memory = firstMemory({ ...base, now: start, items: [inbox(1), inbox(2)] });
		const step = (now: number, items: object[], unsettled = false) => {
			const outcome = compare(memory, { ...base, now, items: items as never, unsettled });
			if (outcome.doubt) throw new Error('doubted');
			memory = outcome.memory;
			return outcome.changes;
		};
		const i2 = keyOf('i2');
		const missing = () => memory.missing.flatMap((m) => [...m.ids.keys()]);
		step(start + 1000, [inbox(1)]);
		expect(missing()).toEqual([i2]);
		// Over a day of unsettled listings (read short of their own count): they do not count.
		for (let k = 1; k <= 24; k++) step(start + k * 3_600_000, [inbox(1)], true);
		expect(missing()).toEqual([i2]);
		// Trustworthy ones do: the third forgets it.
		step(start + DAY + 1000, [inbox(1)]);
		expect(missing()).toEqual([i2]);
		step(start + DAY + 2000, [inbox(1)]);
		expect(missing()).toEqual([]);
		// Many trustworthy checks keep it for a day (24 h, as the README says) from the first miss,
		// and not a second longer.
		memory = firstMemory({ ...base, now: start, items: [inbox(1), inbox(2)] });
		for (let k = 1; k < 20; k++) step(start + k * 1000, [inbox(1)]);
		expect(missing()).toEqual([i2]);
		step(start + 1000 + DAY - 1, [inbox(1)]);
		expect(missing()).toEqual([i2]);
		step(start + 1000 + DAY, [inbox(1)]);
		expect(missing()).toEqual([]);
		// Back after it was forgotten: its createdAt says it is old, so still not news.
		expect(step(start + DAY + 7000, [inbox(1), inbox(2)])).toEqual([]);
		// A really new one is.
		const fresh = inbox(3, new Date(start + DAY).toISOString());
		expect(step(start + DAY + 8000, [inbox(1), inbox(2), fresh])).toEqual([{ item: fresh }]);
	});

	it('keeps at most 10,000 missing IDs (as the README says), the longest missing forgotten first', () => {
		const all = Array.from({ length: 30_000 }, (_, n) => inbox(n));
		const batch = 6_000;
		let memory = firstMemory({ ...base, now: 0, items: all });
		// Two removals, each a small enough share of the account not to be doubted.
		for (const [now, from] of [
			[1, batch],
			[2, 2 * batch],
		]) {
			const outcome = compare(memory, { ...base, now, items: all.slice(from) });
			if (outcome.doubt) throw new Error('doubted');
			memory = outcome.memory;
		}
		// 12,000 missing is over the bound: the first 6,000 are forgotten, the later 6,000 kept.
		expect(memory.missing.map((m) => [m.since, m.ids.size])).toEqual([[2, batch]]);
		// 10,000 exactly is within it.
		const outcome = compare(memory, { ...base, now: 3, items: all.slice(2 * batch + 4_000) });
		expect(outcome.memory.missing.map((m) => [m.since, m.ids.size])).toEqual([
			[2, batch],
			[3, 4_000],
		]);
	});
});
