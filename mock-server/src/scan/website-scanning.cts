import {
	SYNTHETIC_WEB_KEEP_ALIVE_MS,
	startSyntheticWebWorker,
	TAG_MANAGER_HOST,
} from '../web/index.cjs';
import { HostMap } from './fetcher.cjs';
import { ScanPool } from './pool.cjs';
import { Scanner, type ScanSummary, summarize } from './scanner.cjs';

/**
 * How the server scans the business websites of its lead searches: the synthetic web on a worker
 * thread, scanned by a pool of scanner threads, so neither serving nor parsing the pages runs on
 * the thread that answers the API. Where a thread cannot start, the work falls back to the main
 * thread (the websites are also this server's own virtual hosts) with a warning.
 */
export interface WebsiteScanning {
	scan: (url: string) => Promise<ScanSummary>;
	stop: () => Promise<void>;
}

export async function startWebsiteScanning(options: {
	/** The server's own port, serving the websites when the worker thread cannot. */
	fallbackOrigin: string;
	timeoutMs: number;
	/** Scanner threads; 0 scans on the main thread. */
	threads: number;
	/** Websites scanned at once, all threads together (ScanPool's default when absent). */
	concurrency?: number;
	warn: (message: string, error: Error) => void;
}): Promise<WebsiteScanning> {
	let origin = options.fallbackOrigin;
	let stopWeb = async () => undefined as void;
	// Connections to the web's own thread are kept for later searches, closed a little before it
	// would close them; to the server's own port only briefly, as the server's close waits for them.
	let keepAliveMs: number | undefined;
	try {
		const web = await startSyntheticWebWorker();
		origin = web.origin;
		stopWeb = () => web.stop();
		keepAliveMs = SYNTHETIC_WEB_KEEP_ALIVE_MS - 5000;
	} catch (error) {
		options.warn(
			'synthetic web worker did not start; serving the websites from the main thread',
			error as Error,
		);
	}
	const hosts = [`*.test=${origin}`, `${TAG_MANAGER_HOST}=${origin}`];
	if (options.threads > 0) {
		try {
			const pool = await ScanPool.start({
				threads: options.threads,
				timeoutMs: options.timeoutMs,
				hosts,
				concurrency: options.concurrency,
				keepAliveMs,
			});
			return {
				scan: (url) => pool.scan(url),
				stop: async () => {
					await pool.stop();
					await stopWeb();
				},
			};
		} catch (error) {
			options.warn('scanner threads did not start; scanning on the main thread', error as Error);
		}
	}
	// On the main thread at most 128 at once: more would stall the API's own requests.
	const scanner = new Scanner({
		timeoutMs: options.timeoutMs,
		hostMap: HostMap.parse(hosts),
		concurrency: Math.min(128, options.concurrency ?? 128),
	});
	return {
		scan: (url) => scanner.scan(url).then(summarize),
		stop: async () => {
			await scanner.close();
			await stopWeb();
		},
	};
}
