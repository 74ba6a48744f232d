import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot } from '../helpers/browser.cjs';
import { loadWorkflow, runWorkflow, stopEngineTimers } from '../helpers/n8n.cjs';
import { startOtherService } from '../helpers/other-service.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';

/*
 * The dashboard as people see it, in real Chromium, each state opened and looked at: an empty
 * server, after n8n ran the lead pull and an inbox batch, an account of 10,000 contacts beside a
 * journal of 50,000 requests (only the rows in view are in the page), dark mode, and a proxied
 * session with divergences. UPDATE_DOCS_IMAGES=1 copies the first two into docs/images (README).
 */

const DOCS_IMAGES = join(__dirname, '..', '..', 'docs', 'images');
declare const document: {
	querySelectorAll: (selector: string) => { length: number };
	querySelector: (selector: string) => { textContent: string | null } | null;
};

let browser: Browser;
beforeAll(async () => {
	browser = await launchBrowser();
});
afterAll(async () => {
	await browser.close();
	stopEngineTimers();
});

async function signedIn(
	server: TestServer,
	colorScheme: 'light' | 'dark' = 'light',
): Promise<Page> {
	const page = await newPage(browser, { width: 1440, height: 1100 });
	await page.emulateMedia({ colorScheme });
	await page.goto(`${server.url}/`);
	await page.fill('#token', server.adminToken);
	await page.click('button[type=submit]');
	await page.waitForSelector('.live.on');
	return page;
}

async function shoot(page: Page, name: string, forDocs = false) {
	const path = await screenshot(page, name);
	if (forDocs && process.env.UPDATE_DOCS_IMAGES === '1')
		copyFileSync(path, join(DOCS_IMAGES, `${name}.png`));
}

describe('the dashboard, looked at', () => {
	it('an empty server, then after n8n pulled leads and created a batch of inboxes', async () => {
		const server = await startServer();
		try {
			const page = await signedIn(server);
			await page.getByText('No lead search has saved contacts yet.').waitFor();
			await page.getByText('granted').waitFor();
			await shoot(page, 'dashboard-empty', true);

			const credentials = {
				apiKey: server.devKey,
				leadsBaseUrl: server.url,
				inboxBaseUrl: `${server.url}/api/v1`,
			};
			const leads = await runWorkflow(loadWorkflow('fetch-leads.json'), { credentials });
			const inboxes = await runWorkflow(loadWorkflow('create-inboxes.json'), { credentials });
			expect([leads.status, inboxes.status]).toEqual(['success', 'success']);
			// The pull's charge and contacts, and the batch's pool, arrive without a reload.
			const account = (await server.admin('GET', `/accounts/${server.devAccountId}`)).body;
			expect(account.contactCount).toBeGreaterThan(0);
			for (const [id, value] of [
				['contact-count', account.contactCount],
				['credits', account.credits],
			])
				await page.waitForFunction(
					([testId, n]) =>
						document.querySelector(`[data-testid=${testId}]`)?.textContent?.replace(/\D/g, '') ===
						String(n),
					[id, value],
				);
			await page.getByText('charged by a search').first().waitFor();
			await shoot(page, 'dashboard-after-n8n', true);
			await page.close();
		} finally {
			await server.close();
		}
	});

	it('10,000 contacts and 50,000 requests: only the rows in view are in the page; dark mode', async () => {
		const server = await startServer({ journalSize: 50_000 });
		try {
			const { accountId } = await server.newAccount({ credits: 20_000 });
			server.store.transaction(() => {
				for (let i = 0; i < 10_000; i++)
					server.store.contacts.add(accountId, `bulk-${i}`, {
						businessName: `Business ${i}`,
						address: `${i} Main Street`,
						website: `https://business-${i}.test/`,
						email: `owner${i}@business-${i}.test`,
						emails: [`owner${i}@business-${i}.test`],
						phone: null,
						phone_numbers: [],
						instagram: null,
						facebook: null,
						linkedin: null,
						tiktok: null,
						fbPixel: i % 2 === 0,
						tikTokPixel: i % 3 === 0,
						gAnalytics: i % 5 === 0 ? null : true,
						googleBusinessCategories: ['Plumber'],
					});
			});
			// 50,000 requests in the journal, 64 at a time.
			let next = 0;
			await Promise.all(
				Array.from({ length: 64 }, async () => {
					while (next++ < 50_000) await server.call('GET', '/api/v1/pools');
				}),
			);
			const page = await signedIn(server, 'dark');
			await page.getByRole('button', { name: new RegExp(accountId) }).click();
			await page.getByText('10,000 of 10,000 loaded').waitFor();
			await page.getByText('(50,000, newest first)').waitFor();
			// Virtualised: a few dozen rows in the page for 60,000.
			const rows = await page.evaluate(
				() => document.querySelectorAll('.viewport [role=row]').length,
			);
			expect(rows).toBeLessThan(200);
			const contacts = page.getByRole('rowgroup', { name: /Contacts: 10000 rows/ });
			await contacts.evaluate(
				(el: { scrollTop: number; scrollHeight: number }) => (el.scrollTop = el.scrollHeight),
			);
			await page.getByText('Business 9999', { exact: true }).waitFor();
			await shoot(page, 'dashboard-10000-contacts-dark');
			await page.close();
		} finally {
			await server.close();
		}
	});

	it('a proxied session: the divergences by class', async () => {
		const service = await startOtherService();
		const proxy = await startServer({ proxyInboxes: `${service.url}/api/v1` });
		try {
			service.on('GET /api/v1/pools', {
				json: {
					pools: [
						{ id: 'p1', name: 'A', inboxCount: '3', createdAt: '2026-11-20 10:00:00', owner: 'x' },
					],
				},
			});
			service.on('GET /api/v1/inboxes', { status: 401, json: { error: 'Invalid API key' } });
			const key = { authorization: 'Bearer lik_real_key_0000000000' };
			await fetch(`${proxy.url}/api/v1/pools`, { headers: key });
			await fetch(`${proxy.url}/api/v1/inboxes`, { headers: key });
			const page = await signedIn(proxy);
			await page.getByText('breaks-spec: 2').waitFor();
			await page.getByText('Clock, faults and divergences').scrollIntoViewIfNeeded();
			await shoot(page, 'dashboard-divergences');
			await page.close();
		} finally {
			await proxy.close();
			await service.close();
		}
	});
});
