import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { launchBrowser, newPage, SCREENSHOT_DIR } from '../helpers/browser.cjs';

/*
 * The README is the page npm and n8n's community-node listing show to n8n users: it opens with
 * what the package does and how to install and use it in n8n, stays short, and every link it and
 * the pages under docs/ hold leads somewhere. Rendered as npm renders Markdown, in Chromium.
 */

const ROOT = join(__dirname, '..', '..');
const README = join(ROOT, 'README.md');
const PAGES = [
	README,
	...['docs', join('n8n-testkit', 'docs')].flatMap((dir) =>
		readdirSync(join(ROOT, dir))
			.filter((f) => f.endsWith('.md'))
			.map((f) => join(ROOT, dir, f)),
	),
	join(ROOT, 'n8n-testkit', 'README.md'),
	join(ROOT, 'mock-server', 'README.md'),
];

/** GitHub's (and npm's) anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
	heading
		.trim()
		.toLowerCase()
		.replace(/[`*_]/g, '')
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/[^\p{L}\p{N}\s-]/gu, '')
		.replace(/\s/g, '-');

function anchorsOf(file: string): Set<string> {
	const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
	return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1])));
}

describe('README.md and docs/', () => {
	const readme = readFileSync(README, 'utf8');

	it('is at most 300 lines and opens with the package for n8n users, the contributors last', () => {
		expect(readme.split('\n').length).toBeLessThanOrEqual(300);
		const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
		expect(headings.slice(0, 4)).toEqual([
			'Installing the nodes in n8n',
			'Credentials',
			'Try it with the reference server',
			'The nodes',
		]);
		expect(headings.at(-2)).toBe('For contributors');
		// The two commands stay visible.
		expect(readme).toContain('npm install && npm start');
		expect(readme).toMatch(/^npm test\s/m);
	});

	it.each(PAGES.map((p) => [p.slice(ROOT.length + 1), p]))(
		'%s: every relative link leads to a file, and every anchor to a heading there',
		(_name, page) => {
			const text = readFileSync(page, 'utf8').replace(/```[\s\S]*?```/g, '');
			const broken: string[] = [];
			for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
				if (/^(https?:|mailto:)/.test(target)) continue;
				const [path, anchor] = target.split('#');
				const file = path ? resolve(dirname(page), path) : page;
				if (!existsSync(file)) broken.push(`${target}: no such file`);
				else if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor))
					broken.push(`${target}: no such heading`);
			}
			expect(broken).toEqual([]);
		},
	);

	describe('rendered', () => {
		let browser: Browser;
		beforeAll(async () => {
			browser = await launchBrowser();
		});
		afterAll(async () => {
			await browser?.close();
		});

		/** A Markdown page rendered as npm renders it (marked), served from a routed origin: nothing leaves the machine. */
		const rendered = async (markdown: string) => {
			const page = await newPage(browser, { width: 1100, height: 1400 });
			const marked = readFileSync(require.resolve('marked').replace(/[^/]+$/, 'marked.esm.js'));
			await page.route('http://readme.test/**', async (route) => {
				const url = new URL(route.request().url());
				if (url.pathname === '/marked.js')
					return route.fulfill({ body: marked, contentType: 'text/javascript' });
				if (url.pathname === '/README.md')
					return route.fulfill({ body: markdown, contentType: 'text/markdown; charset=utf-8' });
				return route.fulfill({
					contentType: 'text/html',
					body: `<!doctype html><meta charset="utf-8"><style>
body { font: 16px/1.6 -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; color: #1f2328; max-width: 900px; margin: 24px auto; }
h1, h2 { border-bottom: 1px solid #d1d9e0; padding-bottom: .3em; } table { border-collapse: collapse; display: block; overflow: auto; }
th, td { border: 1px solid #d1d9e0; padding: 6px 13px; } code { background: #eff1f3; padding: .2em .4em; border-radius: 6px; font-size: 85%; }
pre { background: #f6f8fa; padding: 16px; border-radius: 6px; } pre code { background: none; } a { color: #0969da; }
</style><article id="readme"></article><script type="module">
import { marked } from '/marked.js';
document.querySelector('#readme').innerHTML = marked.parse(await (await fetch('/README.md')).text());
document.body.dataset.rendered = 'yes';
</script>`,
				});
			});
			await page.goto('http://readme.test/');
			await page.waitForSelector('body[data-rendered="yes"]');
			return page;
		};

		it('shows the package, the install steps and the credential in its first screen', async () => {
			const page = await rendered(readme);
			const h2 = await page.locator('#readme h2').allInnerTexts();
			expect(h2.slice(0, 4)).toEqual([
				'Installing the nodes in n8n',
				'Credentials',
				'Try it with the reference server',
				'The nodes',
			]);
			// The credential's three fields are a table a reader can scan.
			const fields = await page
				.locator('#readme table')
				.nth(1)
				.locator('tr td:first-child')
				.allInnerTexts();
			expect(fields).toEqual(['API Key', 'Lead Search Base URL', 'Inbox Base URL']);
			await page.screenshot({ path: join(SCREENSHOT_DIR, 'readme.png'), fullPage: true });
		});

		it("n8n-testkit's README: what it does, a five-minute start with no Lead Inbox node, the upgrade check, and the table beside n8n's own tools", async () => {
			const page = await rendered(readFileSync(join(ROOT, 'n8n-testkit', 'README.md'), 'utf8'));
			expect(await page.locator('#readme h2').allInnerTexts()).toEqual([
				'Start in five minutes',
				'Before you upgrade n8n',
				'Beside what n8n has',
				'Services',
				'More',
			]);
			const start = await page.locator('#readme pre').allInnerTexts();
			expect(start[0].trim()).toBe('npm install --save-dev n8n-testkit');
			expect(start.join('\n')).not.toMatch(/lead-inbox|seed:/);
			// The comparison: one row per capability, a column per tool.
			const header = await page.locator('#readme table').first().locator('th').allInnerTexts();
			expect(header).toEqual([
				'',
				'n8n-testkit',
				"n8n's evaluations",
				'n8n executeBatch',
				'@blucca/n8n-check',
			]);
			await page.screenshot({ path: join(SCREENSHOT_DIR, 'n8n-testkit-readme.png'), fullPage: true });
		});
	});
});
