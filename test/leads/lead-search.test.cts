import { resolveCity } from '../../mock-server/src/leads/cities.cjs';
import { ScanCache } from '../../mock-server/src/leads/scan-cache.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';
import { WAIT_MS, waitUntil } from '../helpers/wait.cjs';

const PATH = '/api/v1/niche-finder-leads';
const CONTACT_KEYS = [
	'businessName',
	'address',
	'website',
	'email',
	'emails',
	'phone',
	'phone_numbers',
	'instagram',
	'facebook',
	'linkedin',
	'tiktok',
	'fbPixel',
	'tikTokPixel',
	'gAnalytics',
	'googleBusinessCategories',
].sort();

describe('lead search', () => {
	let server: TestServer;
	const search = (key: string, body: unknown) => server.call('POST', PATH, { key, body });
	const balance = async (accountId: string) =>
		(await server.admin('GET', `/accounts/${accountId}`)).body.credits as number;

	beforeAll(async () => {
		server = await startServer({ log: false, scanTimeout: 3000 });
	});
	afterAll(() => server.close());

	describe('authentication', () => {
		it('rejects a missing or invalid key, and an inactive account, with 401', async () => {
			expect(
				(await server.call('POST', PATH, { key: null, body: { niche: 'dentist', city: 'Austin' } }))
					.status,
			).toBe(401);
			expect((await search('lik_unknown', { niche: 'dentist', city: 'Austin' })).status).toBe(401);
			const { apiKey, accountId } = await server.newAccount({ active: false, credits: 50 });
			const res = await search(apiKey, { niche: 'dentist', city: 'Austin', count: 1 });
			expect(res.status).toBe(401);
			expect(await balance(accountId)).toBe(50);
		});
	});

	describe('validation (400)', () => {
		let key: string;
		beforeAll(async () => {
			key = (await server.newAccount()).apiKey;
		});

		it.each([
			[
				{ niche: 'dentist', city: 'Austin', tikTokPixel: true },
				'tikTokPixel',
				"Did you mean 'tiktokPixel'?",
			],
			[{ niche: 'dentist', city: 'Austin', count: '100' }, 'count', 'without quotes'],
			[{ niche: 'dentist', city: 'Austin', count: 10.5 }, 'count', 'must be an integer'],
			[{ niche: 'dentist', city: 'Austin', count: 0 }, 'count', 'at least 1'],
			[{ niche: 'dentist', city: 'Austin', count: 1001 }, 'count', 'at most 1000'],
			[{ city: 'Austin' }, 'niche', 'required'],
			[{ niche: 'dentist', city: '' }, 'city', 'must not be empty'],
			[{ niche: 'dentist', city: 'Austin', metaAds: 'yes' }, 'metaAds', 'true or false'],
		])('%j -> names %s', async (body, path, message) => {
			const res = await search(key, body);
			expect(res.status).toBe(400);
			expect(res.body.error).toContain(message);
			expect(res.body.details).toEqual(
				expect.arrayContaining([
					expect.objectContaining({ path, message: expect.stringContaining(message) }),
				]),
			);
		});

		it('says a count too large for a number is one, not "the number Infinity"', async () => {
			const res = await server.call('POST', '/api/v1/niche-finder-leads', {
				key,
				rawBody: '{"niche":"dentist","city":"Austin","count":1e400}',
				headers: { 'content-type': 'application/json' },
			});
			expect([res.status, res.body.details[0].message]).toEqual([
				400,
				'count must be a number, not a number too large to represent (it reads as Infinity).',
			]);
		});

		it('rejects a body that is not an object, and treats null as omitted', async () => {
			expect((await search(key, [1, 2])).status).toBe(400);
			const ok = await search(key, {
				niche: 'dentist',
				city: 'Austin',
				count: 1,
				metaAds: null,
				tiktokPixel: null,
				gAnalytics: null,
			});
			expect(ok.status).toBe(200);
		});

		it('answers 400 with the decided message for a city it cannot resolve, before looking at credits', async () => {
			const { apiKey, accountId } = await server.newAccount({ credits: 0 });
			const res = await search(apiKey, { niche: 'dentist', city: 'Atlantis' });
			expect(res.status).toBe(400);
			expect(res.body.error).toMatch(/^City 'Atlantis' could not be resolved to a location/);
			expect(await balance(accountId)).toBe(0);
		});

		it('suggests the nearest known city for a typo, within the given state or country', async () => {
			const { apiKey } = await server.newAccount();
			const cases: [string, string][] = [
				['Austn, TX', "Did you mean 'Austin, TX'?"],
				['Munchn', "Did you mean 'Munich, Germany'?"],
				['Portlnd, ME', "Did you mean 'Portland, ME'?"],
			];
			for (const [city, hint] of cases) {
				const res = await search(apiKey, { niche: 'dentist', city });
				expect(res.status).toBe(400);
				expect(res.body.error).toBe(`City '${city}' could not be resolved to a location. ${hint}`);
			}
			const none = await search(apiKey, { niche: 'dentist', city: 'Qqqzzx' });
			expect(none.body.error).toMatch(/Try "City, Country" or "City, State"/);
		});
	});

	it('resolves the decided city forms, ignoring case and accents', () => {
		const austin = resolveCity('Austin')!;
		expect(austin).toMatchObject({ name: 'Austin', iso2: 'US', regionCode: 'TX' });
		for (const form of ['Austin, TX', 'Austin, US', 'austin, texas', 'AUSTIN, USA'])
			expect(resolveCity(form)?.id).toBe(austin.id);
		const munich = resolveCity('München')!;
		expect(munich.iso2).toBe('DE');
		for (const form of ['Munchen', 'Muenchen', 'munich, de', 'MÜNCHEN, Germany'])
			expect(resolveCity(form)?.id).toBe(munich.id);
		expect(resolveCity('Austin, DE')).toBeUndefined();
		// ambiguous: the most populous match
		expect(resolveCity('Portland')?.regionCode).toBe('OR');
		expect(resolveCity('Portland, ME')?.regionCode).toBe('ME');
	});

	it('402 when the balance is below count, with the balance unchanged', async () => {
		const { apiKey, accountId } = await server.newAccount({ credits: 5 });
		const res = await search(apiKey, { niche: 'dentist', city: 'Austin', count: 6 });
		expect(res.status).toBe(402);
		expect(res.body.error).toContain('needs 6');
		expect(res.body.error).toContain('balance is 5');
		expect(await balance(accountId)).toBe(5);
	});

	it('404 when nothing exists for the niche and city, with the balance unchanged', async () => {
		const { apiKey, accountId } = await server.newAccount({ credits: 100 });
		for (const body of [
			{ niche: 'unicorn whisperer', city: 'Austin' },
			{ niche: 'sailmaker', city: 'Austin, TX', count: 3 },
		]) {
			const res = await search(apiKey, body);
			expect(res.status).toBe(404);
			expect(res.body.error).toMatch(/No businesses found/);
		}
		expect(await balance(accountId)).toBe(100);
	});

	it('returns contacts with exactly the spec fields and types, and charges what it added', async () => {
		const { apiKey, accountId } = await server.newAccount({ credits: 1000 });
		const res = await search(apiKey, { niche: 'dentists', city: 'Austin, TX', count: 60 });
		expect(res.status).toBe(200);
		const { contacts, chargedCredits } = res.body;
		expect(chargedCredits).toBe(contacts.length);
		expect(contacts.length).toBeGreaterThan(50);
		expect(await balance(accountId)).toBe(1000 - chargedCredits);
		for (const c of contacts) {
			expect(Object.keys(c).sort()).toEqual(CONTACT_KEYS);
			expect(typeof c.businessName).toBe('string');
			expect(c.email).toBe(c.emails[0] ?? null);
			expect(c.phone).toBe(c.phone_numbers[0] ?? null);
			for (const p of c.phone_numbers) expect(p).toMatch(/^\+1\d{10}$/);
			for (const f of ['fbPixel', 'tikTokPixel', 'gAnalytics'])
				expect([true, false, null]).toContain(c[f]);
			if (c.website === null)
				expect([c.fbPixel, c.tikTokPixel, c.gAnalytics]).toEqual([null, null, null]);
			for (const s of ['instagram', 'facebook', 'linkedin', 'tiktok'])
				if (c[s] !== null) expect(c[s]).toMatch(/^https:\/\//);
			expect(c.googleBusinessCategories.length).toBeGreaterThan(0);
		}
		const stored = (await server.admin('GET', `/accounts/${accountId}/contacts`)).body.contacts;
		expect(stored).toEqual(contacts);
	});

	it('dedups by email across calls and within a call', async () => {
		const { apiKey, accountId } = await server.newAccount({ credits: 1000 });
		const first = await search(apiKey, { niche: 'plumber', city: 'Austin', count: 20 });
		const again = await search(apiKey, { niche: 'plumber', city: 'Austin', count: 20 });
		expect(again.status).toBe(200);
		expect(again.body).toEqual({ contacts: [], chargedCredits: 0 });
		const more = await search(apiKey, { niche: 'plumbers', city: 'Austin, TX', count: 40 });
		const key = (c: { email: string | null; businessName: string }) =>
			c.email?.toLowerCase() ?? c.businessName;
		const firstKeys = new Set(first.body.contacts.map(key));
		expect(more.body.contacts.length).toBeGreaterThan(0);
		expect(
			more.body.contacts.some((c: { email: string | null; businessName: string }) =>
				firstKeys.has(key(c)),
			),
		).toBe(false);
		expect(await balance(accountId)).toBe(
			1000 - first.body.chargedCredits - more.body.chargedCredits,
		);

		// A big city has branch listings sharing an email: the same request counts them once.
		const big = await search(apiKey, { niche: 'restaurant', city: 'Austin', count: 400 });
		const emails = big.body.contacts
			.map((c: { email: string | null }) => c.email)
			.filter(Boolean)
			.map((e: string) => e.toLowerCase());
		expect(new Set(emails).size).toBe(emails.length);
		expect(big.body.chargedCredits).toBeLessThan(400);
		expect(big.body.chargedCredits).toBe(big.body.contacts.length);
	});

	it('applies each filter as a search criterion; false never returns an unscanned website', async () => {
		const cases: [string, boolean][] = [
			['metaAds', true],
			['metaAds', false],
			['tiktokPixel', true],
			['tiktokPixel', false],
			['gAnalytics', true],
			['gAnalytics', false],
		];
		const flag: Record<string, string> = {
			metaAds: 'fbPixel',
			tiktokPixel: 'tikTokPixel',
			gAnalytics: 'gAnalytics',
		};
		for (const [filter, value] of cases) {
			const { apiKey } = await server.newAccount({ credits: 1000 });
			const res = await search(apiKey, {
				niche: 'hair salon',
				city: 'Austin',
				count: 15,
				[filter]: value,
			});
			expect(res.status).toBe(200);
			expect(res.body.contacts.length).toBeGreaterThan(0);
			for (const c of res.body.contacts) expect(c[flag[filter]]).toBe(value);
		}
		const combined = await search((await server.newAccount()).apiKey, {
			niche: 'gym',
			city: 'Austin',
			count: 10,
			metaAds: true,
			gAnalytics: false,
		});
		expect(combined.body.contacts.length).toBeGreaterThan(0);
		for (const c of combined.body.contacts)
			expect([c.fbPixel, c.gAnalytics]).toEqual([true, false]);
	});

	it('answers 200 with nothing charged when filters leave nothing', async () => {
		const { apiKey, accountId } = await server.newAccount({ credits: 10 });
		const res = await search(apiKey, {
			niche: 'sailmaker',
			city: 'New York',
			count: 10,
			metaAds: true,
			tiktokPixel: true,
			gAnalytics: true,
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual({ contacts: [], chargedCredits: 0 });
		expect(await balance(accountId)).toBe(10);
	});

	it('500 when the contacts cannot be saved: nothing added, nothing charged', async () => {
		const { apiKey, accountId } = await server.newAccount({ credits: 30 });
		await server.admin('POST', '/faults', { target: 'leads.save', times: 1 });
		const failed = await search(apiKey, { niche: 'electrician', city: 'Austin', count: 10 });
		expect(failed.status).toBe(500);
		expect(failed.body.error).toMatch(/no credits were charged/);
		expect(await balance(accountId)).toBe(30);
		expect((await server.admin('GET', `/accounts/${accountId}`)).body.contactCount).toBe(0);
		const ok = await search(apiKey, { niche: 'electrician', city: 'Austin', count: 10 });
		expect(ok.status).toBe(200);
		expect(await balance(accountId)).toBe(30 - ok.body.chargedCredits);
	});

	it('a failure that is not the save (a bug in the ranked walk) is a generic 500, logged with the request, charging nothing', async () => {
		const logged = await startServer({ log: true });
		const broken = jest.spyOn(ScanCache.prototype, 'flags').mockImplementation(() => {
			throw new Error('the ranked walk broke');
		});
		try {
			const { apiKey, accountId } = await logged.newAccount({ credits: 30 });
			const failed = await fetch(`${logged.url}${PATH}`, {
				method: 'POST',
				headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
				body: JSON.stringify({ niche: 'plumber', city: 'Austin', count: 5 }),
			});
			expect(failed.status).toBe(500);
			// Not the save's words: nothing says the contacts could not be saved.
			expect(await failed.json()).toEqual({
				error: 'Internal server error; the request was not completed.',
			});
			const error = logged.logs.find((line) => line.includes('unhandled error'));
			expect(error && JSON.parse(error)).toMatchObject({
				level: 'error',
				id: expect.stringMatching(/^req-/),
				path: PATH,
				error: 'the ranked walk broke',
			});
			// The request's own log line carries the same id.
			const request = logged.logs.find(
				(line) => line.includes(`"path":"${PATH}"`) && line.includes('"status":500'),
			);
			expect(JSON.parse(request!).id).toBe(JSON.parse(error!).id);
			broken.mockRestore();
			expect((await logged.admin('GET', `/accounts/${accountId}`)).body).toMatchObject({
				credits: 30,
				contactCount: 0,
			});
		} finally {
			broken.mockRestore();
			await logged.close();
		}
	});

	it('a client that disconnects cancels the search (realistic latency) and is charged nothing', async () => {
		const slow = await startServer({ log: false, latency: 'realistic' });
		try {
			// 200 leads take 53 s with realistic latency (3 s + 0.25 s a lead): the disconnect
			// comes long before the search could end by itself.
			const { apiKey, accountId } = await slow.newAccount({ credits: 300 });
			const credits = async () => (await slow.admin('GET', `/accounts/${accountId}`)).body;
			const controller = new AbortController();
			const pending = fetch(`${slow.url}${PATH}`, {
				method: 'POST',
				headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
				body: JSON.stringify({ niche: 'dentist', city: 'Austin', count: 200 }),
				signal: controller.signal,
			});
			// In progress: the full count is reserved.
			await waitUntil(async () => (await credits()).credits === 100, WAIT_MS, 'the reservation');
			controller.abort();
			await expect(pending).rejects.toThrow();
			// Given back, and nothing charged: a search that ran on would have charged its 200 leads.
			await waitUntil(async () => (await credits()).credits === 300, WAIT_MS, 'the credits back');
			expect(await credits()).toMatchObject({ credits: 300, contactCount: 0 });
		} finally {
			await slow.close();
		}
	});

	it('never overdraws or double-charges under concurrent searches', async () => {
		const { apiKey, accountId } = await server.newAccount({ credits: 100 });
		const niches = [
			'dentist',
			'plumber',
			'barber',
			'florist',
			'bakery',
			'cafe',
			'lawyer',
			'gym',
			'spa',
			'hotel',
		];
		const responses = await Promise.all(
			Array.from({ length: 24 }, (_, i) =>
				search(apiKey, { niche: niches[i % niches.length], city: 'Austin', count: 15 }),
			),
		);
		const statuses = responses.map((r) => r.status);
		expect(statuses.every((s) => s === 200 || s === 402)).toBe(true);
		expect(statuses.filter((s) => s === 402).length).toBeGreaterThan(0);
		const charged = responses
			.filter((r) => r.status === 200)
			.reduce((sum, r) => sum + r.body.chargedCredits, 0);
		const left = await balance(accountId);
		expect(left).toBeGreaterThanOrEqual(0);
		expect(charged).toBe(100 - left);
		expect((await server.admin('GET', `/accounts/${accountId}`)).body.contactCount).toBe(charged);
	});

	it("gives phone numbers and postal codes of the business's own city, state or province", async () => {
		const { apiKey } = await server.newAccount({ credits: 1000 });
		const cases = [
			{ city: 'Austin, TX', phone: /^\+1(512|737)\d{7}$/, postal: /, Austin, TX 787\d\d$/ },
			{
				city: 'Springfield, MA',
				phone: /^\+1(339|351|413|508|617|774|781|857|978)\d{7}$/,
				postal: /, MA 0(1\d|2[0-7])\d\d$/,
			},
			{
				city: 'Vancouver, BC',
				phone: /^\+1(236|250|604|672|778)\d{7}$/,
				postal: / V\d[A-Z] \d[A-Z]\d$/,
			},
		];
		for (const { city, phone, postal } of cases) {
			const res = await search(apiKey, { niche: 'dentist', city, count: 20 });
			expect(res.status).toBe(200);
			expect([city, res.body.contacts.length > 0]).toEqual([city, true]);
			expect(res.body.contacts.flatMap((c: any) => c.phone_numbers).length).toBeGreaterThan(0);
			for (const c of res.body.contacts) {
				for (const p of c.phone_numbers)
					expect([city, p]).toEqual([city, expect.stringMatching(phone)]);
				expect([city, c.address]).toEqual([city, expect.stringMatching(postal)]);
			}
		}
	});
});
