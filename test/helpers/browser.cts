import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (never a downloaded browser); screenshots go to a git-ignored folder. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = join(__dirname, '..', '..', 'test-results', 'screenshots');

export async function launchBrowser(): Promise<Browser> {
	return chromium.launch({
		executablePath: CHROMIUM,
		headless: true,
		// Without these, Chromium keeps trying to reach Google's hosts on a closed network.
		args: [
			'--no-sandbox',
			'--disable-gpu',
			'--disable-quic',
			'--no-first-run',
			'--disable-background-networking',
			'--disable-component-update',
			'--disable-sync',
			'--disable-dev-shm-usage',
		],
	});
}

/**
 * How long a page waits for an element or a navigation before the test fails. Every such wait is
 * for a state, so a generous limit costs nothing when things work; n8n's editor loads megabytes of
 * scripts, which a busy machine takes well over the default 30 s to run.
 */
export const PAGE_TIMEOUT_MS = 120_000;

/** A new page of `browser` with that limit. */
export async function newPage(
	browser: Browser,
	viewport = { width: 1440, height: 900 },
): Promise<Page> {
	const page = await browser.newPage({ viewport });
	page.setDefaultTimeout(PAGE_TIMEOUT_MS);
	return page;
}

export async function screenshot(page: Page, name: string): Promise<string> {
	mkdirSync(SCREENSHOT_DIR, { recursive: true });
	const path = join(SCREENSHOT_DIR, `${name}.png`);
	await page.screenshot({ path, fullPage: false });
	return path;
}
