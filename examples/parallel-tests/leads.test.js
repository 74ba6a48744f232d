// 25 lead searches, each on an account of its own: the charge is exactly what the account's
// ledger lost, and the journal holds exactly this test's one search.
const { admin, newAccount } = require('./helpers');

const NICHES = ['dentist', 'plumber', 'roofer', 'florist', 'bakery'];
const CITIES = ['Austin, TX', 'Denver', 'Seattle', 'Boston', 'Chicago'];
const cases = NICHES.flatMap((niche) => CITIES.map((city) => ({ niche, city })));

test.each(cases)(
	'a search for $niche in $city charges one credit per new lead',
	async ({ niche, city }) => {
		const account = await newAccount({ credits: 50 });
		const answer = await account.search({ niche, city, count: 5 });
		expect(answer.status).toBe(200);
		expect(answer.body.chargedCredits).toBe(answer.body.contacts.length);
		expect((await admin.accounts.get(account.accountId)).credits).toBe(
			50 - answer.body.chargedCredits,
		);
		await admin.requests.verify({
			accountId: account.accountId,
			path: '/api/v1/niche-finder-leads',
			body: { niche, city, count: 5 },
		});
	},
);
