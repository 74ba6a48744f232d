import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { startServer, type TestServer } from '../helpers/server.cjs';
import { withTempDir } from '../helpers/temp-dir.cjs';

const entry = (emailAddress: string, extra: Record<string, unknown> = {}) => ({
	emailAddress,
	imapPassword: 'app-password',
	...extra,
});

describe('inbox management', () => {
	let server: TestServer;
	beforeAll(async () => {
		server = await startServer(
			{ log: false, mxLookup: true },
			{
				mxResolver: async (domain) =>
					domain === 'gd-customer.com' ? ['mailstore1.secureserver.net.'] : [],
			},
		);
	});
	afterAll(() => server.close());
	const account = async (permissions?: string[]) =>
		(await server.newAccount(permissions ? { permissions } : {})).apiKey;
	const create = (key: string, body: unknown) =>
		server.call('POST', '/api/v1/inboxes', { key, body });

	describe('permissions and scoping', () => {
		it.each([
			['GET', '/api/v1/pools', 'pools:read'],
			['GET', '/api/v1/inboxes', 'inboxes:read'],
			['POST', '/api/v1/inboxes', 'inboxes:write'],
		])(
			'%s %s needs %s (401 without a key, 403 without the permission)',
			async (method, path, permission) => {
				const body = method === 'POST' ? entry('perm@gmail.com') : undefined;
				expect((await server.call(method, path, { key: null, body })).status).toBe(401);
				const others = ['pools:read', 'inboxes:read', 'inboxes:write'].filter(
					(p) => p !== permission,
				);
				const denied = await server.call(method, path, { key: await account(others), body });
				expect(denied.status).toBe(403);
				expect(denied.body.error).toContain(permission);
				expect(
					(await server.call(method, path, { key: await account([permission]), body })).status,
				).toBe(200);
			},
		);

		it("treats another account's pool as not found", async () => {
			const mine = await account();
			const theirs = await account();
			const created = await create(theirs, entry('scoped@gmail.com'));
			const poolId = created.body.pool.id;
			expect(
				(await server.call('GET', `/api/v1/inboxes?poolId=${poolId}`, { key: mine })).status,
			).toBe(404);
			const res = await create(mine, entry('scoped@gmail.com', { poolId }));
			expect(res.status).toBe(404);
			expect(res.body.code).toBe('pool_not_found');
			expect((await server.call('GET', '/api/v1/pools', { key: mine })).body.pools).toEqual([]);
		});
	});

	describe('mail domain typos', () => {
		it.each([
			['jane@gmial.com', 'jane@gmail.com'],
			['jane@gmal.com', 'jane@gmail.com'],
			['Jane@Hotmial.com', 'Jane@hotmail.com'],
			['jane@yaho.com', 'jane@yahoo.com'],
			['jane@outlok.com', 'jane@outlook.com'],
		])('refuses %s with "did you mean %s?", even with a provider set', async (address, meant) => {
			const key = await account();
			for (const extra of [{}, { provider: 'google' }]) {
				const res = await create(key, entry(address, extra));
				expect(res.status).toBe(400);
				expect(res.body).toMatchObject({
					code: 'invalid_entry',
					error: expect.stringContaining(`did you mean ${meant}?`),
				});
			}
			const pools = await server.call('GET', '/api/v1/pools', { key });
			expect(pools.body.pools).toEqual([]);
		});

		it('creates the address as typed when the caller insists, and leaves real domains alone', async () => {
			const key = await account();
			const insisted = await create(
				key,
				entry('jane@gmial.com', { provider: 'google', acceptDomainAsTyped: true }),
			);
			expect(insisted.status).toBe(200);
			const batch = await create(key, [
				entry('a@email.com', { provider: 'google' }),
				entry('b@mail.com', { provider: 'google' }),
				entry('c@outlook.de'),
			]);
			expect(batch.body.summary).toEqual({ total: 3, created: 3, failed: 0 });
		});
	});

	describe('creation', () => {
		it('creates one inbox with a new pool, auto-filled settings and the decided response', async () => {
			const key = await account();
			const res = await create(key, entry('Jane.Doe@gmail.com', { dailySendingLimit: 30 }));
			expect(res.status).toBe(200);
			expect(res.body).toEqual({
				success: true,
				summary: { total: 1, created: 1, failed: 0 },
				pool: {
					id: expect.any(String),
					name: expect.stringMatching(/^Pool \d{4}-\d\d-\d\d \d\d:\d\d UTC$/),
				},
				results: [
					{
						emailAddress: 'Jane.Doe@gmail.com',
						success: true,
						inboxId: expect.any(String),
						poolId: res.body.pool.id,
						autoFilledFields: ['imapHost', 'imapPort', 'smtpHost', 'smtpPort'],
					},
				],
			});
			const listed = await server.call('GET', '/api/v1/inboxes', { key });
			expect(listed.body.inboxes).toEqual([
				{
					id: res.body.results[0].inboxId,
					emailAddress: 'Jane.Doe@gmail.com',
					poolId: res.body.pool.id,
					status: 'active',
					dailySendingLimit: 30,
					createdAt: expect.stringMatching(/Z$/),
				},
			]);
			expect(Object.keys(listed.body.inboxes[0]).sort()).toEqual([
				'createdAt',
				'dailySendingLimit',
				'emailAddress',
				'id',
				'poolId',
				'status',
			]);
		});

		it.each([
			['ann@gmail.com', {}, ['imapHost', 'imapPort', 'smtpHost', 'smtpPort']],
			['ann@googlemail.com', {}, ['imapHost', 'imapPort', 'smtpHost', 'smtpPort']],
			['ann@hotmail.co.uk', {}, ['imapHost', 'imapPort', 'smtpHost', 'smtpPort']],
			['ann@outlook.de', {}, ['imapHost', 'imapPort', 'smtpHost', 'smtpPort']],
			['ann@yahoo.co.uk', {}, ['imapHost', 'imapPort', 'smtpHost', 'smtpPort']],
			['ann@zohomail.eu', {}, ['imapHost', 'imapPort', 'smtpHost', 'smtpPort']],
			['ann@me.com', {}, ['imapHost', 'imapPort', 'smtpHost', 'smtpPort']],
			[
				'ann@acme-corp.com',
				{ provider: 'namecheap' },
				['imapHost', 'imapPort', 'smtpHost', 'smtpPort'],
			],
			[
				'ann@acme-corp.com',
				{ provider: 'godaddy', smtpPort: 587 },
				['imapHost', 'imapPort', 'smtpHost'],
			],
			['ann@gmail.com', { imapHost: 'imap.example.net', imapPort: 143 }, ['smtpHost', 'smtpPort']],
			['ann@gd-customer.com', {}, ['imapHost', 'imapPort', 'smtpHost', 'smtpPort']],
		])('detects %s %j and fills %j', async (email, extra, filled) => {
			const res = await create(await account(), [entry(email, extra)]);
			expect(res.body.results[0]).toMatchObject({ success: true, autoFilledFields: filled });
		});

		it('stores the detected settings (regional servers, iCloud user name) without listing user names', async () => {
			const key = await account();
			await create(key, [
				entry('ann@zohomail.eu'),
				entry('bob@icloud.com'),
				entry('cy@acme-corp.com', { provider: 'godaddy' }),
			]);
			const rows = server.store.db.connection
				.prepare(
					'SELECT email_address, imap_host, smtp_host, smtp_port, imap_username, smtp_username FROM inboxes WHERE email_address IN (?, ?, ?)',
				)
				.all('ann@zohomail.eu', 'bob@icloud.com', 'cy@acme-corp.com');
			expect(rows).toEqual(
				expect.arrayContaining([
					{
						email_address: 'ann@zohomail.eu',
						imap_host: 'imap.zoho.eu',
						smtp_host: 'smtp.zoho.eu',
						smtp_port: 465,
						imap_username: 'ann@zohomail.eu',
						smtp_username: 'ann@zohomail.eu',
					},
					{
						email_address: 'bob@icloud.com',
						imap_host: 'imap.mail.me.com',
						smtp_host: 'smtp.mail.me.com',
						smtp_port: 587,
						imap_username: 'bob',
						smtp_username: 'bob@icloud.com',
					},
					{
						email_address: 'cy@acme-corp.com',
						imap_host: 'imap.secureserver.net',
						smtp_host: 'smtpout.secureserver.net',
						smtp_port: 465,
						imap_username: 'cy@acme-corp.com',
						smtp_username: 'cy@acme-corp.com',
					},
				]),
			);
		});

		it('omits autoFilledFields when the entry gave every setting', async () => {
			const res = await create(await account(), [
				entry('x@custom-domain.com', {
					imapHost: 'mail.custom-domain.com',
					imapPort: 993,
					smtpHost: 'mail.custom-domain.com',
					smtpPort: 465,
				}),
			]);
			expect(res.body.results[0].success).toBe(true);
			expect(res.body.results[0]).not.toHaveProperty('autoFilledFields');
		});

		it('fails a custom domain without provider or settings, naming the fields to send', async () => {
			const res = await create(
				await account(),
				entry('x@custom-domain.com', { imapHost: 'mail.custom-domain.com' }),
			);
			expect(res.status).toBe(400);
			expect(res.body).toEqual({
				error: expect.stringContaining('set provider'),
				code: 'invalid_entry',
			});
			expect(res.body.error).toContain('imapPort, smtpHost, smtpPort');
		});

		it('reports each entry of a batch on its own, with every error code and the summary', async () => {
			const key = await account();
			await create(key, entry('taken@gmail.com'));
			const res = await create(key, [
				entry('ok1@gmail.com'),
				entry('TAKEN@gmail.com'),
				entry('ok2@yahoo.com'),
				entry('Ok1@Gmail.com'),
				entry('nopool@gmail.com', { poolId: 'pool_missing' }),
				entry('bad-address'),
				entry('refused@gmail.com', { imapPassword: 'invalid-pw' }),
				entry('unreachable@custom.com', {
					imapHost: 'mail.custom.invalid',
					imapPort: 993,
					smtpHost: 'smtp.custom.test',
					smtpPort: 465,
				}),
				{ emailAddress: 'typo@gmail.com', imapPasword: 'x' },
				entry('skipped@gmail.com', {
					imapPassword: 'invalid-but-skipped',
					skipConnectionTest: true,
				}),
			]);
			expect(res.status).toBe(200);
			expect(res.body.success).toBe(false);
			expect(res.body.summary).toEqual({ total: 10, created: 3, failed: 7 });
			const codes = res.body.results.map((r: { success: boolean; code?: string }) =>
				r.success ? 'created' : r.code,
			);
			expect(codes).toEqual([
				'created',
				'email_exists',
				'created',
				'email_exists',
				'pool_not_found',
				'invalid_entry',
				'connection_failed',
				'connection_failed',
				'invalid_entry',
				'created',
			]);
			expect(res.body.results[6].error).toMatch(/authentication refused/);
			expect(res.body.results[7].error).toMatch(/cannot connect/);
			expect(res.body.results[8].details).toEqual(
				expect.arrayContaining([
					{
						path: '8.imapPasword',
						message: expect.stringContaining("Did you mean 'imapPassword'?"),
					},
				]),
			);
			expect(
				res.body.results.every((r: { emailAddress: string }) => typeof r.emailAddress === 'string'),
			).toBe(true);
			// the three created entries share the one auto-created pool
			const pools = (await server.call('GET', '/api/v1/pools', { key })).body.pools;
			expect(pools.find((p: { id: string }) => p.id === res.body.pool.id).inboxCount).toBe(3);
		});

		it.each([
			['taken@gmail.com', {}, 409, 'email_exists'],
			['x@gmail.com', { poolId: 'pool_nope' }, 404, 'pool_not_found'],
			['x@gmail.com', { imapPassword: 'invalid' }, 422, 'connection_failed'],
			['x@gmail.com', { dailySendingLimit: 0 }, 400, 'invalid_entry'],
			['x@gmail.com', { imapPort: 70000 }, 400, 'invalid_entry'],
			['x@gmail.com', { imapHost: 'https://imap.gmail.com' }, 400, 'invalid_entry'],
			['x@gmail.com', { provider: 'aol' }, 400, 'invalid_entry'],
		])('a single object %s %j answers %d %s', async (email, extra, status, code) => {
			const key = await account();
			await create(key, entry('taken@gmail.com'));
			const res = await create(key, entry(email, extra));
			expect(res.status).toBe(status);
			expect(res.body.code).toBe(code);
			expect(typeof res.body.error).toBe('string');
		});

		it.each([
			['an empty array', []],
			['more than 100 entries', Array.from({ length: 101 }, (_, i) => entry(`n${i}@gmail.com`))],
			['a non-object element', [entry('a@gmail.com'), 'b@gmail.com']],
			['a string', 'a@gmail.com'],
		])('refuses %s whole with 400 and creates nothing', async (_label, body) => {
			const key = await account();
			const res = await create(key, body);
			expect(res.status).toBe(400);
			expect((await server.call('GET', '/api/v1/inboxes', { key })).body.pagination.total).toBe(0);
		});

		it('creates a pool only when an entry lands in it, and none when poolId is given', async () => {
			const key = await account();
			const failed = await create(key, [entry('a@gmail.com', { imapPassword: 'invalid' })]);
			expect(failed.body).not.toHaveProperty('pool');
			expect((await server.call('GET', '/api/v1/pools', { key })).body.pools).toEqual([]);
			const first = await create(key, [entry('b@gmail.com')]);
			const second = await create(key, [
				entry('c@gmail.com', { poolId: first.body.pool.id }),
				entry('d@gmail.com', { poolId: first.body.pool.id }),
			]);
			expect(second.body).not.toHaveProperty('pool');
			const pools = (await server.call('GET', '/api/v1/pools', { key })).body.pools;
			expect(pools).toEqual([
				{
					id: first.body.pool.id,
					name: first.body.pool.name,
					inboxCount: 3,
					createdAt: expect.any(String),
				},
			]);
		});
	});

	describe('listing', () => {
		let key: string;
		let poolA: string;
		beforeAll(async () => {
			key = await account();
			const a = await create(
				key,
				Array.from({ length: 30 }, (_, i) => entry(`a${i}@gmail.com`)),
			);
			poolA = a.body.pool.id;
			await create(
				key,
				Array.from({ length: 12 }, (_, i) => entry(`b${i}@yahoo.com`)),
			);
			server.store.db.connection
				.prepare(
					"UPDATE inboxes SET status = 'paused' WHERE email_address IN ('a1@gmail.com', 'b2@yahoo.com')",
				)
				.run();
		});
		const list = (query: string) => server.call('GET', `/api/v1/inboxes${query}`, { key });

		it('pages in creation order with the decided pagination', async () => {
			const all = await list('?limit=1000');
			expect(all.body.pagination).toEqual({ total: 42, limit: 1000, skip: 0, hasMore: false });
			expect(
				all.body.inboxes.slice(0, 3).map((i: { emailAddress: string }) => i.emailAddress),
			).toEqual(['a0@gmail.com', 'a1@gmail.com', 'a2@gmail.com']);
			const page = await list('?limit=10&skip=35');
			expect(page.body.pagination).toEqual({ total: 42, limit: 10, skip: 35, hasMore: false });
			expect(page.body.inboxes).toHaveLength(7);
			const middle = await list('?limit=10&skip=10');
			expect(middle.body.pagination.hasMore).toBe(true);
			expect(middle.body.inboxes[0]).toEqual(all.body.inboxes[10]);
			const beyond = await list('?skip=500');
			expect(beyond.body).toEqual({
				inboxes: [],
				pagination: { total: 42, limit: 100, skip: 500, hasMore: false },
			});
		});

		it('filters by pool and status', async () => {
			expect((await list(`?poolId=${poolA}`)).body.pagination.total).toBe(30);
			const paused = await list('?status=paused');
			expect(paused.body.inboxes.map((i: { emailAddress: string }) => i.emailAddress)).toEqual([
				'a1@gmail.com',
				'b2@yahoo.com',
			]);
			expect((await list(`?status=paused&poolId=${poolA}`)).body.pagination.total).toBe(1);
			expect((await list('?poolId=pool_unknown')).status).toBe(404);
		});

		it('lists a status set through the admin API at once, the inbox named by ID or address', async () => {
			const a3 = (await list('?limit=5')).body.inboxes[3];
			const ownerId = server.store.accounts.accountOfKey(key)!;
			const byId = await server.admin('PATCH', `/accounts/${ownerId}/inboxes/${a3.id}`, {
				status: 'error',
			});
			expect(byId).toMatchObject({ status: 200, body: { ...a3, status: 'error' } });
			expect((await list('?status=error')).body.inboxes).toEqual([{ ...a3, status: 'error' }]);
			const byAddress = await server.admin('PATCH', `/accounts/${ownerId}/inboxes/A3@Gmail.com`, {
				status: 'active',
			});
			expect(byAddress.body.status).toBe('active');
			expect((await list('?status=error')).body.pagination.total).toBe(0);

			const other = await server.newAccount();
			const foreign = await server.admin('PATCH', `/accounts/${other.accountId}/inboxes/${a3.id}`, {
				status: 'error',
			});
			expect(foreign.status).toBe(404);
			expect(foreign.body.error).toContain(`has no inbox '${a3.id}'`);
			const wrong = await server.admin('PATCH', `/accounts/${ownerId}/inboxes/${a3.id}`, {
				status: 'broken',
			});
			expect([wrong.status, wrong.body.details[0].path]).toEqual([400, 'status']);
			expect((await list('?status=active&limit=1000')).body.pagination.total).toBe(40);
		});

		it('refuses a query parameter on GET /pools, which takes none', async () => {
			const res = await server.call('GET', '/api/v1/pools?limit=5');
			expect([res.status, res.body.details[0]]).toEqual([
				400,
				{ path: 'limit', message: "Unknown field 'limit'. None are accepted here." },
			]);
		});

		it.each([
			['?limit=0', 'limit'],
			['?limit=1001', 'limit'],
			['?limit=abc', 'limit'],
			['?limit=10.5', 'limit'],
			['?limit=', 'limit'],
			['?skip=-1', 'skip'],
			['?skip=x', 'skip'],
			['?status=sleeping', 'status'],
			['?pool=abc', 'pool'],
		])('rejects %s with 400 naming %s', async (query, name) => {
			const res = await list(query);
			expect(res.status).toBe(400);
			expect(res.body.details[0].path).toBe(name);
			expect(res.body.error).toContain(name);
		});
	});

	describe('hourly limit', () => {
		it('refuses a request over the remaining quota whole, then accepts after the window', async () => {
			const { accountId } = await server.newAccount();
			const key1 = (await server.admin('POST', `/accounts/${accountId}/keys`, {})).body.apiKey;
			const batches = [];
			for (let batch = 0; batch < 9; batch++) {
				batches.push(
					await create(
						key1,
						Array.from({ length: 100 }, (_, i) => entry(`q${batch}-${i}@gmail.com`)),
					),
				);
			}
			for (const batch of batches) expect(batch.body.summary.created).toBe(100);
			const last = batches[8];
			expect(last.headers.get('x-ratelimit-limit')).toBe('1000');
			expect(last.headers.get('x-ratelimit-remaining')).toBe('100');
			// failed entries use no quota
			const mixed = await create(key1, [
				entry('fail1@gmail.com', { imapPassword: 'invalid' }),
				entry('keep@gmail.com'),
			]);
			expect(mixed.headers.get('x-ratelimit-remaining')).toBe('99');
			const over = await create(
				key1,
				Array.from({ length: 100 }, (_, i) => entry(`over-${i}@gmail.com`)),
			);
			expect(over.status).toBe(429);
			expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(3000);
			expect(over.headers.get('x-ratelimit-remaining')).toBe('99');
			expect(over.body.error).toMatch(/only 99 of 1000 remain/);
			const total = async () =>
				(await server.call('GET', '/api/v1/inboxes', { key: key1 })).body.pagination.total;
			expect(await total()).toBe(901);
			// per key: another key of the same account has its own quota
			const key2 = (await server.admin('POST', `/accounts/${accountId}/keys`, {})).body.apiKey;
			expect((await create(key2, [entry('other-key@gmail.com')])).status).toBe(200);

			await server.admin('POST', '/clock', { advanceSeconds: 3601 });
			const after = await create(
				key1,
				Array.from({ length: 100 }, (_, i) => entry(`over-${i}@gmail.com`)),
			);
			expect(after.status).toBe(200);
			expect(after.body.summary.created).toBe(100);
		});

		it('holds under concurrent requests', async () => {
			const key = await account();
			await Promise.all(
				Array.from({ length: 9 }, (_, b) =>
					create(
						key,
						Array.from({ length: 100 }, (_, i) => entry(`c${b}-${i}@gmail.com`)),
					),
				),
			);
			const racing = await Promise.all(
				Array.from({ length: 6 }, (_, b) =>
					create(
						key,
						Array.from({ length: 40 }, (_, i) => entry(`r${b}-${i}@gmail.com`)),
					),
				),
			);
			const created = racing
				.filter((r) => r.status === 200)
				.reduce((sum, r) => sum + r.body.summary.created, 0);
			expect(racing.filter((r) => r.status === 429).length).toBeGreaterThan(0);
			expect(created).toBeLessThanOrEqual(100);
			expect(
				(await server.call('GET', '/api/v1/inboxes?limit=1', { key })).body.pagination.total,
			).toBe(900 + created);
		});
	});
});

describe('passwords at rest', () => {
	it('never stores an IMAP or SMTP password in plain text', async () => {
		await withTempDir('inbox-at-rest-', async (dir) => {
			const db = join(dir, 'db.sqlite');
			const server = await startServer({ db, log: false });
			await server.call('POST', '/api/v1/inboxes', {
				body: {
					emailAddress: 'rest@gmail.com',
					imapPassword: 'PlainImapSecret-123',
					smtpPassword: 'PlainSmtpSecret-456',
				},
			});
			await server.close();
			const raw = Buffer.concat([
				readFileSync(db),
				...['-wal'].map((s) => {
					try {
						return readFileSync(db + s);
					} catch {
						return Buffer.alloc(0);
					}
				}),
			]).toString('latin1');
			expect(raw).toContain('rest@gmail.com');
			expect(raw).not.toContain('PlainImapSecret-123');
			expect(raw).not.toContain('PlainSmtpSecret-456');
			const row = new DatabaseSync(db, { readOnly: true })
				.prepare('SELECT imap_password_enc FROM inboxes')
				.get() as unknown as { imap_password_enc: string };
			expect(row.imap_password_enc.split('.')).toHaveLength(3);
		});
	});
});
