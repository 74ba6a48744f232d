import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot } from '../helpers/browser.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';

/*
 * The dashboard in real Chromium: nothing without the admin token, live updates without a reload,
 * the figures the admin API gives, no console error, no serious accessibility violation (axe-core),
 * a strict CSP, and no secret on the page.
 */

// The page's globals, for the functions run inside it.
declare const document: {
	querySelector: (selector: string) => { textContent: string | null } | null;
};
declare const window: {
	axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
};

const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const PASSWORD = 'Dashboard-Secret-Password-7';

let browser: Browser;
let server: TestServer;
beforeAll(async () => {
	browser = await launchBrowser();
	server = await startServer();
});
afterAll(async () => {
	await browser.close();
	await server.close();
});

/** A page that records every console error and failed request. */
async function open(options: { colorScheme?: 'dark' | 'light' } = {}) {
	const page = await newPage(browser);
	if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
	const problems: string[] = [];
	page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
	page.on('pageerror', (e) => problems.push(String(e)));
	page.on('requestfailed', (r) => problems.push(`${r.url()}: ${r.failure()?.errorText}`));
	// Nothing from elsewhere (no CDN): every request goes to this server.
	page.on(
		'request',
		(r) => !r.url().startsWith(server.url) && problems.push(`elsewhere: ${r.url()}`),
	);
	await page.goto(`${server.url}/`);
	return { page, problems };
}

async function signIn(page: Page, token = server.adminToken) {
	await page.fill('#token', token);
	await page.click('button[type=submit]');
}

/** The figure of a panel once it shows `expected`. */
const figure = (page: Page, testId: string) => page.locator(`[data-testid=${testId}]`).innerText();

describe('the dashboard', () => {
	it('shows nothing of an account without the admin token, and every call it makes needs the token', async () => {
		const { apiKey } = await server.newAccount({ credits: 77 });
		const { page, problems } = await open();
		await page.waitForSelector('#token');
		const text = await page.locator('body').innerText();
		expect(text).toContain('Admin token');
		expect(text).not.toMatch(/acc_|credits|contacts/i);
		await signIn(page, 'not-the-admin-token-000');
		await page.waitForSelector('[role=alert]');
		expect(await page.locator('[role=alert]').innerText()).toMatch(/not this server's admin token/);
		expect(await page.locator('body').innerText()).not.toMatch(/acc_/);
		// The page's files hold no data; the data is the admin API's, and it answers nothing without the token.
		const account = (await server.admin('GET', '/accounts')).body.accounts[0].id as string;
		for (const path of [
			'/accounts',
			'/clock',
			'/faults',
			'/divergences',
			'/requests?summary=true',
			'/events',
			`/searches?accountId=${account}`,
			`/accounts/${account}/ledger`,
			`/accounts/${account}/contacts`,
			`/accounts/${account}/pools`,
			`/accounts/${account}/keys`,
			'/scan?url=http%3A%2F%2Fa.test%2F',
		]) {
			const res = await fetch(`${server.url}/__admin${path}`, {
				headers: { authorization: `Bearer ${apiKey}` },
			});
			expect([path, res.status]).toEqual([path, 401]);
		}
		await page.close();
		// The token is not in the address bar, the page's files or a cookie.
		expect(problems.filter((p) => !/401/.test(p))).toEqual([]);
	});

	it('updates live: a search and an inbox batch made by another client appear without a reload, with the admin API figures', async () => {
		const { page, problems } = await open();
		await signIn(page);
		await page.waitForSelector('.live.on');
		const dev = server.devAccountId;
		const before = (await server.admin('GET', `/accounts/${dev}`)).body;
		await page.waitForFunction(
			(credits) =>
				document.querySelector('[data-testid=credits]')?.textContent?.replace(/\D/g, '') ===
				String(credits),
			before.credits,
		);
		// Another client: a lead search and a batch with a password.
		const search = await server.call('POST', '/api/v1/niche-finder-leads', {
			body: { niche: 'roofer', city: 'Boise', count: 6, metaAds: true },
		});
		expect(search.status).toBe(200);
		await server.call('POST', '/api/v1/inboxes', {
			body: [{ emailAddress: 'live@gmail.com', imapPassword: PASSWORD }],
		});
		const after = (await server.admin('GET', `/accounts/${dev}`)).body;
		await page.getByText('roofer').waitFor();
		await page.waitForFunction(
			(credits) =>
				document.querySelector('[data-testid=credits]')?.textContent?.replace(/\D/g, '') ===
				String(credits),
			after.credits,
		);
		expect((await figure(page, 'contact-count')).replace(/\D/g, '')).toBe(
			String(after.contactCount),
		);
		// Where a contact's Meta pixel was found: its website scanned again, with the findings.
		const contact = search.body.contacts[0];
		await page
			.getByRole('button', { name: `show where the codes of ${contact.businessName} were found` })
			.click();
		const where = page.getByRole('region', {
			name: `Where the codes of ${contact.website} were found`,
		});
		await where.getByRole('cell', { name: 'Meta pixel' }).first().waitFor();
		await page.getByRole('button', { name: 'POST /api/v1/inboxes' }).first().click();
		await page.getByText('[redacted]').first().waitFor();
		const text = await page.locator('body').innerText();
		expect(text).not.toContain(PASSWORD);
		expect(text).not.toContain(server.devKey);
		await screenshot(page, 'dashboard-live');
		expect(problems).toEqual([]);
		await page.close();
	});

	it('has no serious accessibility violation (axe-core), in light and dark', async () => {
		for (const colorScheme of ['light', 'dark'] as const) {
			const { page } = await open({ colorScheme });
			await signIn(page);
			await page.waitForSelector('[data-testid=credits]');
			await page.evaluate(AXE);
			const violations = await page.evaluate(async () => {
				const result = await window.axe.run();
				return result.violations.map((v) => ({
					id: v.id,
					impact: v.impact,
					nodes: v.nodes.length,
				}));
			});
			expect([
				colorScheme,
				violations.filter((v) => v.impact === 'serious' || v.impact === 'critical'),
			]).toEqual([colorScheme, []]);
			await page.close();
		}
	});

	it('is served with a strict Content-Security-Policy, from the server itself', async () => {
		for (const path of ['/dashboard/', '/dashboard/app.js', '/dashboard/app.css']) {
			const res = await fetch(`${server.url}${path}`);
			expect([path, res.status]).toEqual([path, 200]);
			expect(res.headers.get('content-security-policy')).toMatch(
				/default-src 'none'; script-src 'self'/,
			);
			expect(res.headers.get('x-content-type-options')).toBe('nosniff');
			if (path === '/dashboard/') expect(await res.text()).not.toMatch(/(src|href)="(?!\/|data:)/);
		}
		// The scan behind "where?" reaches only the synthetic websites: never an address of the network.
		const elsewhere = await server.admin(
			'GET',
			`/scan?url=${encodeURIComponent('http://169.254.169.254/latest/')}`,
		);
		expect([elsewhere.status, elsewhere.body.error]).toEqual([
			400,
			expect.stringContaining('a .test host'),
		]);
		const root = await fetch(`${server.url}/`, { redirect: 'manual' });
		expect([root.status, root.headers.get('location')]).toEqual([302, '/dashboard/']);
	});
});
