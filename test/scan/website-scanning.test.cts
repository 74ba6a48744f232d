import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScanPool } from '../../mock-server/src/scan/pool.cjs';
import { startWebsiteScanning } from '../../mock-server/src/scan/website-scanning.cjs';
import { siteTruth } from '../../mock-server/src/web/profiles.cjs';
import { startSyntheticWebWorker } from '../../mock-server/src/web/worker.cjs';

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
			timeoutMs: 3000,
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
			timeoutMs: 3000,
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
			timeoutMs: 3000,
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
});
