import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { line, startBareServer, startServerProcess, wrk, wrkLine } from './support.cjs';

/**
 * What an open dashboard costs the API: GET /api/v1/pools with wrk (10 connections, 10 s), with no
 * dashboard and with one signed in and following live in Chromium, beside a bare node:http server
 * answering the same bytes; the server's memory in both; and the page's first load, in bytes.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function benchDashboard(): Promise<void> {
	const server = await startServerProcess();
	const headers = { authorization: `Bearer ${server.devKey}` };
	try {
		let bytes = 0;
		let gzipped = 0;
		for (const path of ['/dashboard/', '/dashboard/app.js', '/dashboard/app.css']) {
			const body = Buffer.from(await (await fetch(`${server.url}${path}`)).arrayBuffer());
			bytes += body.length;
			gzipped += gzipSync(body).length;
		}
		console.log('\ndashboard');
		line(
			'first load (page, script, styles)',
			`${(bytes / 1024).toFixed(0)} KiB (${(gzipped / 1024).toFixed(0)} KiB gzipped)`,
		);

		const url = `${server.url}/api/v1/pools`;
		const sample = await (await fetch(url, { headers })).text();
		const bare = await startBareServer(sample);
		const options = { connections: 10, seconds: 10, headers };
		try {
			console.log(`GET /api/v1/pools (${sample.length} bytes), wrk, 10 connections, 10 s per run`);
			const without = await wrk(url, options);
			const memoryWithout = server.memory();
			const baseline = await wrk(bare.url, options);

			const browser = await chromium.launch({
				executablePath: CHROMIUM,
				args: ['--no-sandbox', '--disable-gpu'],
			});
			try {
				const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
				await page.goto(`${server.url}/`);
				await page.fill('#token', server.adminToken);
				await page.click('button[type=submit]');
				await page.waitForSelector('.live.on');
				const withPage = await wrk(url, options);
				const memoryWith = server.memory();
				// The page is still live and answering after the load.
				await page.waitForSelector('.live.on', { timeout: 30_000 });
				const shown = await page.evaluate(
					() => /Requests \(([\d,]*\d)/.exec(document.body.innerText)?.[1],
				);
				line('the page after the load', `live, listing ${shown} requests`);
				line('no dashboard', `${wrkLine(without)}, RSS ${memoryWithout.rssMB} MB`);
				line('a dashboard open, live', `${wrkLine(withPage)}, RSS ${memoryWith.rssMB} MB`);
				line('bare node:http', wrkLine(baseline));
				line(
					'with / without dashboard',
					`${((withPage.requestsPerSec / without.requestsPerSec) * 100).toFixed(0)} %`,
				);
				line(
					'reference server / bare (no dashboard)',
					`${((without.requestsPerSec / baseline.requestsPerSec) * 100).toFixed(0)} %`,
				);
				line('server RSS peak', `${server.memory().peakMB} MB`);
			} finally {
				await browser.close();
			}
		} finally {
			bare.stop();
		}
	} finally {
		await server.stop();
	}
}

declare const document: { body: { innerText: string } };

if (require.main === module) void benchDashboard().then(() => process.exit(0));
