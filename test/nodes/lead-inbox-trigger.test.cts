import { stopEngineTimers, TriggerPoller } from '../helpers/n8n.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';

/** The Lead Inbox Trigger polled as n8n polls it, against the reference server. */
describe('Lead Inbox Trigger', () => {
	let server: TestServer;
	beforeAll(async () => {
		server = await startServer();
	});
	afterAll(async () => {
		await server.close();
		stopEngineTimers();
	});

	/** A fresh account with `count` inboxes in one new pool (no connection test). */
	const account = async (count: number, prefix = 'box') => {
		const { accountId, apiKey } = await server.newAccount();
		if (count) await server.fillInboxes(apiKey, count, prefix);
		const credentials = {
			apiKey,
			leadsBaseUrl: server.url,
			inboxBaseUrl: `${server.url}/api/v1`,
		};
		const setStatus = async (inbox: string, status: string) => {
			const res = await server.admin('PATCH', `/accounts/${accountId}/inboxes/${inbox}`, {
				status,
			});
			expect(res.status).toBe(200);
			return res.body;
		};
		const pools = async () =>
			(await server.call('GET', '/api/v1/pools', { key: apiKey })).body.pools as {
				id: string;
				name: string;
			}[];
		return { accountId, apiKey, credentials, setStatus, pools };
	};
	const statusChanged = (extra: Record<string, unknown> = {}) => ({
		event: 'inboxStatusChanged',
		statuses: ['error', 'paused'],
		...extra,
	});

	it('records on the first check, then outputs one item per change to a watched status', async () => {
		const { credentials, setStatus, pools } = await account(3);
		const trigger = new TriggerPoller(statusChanged(), credentials);
		await setStatus('box0@gmail.com', 'error');
		expect(await trigger.poll()).toBeNull(); // what exists already is not news
		expect(await trigger.poll()).toBeNull(); // nothing changed

		const changed = await setStatus('box1@gmail.com', 'error');
		const [pool] = await pools();
		const items = await trigger.poll();
		expect(items).toEqual([
			{
				event: 'inboxStatusChanged',
				...changed,
				status: 'error',
				previousStatus: 'active',
				poolName: pool.name,
				seenAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
			},
		]);
		expect(await trigger.poll()).toBeNull(); // reported once

		// A change to an unwatched status is recorded, so the next one reports where it came from.
		await setStatus('box2@gmail.com', 'deactivated');
		expect(await trigger.poll()).toBeNull();
		await setStatus('box2@gmail.com', 'paused');
		await setStatus('box0@gmail.com', 'active');
		const next = await trigger.poll();
		expect(next?.map((i) => [i.emailAddress, i.previousStatus, i.status])).toEqual([
			['box2@gmail.com', 'deactivated', 'paused'],
		]);
	});

	it('outputs a change to any status when New Status is left empty, and new inboxes are not changes', async () => {
		const { credentials, setStatus, apiKey } = await account(2);
		const trigger = new TriggerPoller(statusChanged({ statuses: [] }), credentials);
		expect(await trigger.poll()).toBeNull();
		await server.fillInboxes(apiKey, 1, 'later');
		await setStatus('box0@gmail.com', 'deactivated');
		expect((await trigger.poll())?.map((i) => [i.emailAddress, i.status])).toEqual([
			['box0@gmail.com', 'deactivated'],
		]);
	});

	it('watches one pool when Pool is set', async () => {
		const { credentials, setStatus, apiKey, pools } = await account(2, 'first');
		await server.fillInboxes(apiKey, 2, 'second');
		const second = (await pools())[1];
		const trigger = new TriggerPoller(
			statusChanged({ poolId: { __rl: true, mode: 'list', value: second.id } }),
			credentials,
		);
		expect(await trigger.poll()).toBeNull();
		await setStatus('first0@gmail.com', 'error');
		await setStatus('second1@gmail.com', 'error');
		expect(await trigger.poll()).toEqual([
			expect.objectContaining({ emailAddress: 'second1@gmail.com', poolName: second.name }),
		]);
	});

	it('New Inbox and New Pool: one item per inbox or pool added since the last check', async () => {
		const { credentials, apiKey, pools } = await account(1, 'old');
		const inboxes = new TriggerPoller({ event: 'newInbox' }, credentials);
		const poolTrigger = new TriggerPoller({ event: 'newPool' }, credentials);
		expect(await inboxes.poll()).toBeNull();
		expect(await poolTrigger.poll()).toBeNull();
		await server.fillInboxes(apiKey, 2, 'new');
		const newPool = (await pools())[1];
		expect((await inboxes.poll())?.map((i) => [i.event, i.emailAddress, i.poolName])).toEqual([
			['newInbox', 'new0@gmail.com', newPool.name],
			['newInbox', 'new1@gmail.com', newPool.name],
		]);
		expect(await poolTrigger.poll()).toEqual([
			{ event: 'newPool', ...newPool, inboxCount: 2, seenAt: expect.any(String) },
		]);
		expect(await inboxes.poll()).toBeNull();
		expect(await poolTrigger.poll()).toBeNull();
	});

	it('starts over when the event or pool changes, instead of reporting against another record', async () => {
		const { credentials, setStatus } = await account(2);
		const trigger = new TriggerPoller(statusChanged(), credentials);
		expect(await trigger.poll()).toBeNull();
		const other = new TriggerPoller({ event: 'newInbox' }, credentials);
		Object.assign(other.staticData, JSON.parse(JSON.stringify(trigger.staticData)));
		expect(await other.poll()).toBeNull(); // a status record is not an inbox list
		await setStatus('box0@gmail.com', 'error');
		expect(await trigger.poll()).toHaveLength(1);
	});

	it("starts over when the pool changes: the other pool's inboxes are not news", async () => {
		const { credentials, apiKey, pools } = await account(2, 'first');
		await server.fillInboxes(apiKey, 2, 'second');
		const [first, second] = await pools();
		const inPool = (pool: { id: string }) => ({
			event: 'newInbox',
			poolId: { __rl: true, mode: 'id', value: pool.id },
		});
		const before = new TriggerPoller(inPool(first), credentials);
		expect(await before.poll()).toBeNull();
		// The same node, its Pool changed to the second one: n8n keeps the node's static data.
		const after = new TriggerPoller(inPool(second), credentials);
		Object.assign(after.staticData, JSON.parse(JSON.stringify(before.staticData)));
		expect(await after.poll()).toBeNull(); // second0 and second1 existed already
		const created = await server.call('POST', '/api/v1/inboxes', {
			key: apiKey,
			body: {
				emailAddress: 'second-new@gmail.com',
				imapPassword: 'pw',
				poolId: second.id,
				skipConnectionTest: true,
			},
		});
		expect(created.status).toBe(200);
		expect((await after.poll())?.map((i) => i.emailAddress)).toEqual(['second-new@gmail.com']);
	});

	it('keeps the changes for the next check when the pool names cannot be read', async () => {
		const { credentials, setStatus } = await account(2);
		const trigger = new TriggerPoller(statusChanged(), credentials);
		expect(await trigger.poll()).toBeNull();
		await setStatus('box1@gmail.com', 'paused');
		await server.admin('POST', '/faults', { route: 'GET /api/v1/pools', times: 1, status: 500 });
		await expect(trigger.poll()).rejects.toThrow(/inbox service/);
		expect((await trigger.poll())?.map((i) => i.emailAddress)).toEqual(['box1@gmail.com']);
	});

	it('pages through every inbox each check, and writes its record only when something changed', async () => {
		const { credentials, setStatus, accountId } = await account(0);
		// 2,500 inboxes: three pages of up to 1000.
		const keys = await Promise.all(
			[0, 1, 2].map(
				async () => (await server.admin('POST', `/accounts/${accountId}/keys`, {})).body.apiKey,
			),
		);
		await Promise.all(keys.map((key, k) => server.fillInboxes(key, k < 2 ? 1000 : 500, `k${k}-`)));
		const trigger = new TriggerPoller(statusChanged(), credentials);
		const pages = () => server.requestCount('GET', '/api/v1/inboxes');
		let before = pages();
		expect(await trigger.poll()).toBeNull();
		expect(pages() - before).toBe(3);
		const size = JSON.stringify(trigger.record).length;
		// IDs only: a small part of the 2,500 inboxes' listing (~170 bytes each).
		expect(size).toBeLessThan(2500 * 40);

		// n8n saves static data after a check only when its __dataChanged flag was set.
		trigger.staticData.__dataChanged = false;
		before = pages();
		expect(await trigger.poll()).toBeNull();
		expect(pages() - before).toBe(3);
		expect(trigger.staticData.__dataChanged).toBe(false);
		await setStatus('k2-499@gmail.com', 'error');
		expect((await trigger.poll())?.map((i) => i.emailAddress)).toEqual(['k2-499@gmail.com']);
		expect(trigger.staticData.__dataChanged).toBe(true);
	});

	describe('Fetch Test Event (manual mode)', () => {
		it('returns a real inbox of a watched status, without touching the record', async () => {
			const { credentials, setStatus, pools } = await account(3);
			await setStatus('box1@gmail.com', 'paused');
			const trigger = new TriggerPoller(statusChanged(), credentials);
			const [example] = (await trigger.poll('manual'))!;
			expect(example).toMatchObject({
				event: 'inboxStatusChanged',
				emailAddress: 'box1@gmail.com',
				status: 'paused',
				previousStatus: null,
				poolName: (await pools())[0].name,
			});
			expect(trigger.staticData).toEqual({});
			const pool = new TriggerPoller({ event: 'newPool' }, credentials);
			expect((await pool.poll('manual'))![0]).toMatchObject({ event: 'newPool', inboxCount: 3 });
		});

		it('says what to do when the account has nothing to show', async () => {
			const { credentials } = await account(0);
			await expect(
				new TriggerPoller({ event: 'newInbox' }, credentials).poll('manual'),
			).rejects.toThrow('The account has no inbox yet to show as an example');
		});
	});
});
