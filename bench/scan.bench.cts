import { HostMap } from '../mock-server/src/scan/fetcher.cjs';
import { Scanner } from '../mock-server/src/scan/scanner.cjs';
import { line, PeakMemory, startServerProcess } from './support.cjs';

/**
 * 1,000 synthetic business websites scanned through the real HTTP path (pages and the
 * tag-manager containers they load), served by a reference server in its own process.
 */
export async function benchScan(): Promise<void> {
	const server = await startServerProcess();
	try {
		const hostMap = new HostMap()
			.add('*.test', server.url)
			.add('www.googletagmanager.com', server.url);
		// warm-up on other hosts (JIT, keep-alive sockets)
		const warm = new Scanner({ hostMap, timeoutMs: 1000 });
		await Promise.all(Array.from({ length: 200 }, (_, i) => warm.scan(`http://warmup-${i}.test/`)));

		for (const run of [1, 2]) {
			const scanner = new Scanner({ hostMap, timeoutMs: 1000 });
			const memory = new PeakMemory();
			const started = process.hrtime.bigint();
			const results = await Promise.all(
				Array.from({ length: 1000 }, (_, i) => scanner.scan(`http://bench-${run}-${i}.test/`)),
			);
			const ms = Number(process.hrtime.bigint() - started) / 1e6;
			const containers = results.reduce((n, r) => n + r.containers.length, 0);
			const timeouts = results.filter((r) => r.reason === 'time-out').length;
			console.log(`\nscan run ${run}`);
			line('sites scanned', results.length);
			line('containers fetched', containers);
			line(
				'not scanned (time-out / other)',
				`${timeouts} / ${results.filter((r) => !r.scanned).length - timeouts}`,
			);
			line('wall time', `${ms.toFixed(0)} ms`);
			line('sites/s', (1000 / (ms / 1000)).toFixed(0));
			line('peak RSS (scanner process)', memory.stop());
			console.log(
				'  (slow sites are cut at the 1000 ms time-out, so one run can not end sooner than that)',
			);
		}
	} finally {
		server.stop();
	}
}

if (require.main === module) void benchScan().then(() => process.exit(0));
