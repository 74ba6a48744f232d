import { Limiter } from '../../mock-server/src/core/limiter.cjs';
import { ScanWindow } from '../../mock-server/src/scan/window.cjs';

/** How many of `n` tasks hold a place at once under the limiter right now. */
async function holders(limiter: Limiter, n: number) {
	const releases: (() => void)[] = [];
	for (let i = 0; i < n; i++) void limiter.acquire().then((release) => releases.push(release));
	await new Promise((resolve) => setImmediate(resolve));
	return releases;
}

describe('the scan window', () => {
	it('keeps fewer scans in flight while answers are slow, more as they get quick again', async () => {
		const limiter = new Limiter(100);
		const window = new ScanWindow(limiter, { min: 10, max: 100, targetMs: 250, maxUnread: 32 });
		window.answered(900, 0); // slow: cut to 75
		window.answered(900, 0); // the same congested moment: not cut again
		const held = await holders(limiter, 100);
		expect(held).toHaveLength(75);
		// Places freed above the new limit are not given again...
		for (const release of held.splice(0, 10)) release();
		await new Promise((resolve) => setImmediate(resolve));
		expect(held).toHaveLength(65 + 10); // 10 waiters took the 10 freed places (65 + 10 = 75)
		// ...and quick answers open the window one place each.
		window.answered(20, 0);
		window.answered(20, 0);
		await new Promise((resolve) => setImmediate(resolve));
		expect(held).toHaveLength(77);
	});

	it('keeps fewer in flight while many answers wait to be read, however quick they came', async () => {
		const limiter = new Limiter(100);
		const window = new ScanWindow(limiter, { min: 10, max: 100, targetMs: 250, maxUnread: 32 });
		window.answered(5, 33); // quick, but 33 answers wait in memory: cut to 75
		const held = await holders(limiter, 100);
		expect(held).toHaveLength(75);
		// While they still wait, quick answers do not open it again...
		window.answered(5, 40);
		for (const release of held.splice(0, 5)) release();
		await new Promise((resolve) => setImmediate(resolve));
		expect(held).toHaveLength(70 + 5);
		// ...once they are read, they do.
		window.answered(5, 32);
		await new Promise((resolve) => setImmediate(resolve));
		expect(held).toHaveLength(76);
	});

	it('opens fully once the scanner is idle, so the next search goes out at once', async () => {
		const limiter = new Limiter(64);
		const window = new ScanWindow(limiter, { min: 8, max: 64, targetMs: 250, maxUnread: 32 });
		window.answered(900, 0);
		const held = await holders(limiter, 64);
		expect(held).toHaveLength(48);
		held.forEach((release) => release());
		await new Promise((resolve) => setImmediate(resolve));
		held.splice(0).forEach((release) => release());
		window.settled();
		expect(await holders(limiter, 64)).toHaveLength(64);
	});
});
