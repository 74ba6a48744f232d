// 25 inbox tests: creation, listing, and one page of a walk failing, each on its own account.
const { admin, newAccount } = require('./helpers');

const cases = Array.from({ length: 25 }, (_, i) => ({ i, count: 3 + (i % 4) }));

test.each(cases)(
	'test $i: creates $count inboxes, lists them, and survives a failed second page',
	async ({ i, count }) => {
		const account = await newAccount();
		const entries = Array.from({ length: count }, (_, k) => ({
			emailAddress: `t${i}-inbox${k}@gmail.com`,
			imapPassword: 'app-password',
			skipConnectionTest: true,
		}));
		const created = await account.createInboxes(entries);
		expect(created.body.summary).toEqual({ total: count, created: count, failed: 0 });

		await admin.faults.arm({
			route: 'GET /api/v1/inboxes',
			accountId: account.accountId,
			match: { query: { skip: '2' } },
			status: 502,
		});
		expect((await account.listInboxes('?limit=2&skip=0')).status).toBe(200);
		expect((await account.listInboxes('?limit=2&skip=2')).status).toBe(502);
		const page = await account.listInboxes('?limit=2&skip=2');
		expect(page.body.pagination).toMatchObject({ total: count, skip: 2 });
		await admin.requests.verify(
			{ accountId: account.accountId, path: '/api/v1/inboxes', query: { skip: '2' } },
			{ times: 2 },
		);
	},
);
