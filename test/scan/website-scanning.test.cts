import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HostMap } from '../../mock-server/src/scan/fetcher.cjs';
import { ScanPool } from '../../mock-server/src/scan/pool.cjs';
import { Scanner } from '../../mock-server/src/scan/scanner.cjs';
import { startWebsiteScanning } from '../../mock-server/src/scan/website-scanning.cjs';
import { siteTruth } from '../../mock-server/src/web/profiles.cjs';
import { SLOW_SITE_DELAY_MS } from '../../mock-server/src/web/respond.cjs';
import { startSyntheticWebWorker } from '../../mock-server/src/web/worker.cjs';

/**
 * The slow sites answer after SLOW_SITE_DELAY_MS and must time out; every other page and container
 * gets all the time short of that, however loaded the machine (a time-out here is the time the
 * scanner waits, not a claim about speed).
 */
const PATIENT_MS = SLOW_SITE_DELAY_MS - 1000;

const flagsOf = (r: {
	scanned: boolean;
	fbPixel: unknown;
	tikTokPixel: unknown;
	gAnalytics: unknown;
}) => ({
	scanned: r.scanned,
	fbPixel: r.fbPixel,
	tikTokPixel: r.tikTokPixel,
	gAnalytics: r.gAnalytics,
});

describe("the server's website scanning (synthetic web and scanners on worker threads)", () => {
	it('finds exactly what the generator put in every site, with two scanner threads', async () => {
		const scanning = await startWebsiteScanning({
			fallbackOrigin: 'http://127.0.0.1:9',
			timeoutMs: PATIENT_MS,
			threads: 2,
			warn: (message) => {
				throw new Error(message);
			},
		});
		try {
			const hosts = Array.from({ length: 200 }, (_, i) => `threaded-${i}.test`);
			const results = await Promise.all(hosts.map((h) => scanning.scan(`http://${h}/`)));
			expect(results.map(flagsOf)).toEqual(hosts.map((h) => siteTruth(h)));
		} finally {
			await scanning.stop();
		}
	});

	it("asks a dead thread's scans again on the threads still running, so none is lost", async () => {
		const web = await startSyntheticWebWorker();
		const pool = await ScanPool.start({
			threads: 2,
			timeoutMs: PATIENT_MS,
			hosts: [`*.test=${web.origin}`, `www.googletagmanager.com=${web.origin}`],
		});
		try {
			const hosts = Array.from({ length: 60 }, (_, i) => `crash-${i}.test`);
			const pending = hosts.map((h) => pool.scan(`http://${h}/`));
			// One thread stops while it has scans in flight (as one that ran out of heap would).
			const threads = (
				pool as unknown as { threads: { worker: { terminate(): Promise<number> } }[] }
			).threads;
			await threads[0].worker.terminate();
			const results = await Promise.all(pending);
			expect(results.map(flagsOf)).toEqual(hosts.map((h) => siteTruth(h)));
			expect(results.filter((r) => r.reason?.includes('scanner process'))).toEqual([]);
		} finally {
			await pool.stop();
			await web.stop();
		}
	});

	it('keeps at most --scan-concurrency websites in flight, all threads together', async () => {
		// The sites hold every answer until 4 requests are open at once (the limit, reached however
		// slowly a busy machine sends them), then answer all, and every later one at once: the most
		// seen is then exactly the limit when the pool keeps to it. (Waiting on time instead, the
		// scanners' adaptive window could shrink under load and the limit never be reached.)
		let open = 0;
		let most = 0;
		let held: (() => void)[] | undefined = [];
		const site = http.createServer((_request, response) => {
			most = Math.max(most, ++open);
			const answer = () => {
				open--;
				response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body></body></html>');
			};
			if (!held) return answer();
			held.push(answer);
			if (open < 4) return;
			const release = held;
			held = undefined;
			for (const send of release) send();
		});
		await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
		const pool = await ScanPool.start({
			threads: 2,
			// Every answer comes once 4 requests are open, however long a loaded machine takes to send them.
			timeoutMs: 10 * 60_000,
			hosts: [`*.test=http://127.0.0.1:${(site.address() as AddressInfo).port}`],
			concurrency: 4,
		});
		try {
			const hosts = Array.from({ length: 24 }, (_, i) => `bounded-${i}.test`);
			const results = await Promise.all(hosts.map((h) => pool.scan(`http://${h}/`)));
			expect(results.every((r) => r.scanned)).toBe(true);
			expect(most).toBe(4);
		} finally {
			await pool.stop();
			site.closeAllConnections();
			site.close();
		}
	});

	it('answers null, never false, for a code it did not find when the tag manager never answers', async () => {
		// Every page is served; every container request is held until the scanner gives up.
		const web = await startSyntheticWebWorker();
		const tagManager = http.createServer(() => undefined);
		await new Promise<void>((resolve) => tagManager.listen(0, '127.0.0.1', resolve));
		const scanner = new Scanner({
			hostMap: new HostMap()
				.add('*.test', web.origin)
				.add(
					'www.googletagmanager.com',
					`http://127.0.0.1:${(tagManager.address() as AddressInfo).port}`,
				),
			timeoutMs: 2000,
		});
		try {
			const hosts = Array.from({ length: 200 }, (_, i) => `unanswered-${i}.test`);
			const results = await Promise.all(hosts.map((h) => scanner.scan(`http://${h}/`)));
			const flags = ['fbPixel', 'tikTokPixel', 'gAnalytics'] as const;
			const withContainers = results.filter((r) => r.scanned && r.containers.length > 0);
			expect(withContainers.length).toBeGreaterThan(0);
			for (const result of withContainers) {
				expect(result.incomplete).toMatch(/^container \S+ not read \(time-out\)/);
				// An unread Tag Manager container may hold any code; a Google tag only Analytics.
				const gtmUnread = result.containers.some((c) => !c.loaded && c.url.includes('/gtm.js'));
				const mayHide = gtmUnread ? flags : (['gAnalytics'] as const);
				expect(mayHide.filter((flag) => result[flag] === false)).toEqual([]);
			}
			// What a scan does say is right: a code found is on the page; a false is a code that no
			// container the page loads could hold, or a page without containers.
			results.forEach((result, i) => {
				const truth = siteTruth(hosts[i]);
				for (const flag of flags)
					if (result[flag] !== null)
						expect([hosts[i], flag, result[flag]]).toEqual([hosts[i], flag, truth[flag]]);
			});
		} finally {
			await scanner.close();
			tagManager.closeAllConnections();
			tagManager.close();
			await web.stop();
		}
	});
});
