// 25 tests that each make their own search fail, while the other workers search on the same
// server: a fault scoped to an account never reaches another test.
const { admin, newAccount } = require('./helpers');

const cases = Array.from({ length: 25 }, (_, i) => ({ i, status: [500, 502, 503][i % 3] }));

test.each(cases)(
	'test $i: its own search fails with $status, then succeeds; nobody else is touched',
	async ({ status }) => {
		const account = await newAccount();
		const bystander = await newAccount();
		const search = { niche: 'dentist', city: 'Austin, TX', count: 2 };
		await admin.faults.arm({
			route: 'POST /api/v1/niche-finder-leads',
			accountId: account.accountId,
			status,
		});
		expect((await bystander.search(search)).status).toBe(200);
		expect((await account.search(search)).status).toBe(status);
		expect((await account.search(search)).status).toBe(200);
		// The failed request kept its caller and body, so "retried with the same body" is checkable.
		await admin.requests.verify({ accountId: account.accountId, status, body: search });
		await admin.requests.verify({ accountId: account.accountId, body: search }, { times: 2 });
		expect((await admin.accounts.get(account.accountId)).credits).toBe(998);
	},
);
