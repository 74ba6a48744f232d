import { availableParallelism } from 'node:os';
import { startWebsiteScanning } from '../mock-server/src/scan/website-scanning.cjs';
import { siteProfile } from '../mock-server/src/web/profiles.cjs';
import { line, memoryOf } from './support.cjs';

/**
 * 1,000 synthetic business websites scanned the way the server's lead search scans them: the
 * synthetic web on its worker thread, the scanner threads mapped to it, pages and the tag-manager
 * containers they load fetched over real HTTP. Memory is this process's peak RSS (all threads).
 */
export async function benchScan(): Promise<void> {
	const threads = Math.max(1, Math.min(4, availableParallelism() - 1));
	const scanning = await startWebsiteScanning({
		fallbackOrigin: 'http://127.0.0.1:9', // not used: the worker thread starts
		timeoutMs: 1000,
		threads,
		warn: (message) => {
			throw new Error(message);
		},
	});
	try {
		// warm-up on other hosts (JIT, keep-alive sockets)
		await Promise.all(
			Array.from({ length: 300 }, (_, i) => scanning.scan(`http://warmup-${i}.test/`)),
		);
		console.log(`\nwebsite scan, ${threads} scanner thread(s) beside the synthetic web's thread`);
		for (const run of [1, 2, 3]) {
			const started = process.hrtime.bigint();
			const results = await Promise.all(
				Array.from({ length: 1000 }, (_, i) => scanning.scan(`http://bench-${run}-${i}.test/`)),
			);
			const ms = Number(process.hrtime.bigint() - started) / 1e6;
			const containers = results.reduce((n, r) => n + r.containers, 0);
			const timeouts = results.filter((r) => r.reason === 'time-out');
			const failed = results.filter((r) => !r.scanned).length - timeouts.length;
			// A time-out of a site that answers at once means the scan was slowed by the load on
			// this machine: its flags would be wrong (null). Must be 0.
			const overloaded = timeouts.filter(
				(r) => siteProfile(new URL(r.url!).hostname).behavior !== 'slow',
			);
			line(
				`run ${run}: 1,000 sites`,
				`${ms.toFixed(0)} ms (${(1000 / (ms / 1000)).toFixed(0)} sites/s), ${containers} containers, ${timeouts.length - overloaded.length} slow sites cut at 1 s, ${failed} not scannable, ${overloaded.length} timed out under load`,
			);
		}
		line('peak RSS of the process (all threads)', `${memoryOf(process.pid).peakMB} MB`);
	} finally {
		await scanning.stop();
	}
}

if (require.main === module) void benchScan().then(() => process.exit(0));
