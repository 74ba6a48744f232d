import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, screenshot } from '../helpers/browser.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';

// Every operation opened in a real browser: minutes on a busy 2-core machine.

/** The API docs page as a reader sees it, in Debian's Chromium. */
describe('/docs in a browser', () => {
	let server: TestServer;
	let browser: Browser;
	beforeAll(async () => {
		server = await startServer();
		browser = await launchBrowser();
	});
	afterAll(async () => {
		await browser?.close();
		await server?.close();
	});

	test('every operation opens without resolver errors and shows the real examples', async () => {
		const page = await newPage(browser, { width: 1280, height: 1000 });
		await page.goto(`${server.url}/docs`);
		await page.waitForSelector('.opblock-summary');
		const operations = page.locator('.opblock-summary');
		const count = await operations.count();
		expect(count).toBeGreaterThanOrEqual(12);
		for (let i = 0; i < count; i++) await operations.nth(i).click();
		// Swagger UI resolves references lazily, when an operation is opened, and renders its
		// responses once that is done (with or without errors): wait until every one has them.
		await page.waitForFunction(
			`document.querySelectorAll('.opblock .responses-wrapper').length >= ${count}`,
		);
		const errors = await page.locator('.errors-wrapper').allInnerTexts();
		expect(errors.join('\n')).not.toMatch(/Resolver error|Could not resolve/);

		const leads = page.locator('#operations-Lead_search-fetchNicheFinderLeads');
		const leadText = await leads.innerText();
		expect(leadText).toContain('"niche": "dentist"');
		expect(leadText).toContain('"city": "Austin, TX"');
		expect(leadText).toContain('Bright Smile Dental');
		await leads.scrollIntoViewIfNeeded();
		await screenshot(page, 'docs-lead-search');

		const create = page.locator('#operations-Inbox_management-createInboxes');
		const createText = await create.innerText();
		expect(createText).toContain('jane@gmail.com');
		expect(createText).not.toContain('(any | array<any>)');
		await create.locator('.opblock-section-request-body').scrollIntoViewIfNeeded();
		await screenshot(page, 'docs-create-inboxes');

		// "Try it out" starts from the example, not from "string".
		await leads.locator('button.try-out__btn').click();
		const editor = leads.locator('textarea.body-param__text');
		expect(await editor.inputValue()).toContain('"niche": "dentist"');
		await page.close();
	});
});
