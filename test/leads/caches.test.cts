import { Clock } from '../../mock-server/src/core/clock.cjs';
import { businessAt } from '../../mock-server/src/leads/businesses.cjs';
import { resolveCity } from '../../mock-server/src/leads/cities.cjs';
import { BusinessDirectory } from '../../mock-server/src/leads/directory.cjs';
import { resolveNiche } from '../../mock-server/src/leads/niches.cjs';
import { ScanCache } from '../../mock-server/src/leads/scan-cache.cjs';
import { notScanned, type ScanSummary, summarize } from '../../mock-server/src/scan/scanner.cjs';

const scanned = (url: string, fbPixel: boolean): ScanSummary => ({
	...summarize(notScanned(url, '')),
	scanned: true,
	reason: undefined,
	fbPixel,
	tikTokPixel: false,
	gAnalytics: false,
});

describe('the business directory', () => {
	const niche = resolveNiche('dentist')!;
	const [austin, denver] = [resolveCity('Austin, TX')!, resolveCity('Denver, CO')!];

	it('returns the same businesses the generator makes, generating each once', () => {
		const directory = new BusinessDirectory();
		const at = directory.of(niche, austin);
		const first = at(3);
		expect(first).toEqual(businessAt(niche, austin, 3));
		expect(directory.of(niche, austin)(3)).toBe(first);
	});

	it('keeps at most its limit, dropping the least recently used list', () => {
		const directory = new BusinessDirectory(10);
		const austinAt = directory.of(niche, austin);
		for (let rank = 0; rank < 6; rank++) austinAt(rank);
		const denverAt = directory.of(niche, denver);
		for (let rank = 0; rank < 6; rank++) denverAt(rank);
		// Austin's list (older) went; Denver's is kept whole.
		const kept = (
			directory as unknown as { lists: { keys(): Iterable<string>; calculatedSize: number } }
		).lists;
		expect([...kept.keys()]).toEqual([`${niche.id}|${denver.id}`]);
		expect(kept.calculatedSize).toBe(6);
		expect(directory.of(niche, denver)(5)).toBe(denverAt(5));
	});
});

describe('the scan cache', () => {
	it('scans a website once while fresh, keeps only its flags, and scans again after the TTL', async () => {
		const clock = new Clock();
		const asked: string[] = [];
		const cache = new ScanCache(
			async (url) => {
				asked.push(url);
				return scanned(url, true);
			},
			clock,
			1000,
		);
		const first = await cache.flags('http://a.test/');
		expect(first).toEqual({ fbPixel: true, tikTokPixel: false, gAnalytics: false });
		// Known now: answered at once, not as a promise.
		expect(cache.flags('http://a.test/')).toEqual(first);
		expect(asked).toEqual(['http://a.test/']);
		clock.advance(2);
		await cache.flags('http://a.test/');
		expect(asked).toEqual(['http://a.test/', 'http://a.test/']);
		expect(cache.flags(null)).toEqual({ fbPixel: null, tikTokPixel: null, gAnalytics: null });
	});

	it('keeps no failure of the scanning itself: the next search asks again', async () => {
		let fail = true;
		const cache = new ScanCache(async (url) => {
			if (fail) throw new Error('the scanner threads did not start');
			return scanned(url, true);
		}, new Clock());
		await expect(cache.flags('http://a.test/')).rejects.toThrow('did not start');
		fail = false;
		expect(await cache.flags('http://a.test/')).toMatchObject({ fbPixel: true });
	});

	it('shares its scans with the other servers of the process, and finds theirs first', async () => {
		const shared = new Map();
		const asked: string[] = [];
		const scan = async (url: string) => {
			asked.push(url);
			return scanned(url, true);
		};
		const one = new ScanCache(scan, new Clock(), 1000, { shared });
		const other = new ScanCache(scan, new Clock(), 1000, { shared });
		await one.flags('http://a.test/');
		// Known to the other server at once, past its own TTL and a reset (clear) too.
		expect(other.flags('http://a.test/')).toEqual({
			fbPixel: true,
			tikTokPixel: false,
			gAnalytics: false,
		});
		other.clear();
		expect(other.flags('http://a.test/')).toMatchObject({ fbPixel: true });
		expect(asked).toEqual(['http://a.test/']);
	});

	it('holds at most its limit of websites', async () => {
		const cache = new ScanCache(async (url) => scanned(url, false), new Clock(), 60000, { max: 3 });
		for (const host of ['a', 'b', 'c', 'd']) await cache.flags(`http://${host}.test/`);
		expect((cache as unknown as { entries: { size: number } }).entries.size).toBe(3);
	});
});
