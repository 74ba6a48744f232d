import {
	SYNTHETIC_WEB_KEEP_ALIVE_MS,
	startSyntheticWebWorker,
	TAG_MANAGER_HOST,
} from '../web/index.cjs';
import { HostMap } from './fetcher.cjs';
import { ScanPool } from './pool.cjs';
import { type ScanResult, Scanner, type ScanSummary, summarize } from './scanner.cjs';

/**
 * How the server scans the business websites of its lead searches: the synthetic web on a worker
 * process, scanned by a pool of scanner processes, so neither serving nor parsing the pages runs on
 * the thread that answers the API. Where a thread cannot start, the work falls back to the main
 * thread (the websites are also this server's own virtual hosts) with a warning.
 */
export interface WebsiteScanning {
	scan: (url: string) => Promise<ScanSummary>;
	/**
	 * One website scanned with everything found: each code with the page or container it was in
	 * (the dashboard's "where?"). Rare, so in this process, with a scanner of its own.
	 */
	explain: (url: string) => Promise<ScanResult>;
	stop: () => Promise<void>;
}

export async function startWebsiteScanning(options: {
	/** The server's own port, serving the websites when the helper process cannot. */
	fallbackOrigin: string;
	timeoutMs: number;
	/** Scanner processes; 0 scans in the server's own process. */
	threads: number;
	/** Websites scanned at once, all scanner processes together (ScanPool's default when absent). */
	concurrency?: number;
	warn: (message: string, error: Error) => void;
}): Promise<WebsiteScanning> {
	// The synthetic web and the scanners start at the same time (a process start each); the
	// scanners are told where the websites are once the web has said its port.
	const web = startSyntheticWebWorker().then(
		(started) => ({
			origin: started.origin,
			stop: () => started.stop(),
			// Connections to the web's own process are kept for later searches, closed a little
			// before it would close them; to the server's own port only briefly, as the server's
			// close waits for them.
			keepAliveMs: (SYNTHETIC_WEB_KEEP_ALIVE_MS - 5000) as number | undefined,
		}),
		(error: Error) => {
			options.warn(
				'synthetic web process did not start; serving the websites from the server process',
				error,
			);
			return {
				origin: options.fallbackOrigin,
				stop: async () => undefined,
				keepAliveMs: undefined,
			};
		},
	);
	const hostsOf = ({ origin }: { origin: string }) => [
		`*.test=${origin}`,
		`${TAG_MANAGER_HOST}=${origin}`,
	];
	const stopWeb = async () => await (await web).stop();
	const explain = async (url: string) => {
		const scanner = new Scanner({
			timeoutMs: options.timeoutMs,
			hostMap: HostMap.parse(hostsOf(await web)),
		});
		try {
			return await scanner.scan(url);
		} finally {
			await scanner.close();
		}
	};
	if (options.threads > 0) {
		try {
			const pool = await ScanPool.start({
				threads: options.threads,
				timeoutMs: options.timeoutMs,
				hosts: web.then(hostsOf),
				concurrency: options.concurrency,
				keepAliveMs: web.then((started) => started.keepAliveMs),
			});
			return {
				scan: (url) => pool.scan(url),
				explain,
				stop: async () => {
					await pool.stop();
					await stopWeb();
				},
			};
		} catch (error) {
			options.warn(
				'scanner processes did not start; scanning in the server process',
				error as Error,
			);
		}
	}
	// In the server's own thread at most 128 at once: more would stall the API's own requests.
	const scanner = new Scanner({
		timeoutMs: options.timeoutMs,
		hostMap: HostMap.parse(hostsOf(await web)),
		concurrency: Math.min(128, options.concurrency ?? 128),
	});
	return {
		scan: (url) => scanner.scan(url).then(summarize),
		explain: (url) => scanner.scan(url),
		stop: async () => {
			await scanner.close();
			await stopWeb();
		},
	};
}
