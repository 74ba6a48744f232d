import { setTimeout as sleep } from 'node:timers/promises';
import { scanningOnDemand } from '../../mock-server/src/scan/on-demand.cjs';
import type { WebsiteScanning } from '../../mock-server/src/scan/website-scanning.cjs';
import { WAIT_MS, waitUntil } from '../helpers/wait.cjs';

const summary = { fbPixel: false, tikTokPixel: false, gAnalytics: false } as never;

/**
 * A stand-in for the threads: counts how often they were started and stopped. Its scans end when
 * `scanDone` settles (at once by default).
 */
function fakeThreads(scanDone: () => Promise<unknown> = async () => undefined) {
	const counts = { started: 0, stopped: 0 };
	const start = async (): Promise<WebsiteScanning> => {
		counts.started++;
		return {
			scan: async () => {
				await scanDone();
				return summary;
			},
			explain: async () => {
				await scanDone();
				return summary;
			},
			stop: async () => {
				counts.stopped++;
			},
		};
	};
	return { counts, start };
}

describe('website scanning on demand', () => {
	it('starts on the first scan, ends after the idle time, and starts again for the next', async () => {
		const { counts, start } = fakeThreads();
		const scanning = scanningOnDemand(start, 50);
		expect(counts).toEqual({ started: 0, stopped: 0 });
		await Promise.all([scanning.scan('http://a.test/'), scanning.scan('http://b.test/')]);
		expect(counts).toEqual({ started: 1, stopped: 0 });
		// Ends by itself once idle for 50 ms: waited for as a state, however late the timer fires.
		await waitUntil(() => counts.stopped === 1, WAIT_MS, 'the idle scanners to end');
		expect(counts).toEqual({ started: 1, stopped: 1 });
		await scanning.scan('http://c.test/');
		expect(counts).toEqual({ started: 2, stopped: 1 });
		await scanning.stop();
		expect(counts).toEqual({ started: 2, stopped: 2 });
	});

	it('does not end while a scan is in flight, however long it takes', async () => {
		let finish!: () => void;
		const held = new Promise<void>((resolve) => (finish = resolve));
		let holding = false;
		const { counts, start } = fakeThreads(() => (holding ? held : Promise.resolve()));
		const scanning = scanningOnDemand(start, 50);
		await scanning.scan('http://a.test/');
		holding = true;
		const slow = scanning.scan('http://b.test/');
		const slower = scanning.scan('http://c.test/');
		// Held in flight for four idle times: the scanners must still be running after it.
		await sleep(200);
		expect(counts).toEqual({ started: 1, stopped: 0 });
		finish();
		await Promise.all([slow, slower]);
		expect(counts).toEqual({ started: 1, stopped: 0 });
		await scanning.stop();
	});

	it('retries a start that failed', async () => {
		let attempts = 0;
		const scanning = scanningOnDemand(async () => {
			if (++attempts === 1) throw new Error('no threads');
			return fakeThreads().start();
		}, 50);
		await expect(scanning.scan('http://a.test/')).rejects.toThrow('no threads');
		await expect(scanning.scan('http://a.test/')).resolves.toBe(summary);
		await scanning.stop();
	});
});
