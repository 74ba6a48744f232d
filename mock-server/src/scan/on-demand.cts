import type { ScanResult, ScanSummary } from './scanner.cjs';
import type { WebsiteScanning } from './website-scanning.cjs';

/**
 * The website scanning started on first use and ended after `idleMs` without a scan: an idle server
 * needs neither the helper processes' memory (what large searches left, given back when they end) nor their start-up,
 * and the next search starts them again. A start that failed is not kept, so the next scan retries.
 */
export function scanningOnDemand(
	start: () => Promise<WebsiteScanning>,
	idleMs: number,
): WebsiteScanning {
	let scanning: Promise<WebsiteScanning> | undefined;
	let inFlight = 0;
	let idleTimer: NodeJS.Timeout | undefined;
	const end = async () => {
		clearTimeout(idleTimer);
		const current = scanning;
		scanning = undefined;
		await (await current?.catch(() => undefined))?.stop();
	};
	/** Runs `work` on the scanning, started if it is not, counted so that idling starts after it. */
	const use = async <T,>(work: (started: WebsiteScanning) => Promise<T>): Promise<T> => {
		clearTimeout(idleTimer);
		inFlight++;
		try {
			scanning ??= start().catch((error: Error) => {
				scanning = undefined;
				throw error;
			});
			return await work(await scanning);
		} finally {
			if (--inFlight === 0) {
				// Never holds the process open: a server closing stops the threads itself.
				idleTimer = setTimeout(() => void end(), idleMs).unref();
			}
		}
	};
	return {
		scan: (url: string): Promise<ScanSummary> => use((started) => started.scan(url)),
		explain: (url: string): Promise<ScanResult> => use((started) => started.explain(url)),
		stop: end,
	};
}
