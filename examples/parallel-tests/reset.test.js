// 25 tests that put their account back as created between two steps, without logging anyone
// out: the key keeps working and every other account stays as it was.
const { admin, newAccount } = require('./helpers');

const cases = Array.from({ length: 25 }, (_, i) => ({ i }));

test.each(cases)('test $i: a reset empties its own account only', async ({ i }) => {
	const account = await newAccount({ credits: 100 });
	const other = await newAccount({ credits: 100 });
	const search = { niche: 'roofer', city: 'Denver', count: 3 };
	for (const who of [account, other]) {
		expect((await who.search(search)).status).toBe(200);
		await who.createInboxes({
			emailAddress: `reset${i}@gmail.com`,
			imapPassword: 'pw',
			skipConnectionTest: true,
		});
	}
	const charged = 100 - (await admin.accounts.get(other.accountId)).credits;

	expect(await admin.accounts.reset(account.accountId)).toMatchObject({
		credits: 100,
		contactCount: 0,
	});
	expect((await account.listInboxes()).body.pagination.total).toBe(0);
	expect(await admin.requests.count({ accountId: account.accountId })).toBe(1); // the listing above
	// The same search finds the same leads again: nothing of the account's is left to dedup against.
	expect((await account.search(search)).body.chargedCredits).toBe(charged);
	expect(await admin.accounts.get(other.accountId)).toMatchObject({
		credits: 100 - charged,
		contactCount: charged,
	});
	expect((await other.listInboxes()).body.pagination.total).toBe(1);
	// A request made later by another process, waited for on the server's live events.
	setTimeout(() => void other.listInboxes('?limit=7'), 100);
	await admin.requests.waitFor({ accountId: other.accountId, query: { limit: '7' } });
});
