import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot } from '../helpers/browser.cjs';
import { waitUntil } from '../helpers/wait.cjs';
import { NEWEST_LINE } from './n8n-app.cjs';
import { type Stack, startStack } from './support.cjs';

/**
 * The nodes as a user meets them in the editor of the newest n8n, in Debian's Chromium: found in
 * the nodes panel, their parameters, the credential form and its test, the pool picker, a run.
 * Each step leaves a screenshot in test-results/screenshots/ (git-ignored).
 */
const target = NEWEST_LINE;
const OWNER = { email: 'owner@lead-inbox.test', password: 'Lead-Inbox-e2e-1' };

describe(`the editor of n8n ${target.version}`, () => {
	let stack: Stack;
	let browser: Browser;
	let page: Page;
	const shot = (name: string) => screenshot(page, `editor-${name}`);
	const OURS = ['Fetch Leads', 'List Pools', 'List Inboxes', 'Create Inboxes'];
	const listed = () => page.locator('[data-test-id=node-creator-item-name]').allInnerTexts();
	/**
	 * The node names the panel lists for `text`, once it lists every one of `expected`. The field is
	 * emptied first, and none of the package's nodes listed, so the list read is this search's.
	 */
	const search = async (text: string, expected: string[]) => {
		const field = 'input[data-test-id=node-creator-search-bar]';
		await page.fill(field, '');
		await waitUntil(
			async () => !(await listed()).some((n) => OURS.includes(n)),
			30_000,
			'an empty search',
		);
		await page.fill(field, text);
		await waitUntil(
			async () => {
				const names = await listed();
				return expected.every((name) => names.includes(name));
			},
			30_000,
			`"${text}" to list ${expected.join(', ')}`,
		);
		return await listed();
	};
	const addNode = async (name: string) => {
		await page.click('[data-test-id=node-creator-plus-button], [data-test-id=canvas-plus-button]');
		await search(name, [name]);
		await page.locator('[data-test-id=node-creator-item-name]', { hasText: name }).first().click();
		await page.getByRole('button', { name: 'Add to workflow' }).click();
		await page.waitForSelector('[data-test-id=ndv] [data-test-id=node-parameters]');
	};

	beforeAll(async () => {
		stack = await startStack(target, { credential: false });
		// A pool for the picker to list.
		await stack.server.call('POST', '/api/v1/inboxes?poolName=Warm-up', {
			key: stack.account.apiKey,
			body: [
				{ emailAddress: 'warm1@gmail.com', imapPassword: 'pw' },
				{ emailAddress: 'warm2@gmail.com', imapPassword: 'pw' },
			],
		});
		await stack.app.start();
		await stack.app.setupOwner(OWNER);
		browser = await launchBrowser();
		page = await newPage(browser);
	});
	afterAll(async () => {
		await browser?.close();
		await stack?.app.stop();
		await stack?.server.close();
	});

	it('signs in', async () => {
		await page.goto(`${stack.app.url}/signin`);
		await page.fill('input[name=emailOrLdapLoginId]', OWNER.email);
		await page.fill('input[name=password]', OWNER.password);
		await page.click('[data-test-id=form-submit-button]');
		await page.waitForURL(/\/home/);
	});

	it("finds each node in the nodes panel, with its icon, also by the package's words", async () => {
		await page.goto(`${stack.app.url}/workflow/new`);
		await page.click('[data-test-id=canvas-plus-button]');
		for (const name of OURS) {
			expect(await search(name, [name])).toContain(name);
			const item = page.locator('[data-test-id=node-creator-node-item]', { hasText: name }).first();
			await item.locator('img, svg').first().waitFor({ state: 'visible' });
			await shot(`search-${name.toLowerCase().replace(/ /g, '-')}`);
		}
		// Found by the package's words: the search waits for all four, and fails naming the words.
		for (const words of ['Lead Inbox', 'lead', 'inbox', 'pool', 'cold email'])
			expect([words, await search(words, OURS)]).toEqual([words, expect.arrayContaining(OURS)]);
		await search('Lead Inbox', OURS);
		await shot('search-lead-inbox');
		await page.keyboard.press('Escape');
	});

	it('adds Fetch Leads and shows its parameters, with readable filter options', async () => {
		await addNode('Fetch Leads');
		const ndv = page.locator('[data-test-id=ndv]');
		for (const label of [
			'Niche',
			'City',
			'Count',
			'Meta Ads Pixel',
			'TikTok Pixel',
			'Google Analytics',
		])
			await ndv.getByText(label, { exact: true }).first().waitFor({ state: 'visible' });
		await shot('fetch-leads-parameters');
		await page.click('[data-test-id=parameter-input-metaAds] input');
		const options = page.locator('.el-select-dropdown__item:visible');
		await options.first().waitFor();
		const texts = (await options.allInnerTexts()).join('\n');
		expect(texts).toContain("Doesn't Have It");
		expect(texts).toContain('has no Meta (Facebook) ads pixel');
		expect(texts).not.toContain('has no a ');
		await page.waitForTimeout(500); // the list fades in
		await shot('fetch-leads-filter-options');
		await options.first().click(); // keeps Any
	});

	it('creates a Lead Inbox API credential: a wrong key fails with its message, a key that may not create inboxes passes as a full one does (as the README says)', async () => {
		await page.getByRole('button', { name: 'Connect to Lead Inbox' }).click();
		const dialog = page.locator('[data-test-id=credential-edit-dialog]');
		await page.fill('[data-test-id=parameter-input-apiKey] input', 'lik_this-key-is-wrong');
		await page.fill('[data-test-id=parameter-input-leadsBaseUrl] input', stack.server.url);
		await page.fill(
			'[data-test-id=parameter-input-inboxBaseUrl] input',
			`${stack.server.url}/api/v1`,
		);
		await page.click('[data-test-id=credential-save-button]');
		await dialog.getByText('More details').click();
		await dialog
			.getByText('The inbox service refused the API key')
			.first()
			.waitFor({ state: 'visible' });
		await shot('credential-wrong-key');

		// A second key of the account without inboxes:write: the test passes, and n8n shows no more
		// than for a full key (it closes the form), so the README sends users to the node's error.
		const partial = await stack.server.admin('POST', `/accounts/${stack.account.accountId}/keys`, {
			permissions: ['pools:read', 'inboxes:read'],
		});
		expect(partial.status).toBe(201);
		await page.fill('[data-test-id=parameter-input-apiKey] input', partial.body.apiKey);
		await page.click('[data-test-id=credential-save-button]');
		// n8n closes the form once the test passes.
		await dialog.waitFor({ state: 'detached' });
		await shot('credential-saved');
		await expect(
			page.locator('[data-test-id=node-credentials-select] input').inputValue(),
		).resolves.toMatch(/^Lead Inbox account/);
	});

	it('runs Fetch Leads from the editor: items and the credits hint', async () => {
		await page.fill('[data-test-id=parameter-input-niche] input', 'dentist');
		await page.fill('[data-test-id=parameter-input-city] input', 'Austin, TX');
		await page.fill('[data-test-id=parameter-input-count] input', '5');
		await page.click('[data-test-id=node-execute-button]');
		const output = page.locator('[data-test-id=output-panel]');
		await output.getByText('5 items').first().waitFor();
		await page
			.getByText('Charged 5 credits for 5 new leads.')
			.first()
			.waitFor({ state: 'visible' });
		await shot('fetch-leads-run');
		const balance = await stack.server.admin('GET', `/accounts/${stack.account.accountId}`);
		expect(balance.body.credits).toBe(995);
		await page.click('[data-test-id=ndv-close-button]');
	});

	it("opens Create Inboxes and its pool picker lists the account's pools", async () => {
		await addNode('Create Inboxes');
		const ndv = page.locator('[data-test-id=ndv]');
		await ndv.getByText('Add Inboxes To', { exact: true }).waitFor({ state: 'visible' });
		await page.click('[data-test-id=parameter-input-poolMode]');
		await page.getByText('An Existing Pool', { exact: true }).last().click();
		await page.click('[data-test-id=parameter-input-poolId] [data-test-id=rlc-input]');
		await page.getByText('Warm-up (2 inboxes)').first().waitFor();
		await shot('create-inboxes-pool-picker');
	});
});
