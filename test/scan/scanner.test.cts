import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import { HostMap } from '../../mock-server/src/scan/fetcher.cjs';
import { Scanner, type ScanResult } from '../../mock-server/src/scan/scanner.cjs';
import { siteTruth } from '../../mock-server/src/web/profiles.cjs';
import { SLOW_SITE_DELAY_MS } from '../../mock-server/src/web/respond.cjs';
import { startServer } from '../helpers/server.cjs';
import { WAIT_MS, waitUntil } from '../helpers/wait.cjs';
import { startFixtureWeb } from './fixture-web.cjs';

type Expect = { fb: boolean; tt: boolean; ga: boolean; ids?: Partial<ScanResult['ids']> };

const CASES: Record<string, Expect> = {
	'meta-base.html': { fb: true, tt: false, ga: false, ids: { metaPixel: ['123456789012345'] } },
	'meta-addpixelid.html': {
		fb: true,
		tt: false,
		ga: false,
		ids: { metaPixel: ['1234567890123456'] },
	},
	'meta-noscript-only.html': {
		fb: true,
		tt: false,
		ga: false,
		ids: { metaPixel: ['987654321098765'] },
	},
	'meta-rendered-signals.html': {
		fb: true,
		tt: false,
		ga: false,
		ids: { metaPixel: ['555555555555555'] },
	},
	'meta-wordpress-plugin.html': {
		fb: true,
		tt: false,
		ga: false,
		ids: { metaPixel: ['246810121416182'] },
	},
	'tiktok-current.html': {
		fb: false,
		tt: true,
		ga: false,
		ids: { tiktokPixel: ['CABCDEFGC77UJKLMNOPQ'] },
	},
	'tiktok-legacy.html': {
		fb: false,
		tt: true,
		ga: false,
		ids: { tiktokPixel: ['BQ2RSTUVC77U1234ABCD'] },
	},
	'ga4-gtag.html': { fb: false, tt: false, ga: true, ids: { googleAnalytics: ['G-ABCDE12345'] } },
	'ua-analytics-js.html': {
		fb: false,
		tt: false,
		ga: true,
		ids: { googleAnalytics: ['UA-12345678-1'] },
	},
	'ua-ga-js.html': { fb: false, tt: false, ga: true, ids: { googleAnalytics: ['UA-7654321-3'] } },
	'ua-urchin.html': { fb: false, tt: false, ga: true, ids: { googleAnalytics: ['UA-1234567-2'] } },
	'consent-blocked.html': {
		fb: true,
		tt: true,
		ga: true,
		ids: {
			metaPixel: ['111122223333444'],
			tiktokPixel: ['DCONSENTC77U99887766'],
			googleAnalytics: ['G-CONSENT123'],
		},
	},
	'gtm-snippet.html': {
		fb: true,
		tt: true,
		ga: false,
		ids: {
			metaPixel: ['314159265358979'],
			tiktokPixel: ['CMINIFIEC77U00000001'],
			googleTagManager: ['GTM-HTML123'],
		},
	},
	'gtm-noscript-only.html': {
		fb: true,
		tt: true,
		ga: false,
		ids: { metaPixel: ['271828182845904'], tiktokPixel: ['CCOMMUNITC77U0000003'] },
	},
	'gtm-macros.html': {
		fb: true,
		tt: false,
		ga: true,
		ids: { metaPixel: ['161803398874989'], googleAnalytics: ['UA-99887766-5'] },
	},
	'gtm-zone.html': {
		fb: false,
		tt: false,
		ga: true,
		ids: { googleAnalytics: ['G-CHILD98765'], googleTagManager: ['GTM-ZONE123', 'GTM-CHILD01'] },
	},
	'gtm-paused.html': {
		fb: false,
		tt: false,
		ga: false,
		ids: { metaPixel: [], googleTag: ['AW-987654321'] },
	},
	'google-tag-gt.html': {
		fb: false,
		tt: false,
		ga: true,
		ids: { googleAnalytics: ['G-DEST123456'], googleTag: ['GT-WXYZ1234'] },
	},
	'lookalike-facebook-sdk.html': { fb: false, tt: false, ga: false, ids: { metaPixel: [] } },
	'lookalike-ads-only.html': {
		fb: false,
		tt: false,
		ga: false,
		ids: { googleAnalytics: [], googleTag: ['AW-123456789'] },
	},
	'lookalike-bare-ids.html': {
		fb: false,
		tt: false,
		ga: false,
		ids: { metaPixel: [], tiktokPixel: [], googleAnalytics: [], googleTagManager: [] },
	},
};

describe('website scanner on the fixture corpus', () => {
	let web: Awaited<ReturnType<typeof startFixtureWeb>>;
	let scanner: Scanner;
	/** For the answers that never come: a time-out is their only outcome, so it may be short. */
	let impatient: Scanner;
	beforeAll(async () => {
		web = await startFixtureWeb();
		const hostMap = new HostMap()
			.add('fixtures.test', web.origin)
			.add('www.googletagmanager.com', web.origin);
		// Every other answer comes: it gets the time a loaded machine may need (a site's time-out is
		// how long the scanner waits, not a claim about speed).
		scanner = new Scanner({
			hostMap,
			timeoutMs: 60_000,
			maxPageBytes: 200 * 1024,
			maxContainerBytes: 200 * 1024,
		});
		impatient = new Scanner({ hostMap, timeoutMs: 200, maxContainerBytes: 200 * 1024 });
	});
	afterAll(async () => {
		await Promise.all([scanner.close(), impatient.close()]);
		await web.close();
	});

	it.each(Object.entries(CASES))('%s', async (file, expected) => {
		const result = await scanner.scan(`http://fixtures.test/pages/${file}`);
		expect(result.scanned).toBe(true);
		expect({ fb: result.fbPixel, tt: result.tikTokPixel, ga: result.gAnalytics }).toEqual({
			fb: expected.fb,
			tt: expected.tt,
			ga: expected.ga,
		});
		for (const [kind, ids] of Object.entries(expected.ids ?? {})) {
			expect(result.ids[kind as keyof ScanResult['ids']].sort()).toEqual([...ids].sort());
		}
	});

	it('says where each code was found', async () => {
		const consent = await scanner.scan('http://fixtures.test/pages/consent-blocked.html');
		expect(consent.findings.map((f) => f.where)).toEqual(
			expect.arrayContaining([
				'script (disabled: type=text/plain)',
				'script (disabled: type=javascript/blocked)',
			]),
		);
		const noscript = await scanner.scan('http://fixtures.test/pages/meta-noscript-only.html');
		expect(noscript.findings[0]).toMatchObject({ kind: 'metaPixel', where: 'noscript' });
		const gtm = await scanner.scan('http://fixtures.test/pages/gtm-macros.html');
		expect(gtm.findings.map((f) => f.where)).toEqual(
			expect.arrayContaining([expect.stringMatching(/^container GTM-MACRO12 tag #1 \(__img\)/)]),
		);
	});

	it.each([
		['no website', null, 'no website'],
		['a time-out', '/slow', 'time-out'],
		['a body sent slower than the time-out', '/drip', 'time-out'],
		['the size cap', '/huge', 'response too large (over 204800 bytes)'],
		['the size cap, reached once decoded', '/gzip-bomb', 'response too large (over 204800 bytes)'],
		[
			'a body its encoding cannot decode',
			'/bad-gzip',
			expect.stringMatching(/^undecodable body \(/),
		],
		['a redirect loop', '/loop-a', 'redirect loop'],
		['an HTTP error', '/error', 'HTTP 503'],
		['non-HTML content', '/brochure.pdf', 'not HTML (application/pdf)'],
		['a DNS failure', 'http://nowhere.invalid/', 'DNS lookup failed'],
		['a connection closed before the whole body came', '/cut', 'connection closed'],
	])('reports %s as not scanned', async (_label, path, reason) => {
		const url =
			path === null ? null : path.startsWith('http') ? path : `http://fixtures.test${path}`;
		const result = await (reason === 'time-out' ? impatient : scanner).scan(url);
		expect(result).toMatchObject({
			scanned: false,
			reason,
			fbPixel: null,
			tikTokPixel: null,
			gAnalytics: null,
		});
	});

	it.each([
		['never answers', ['GTM-NEVER00'], 'container GTM-NEVER00 not read (time-out)'],
		['answers 500', ['GTM-ERROR00'], 'container GTM-ERROR00 not read (HTTP 500)'],
		[
			'is over its size cap',
			['GTM-HUGE000'],
			'container GTM-HUGE000 not read (response too large (over 204800 bytes))',
		],
		['loads one that answers 500', ['GTM-LOADERR'], 'container GTM-ERROR00 not read (HTTP 500)'],
		[
			'loads containers deeper than the bound',
			['GTM-CHAIN1'],
			'container GTM-CHAIN4 not read (not followed: more than 3 containers deep)',
		],
	])(
		'says it does not know the codes it did not find when a Tag Manager container %s',
		async (_label, ids, unreadBecause) => {
			// A container that never answers needs the impatient scanner; on a loaded machine it may
			// also give up on another, so that one only has to be among what was not read.
			const never = ids.includes('GTM-NEVER00');
			const result = await (never ? impatient : scanner).scan(
				`http://fixtures.test/with-containers?ids=${ids.join(',')}`,
			);
			// The page's own Meta pixel is known; the other two codes could be in the unread container.
			expect(result).toMatchObject({
				scanned: true,
				fbPixel: true,
				tikTokPixel: null,
				gAnalytics: null,
			});
			const incomplete = `${unreadBecause}; left unknown: tikTokPixel, gAnalytics`;
			if (never) expect(result.incomplete).toContain(unreadBecause);
			else expect(result.incomplete).toBe(incomplete);
			expect(result.incomplete).toMatch(/; left unknown: tikTokPixel, gAnalytics$/);
		},
	);

	it('knows a container the tag host answers 404 holds nothing', async () => {
		// No such container: a browser runs nothing from it. A Google Ads tag and a Tag Manager
		// container, on a page without any code of its own: every code is known absent.
		for (const id of ['AW-404404404', 'GTM-MISSING']) {
			const result = await scanner.scan(`http://fixtures.test/with-containers?ids=${id}&meta=no`);
			expect(result).toMatchObject({
				scanned: true,
				fbPixel: false,
				tikTokPixel: false,
				gAnalytics: false,
			});
			expect(result.incomplete).toBeUndefined();
			expect(result.containers).toEqual([
				expect.objectContaining({ id, loaded: true, reason: expect.stringMatching(/^HTTP 404/) }),
			]);
		}
	});

	it('leaves only Google Analytics unknown when a Google tag is not read', async () => {
		// A Google tag loads Google's products only: never a Meta or a TikTok pixel.
		const result = await impatient.scan(
			'http://fixtures.test/with-containers?ids=AW-NEVER0001&meta=no',
		);
		expect(result).toMatchObject({
			scanned: true,
			fbPixel: false,
			tikTokPixel: false,
			gAnalytics: null,
			incomplete: 'container AW-NEVER0001 not read (time-out); left unknown: gAnalytics',
		});
		// Beside it, an unread Tag Manager container leaves every code not found unknown.
		const both = await impatient.scan(
			'http://fixtures.test/with-containers?ids=AW-NEVER0001,GTM-NEVER00&meta=no',
		);
		expect(both).toMatchObject({ fbPixel: null, tikTokPixel: null, gAnalytics: null });
		expect(both.incomplete).toMatch(/; left unknown: fbPixel, tikTokPixel, gAnalytics$/);
	});

	it('says false for a code only when every container was read', async () => {
		// GTM-PAUSED1 is read in full and holds no active Meta tag; the page holds none either.
		const all = await scanner.scan('http://fixtures.test/pages/gtm-paused.html');
		expect(all).toMatchObject({ scanned: true, fbPixel: false, tikTokPixel: false });
		expect(all.incomplete).toBeUndefined();
		// The same containers with one more that never answers: the codes not found are not known.
		const partly = await impatient.scan(
			'http://fixtures.test/with-containers?ids=GTM-PAUSED1,GTM-NEVER00',
		);
		expect(partly).toMatchObject({ fbPixel: true, tikTokPixel: null, gAnalytics: null });
		expect(partly.containers).toContainEqual(
			expect.objectContaining({ id: 'GTM-NEVER00', loaded: false, reason: 'time-out' }),
		);
	});

	it.each([
		['gzip', '/gzipped'],
		['brotli', '/brotli'],
	])('reads a page sent %s-compressed in chunks', async (_encoding, path) => {
		const result = await scanner.scan(`http://fixtures.test${path}`);
		expect(result).toMatchObject({ scanned: true, gAnalytics: true, fbPixel: false });
	});

	it('follows redirects to the page', async () => {
		const result = await scanner.scan('http://fixtures.test/moved');
		expect(result).toMatchObject({
			scanned: true,
			gAnalytics: true,
			finalUrl: 'http://fixtures.test/pages/ga4-gtag.html',
		});
	});
});

describe("the scanner's time-out", () => {
	it("counts the site's time, not the time its answer waited for a busy scanner", async () => {
		// A site on another thread answers 50 ms after the request arrives, while this thread is busy
		// for 300 ms: its answer waits in the socket past the 100 ms time-out, and must still count
		// as in time. The site says when the request arrived, so a slow machine cannot start the
		// busy time before the request is on its way.
		const site = new Worker(
			`const http = require('node:http');
			const { parentPort } = require('node:worker_threads');
			const server = http.createServer((req, res) => {
				parentPort.postMessage('request');
				setTimeout(() =>
					res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>hi</body></html>'), 50);
			});
			server.listen(0, '127.0.0.1', () =>
				parentPort.postMessage(server.address().port));`,
			{ eval: true },
		);
		try {
			const port = await new Promise<number>((resolve) => site.once('message', resolve));
			const scanner = new Scanner({
				hostMap: new HostMap().add('late.test', `http://127.0.0.1:${port}`),
				timeoutMs: 100,
			});
			const arrived = new Promise((resolve) => site.once('message', resolve));
			const scan = scanner.scan('http://late.test/');
			await arrived;
			// Busy from the check phase, so the loop's next turn starts with the expired timer.
			await new Promise((resolve) => setImmediate(resolve));
			const busyUntil = Date.now() + 300;
			while (Date.now() < busyUntil); // the thread is busy, as under a large search
			expect(await scan).toMatchObject({ scanned: true, url: 'http://late.test/' });
		} finally {
			await site.terminate();
		}
	});
});

describe('the synthetic web', () => {
	it('is scanned to exactly what the generator put in it, containers included', async () => {
		const server = await startServer({ log: false });
		try {
			const origin = server.url;
			// The slow sites answer after SLOW_SITE_DELAY_MS and must time out; every other page and
			// container gets all the time short of that, and at most 32 sites are in flight, so that
			// on a busy machine (this thread serves and scans) no answer waits behind 300 others.
			const scanner = new Scanner({
				hostMap: new HostMap().add('*.test', origin).add('www.googletagmanager.com', origin),
				timeoutMs: SLOW_SITE_DELAY_MS - 1000,
				concurrency: 32,
			});
			const hosts = Array.from({ length: 300 }, (_, i) => `synthetic-${i}.test`);
			const results = await Promise.all(hosts.map((h) => scanner.scan(`http://${h}/`)));
			const mismatches = results.filter((r, i) => {
				const truth = siteTruth(hosts[i]);
				return (
					r.scanned !== truth.scanned ||
					r.fbPixel !== truth.fbPixel ||
					r.tikTokPixel !== truth.tikTokPixel ||
					r.gAnalytics !== truth.gAnalytics
				);
			});
			expect(mismatches).toEqual([]);
			// the mix holds every kind of site
			expect(results.some((r) => r.containers.length > 0 && r.fbPixel)).toBe(true);
			expect(new Set(results.filter((r) => !r.scanned).map((r) => r.reason))).toEqual(
				new Set(['time-out', 'HTTP 503', 'not HTML (application/pdf)', 'redirect loop']),
			);
			// closing the scanner closes the connections it kept (a closing server waits for them)
			const connections = () =>
				new Promise<number>((resolve, reject) =>
					server.app.server.getConnections((error, count) =>
						error ? reject(error) : resolve(count),
					),
				);
			expect(await connections()).toBeGreaterThan(0);
			await scanner.close();
			await waitUntil(async () => (await connections()) === 0, WAIT_MS, 'the connections to close');
			// deterministic: the same site twice gives the same page
			const again = await fetch(`${origin}/`, { headers: { host: hosts[0] } });
			const first = await fetch(`${origin}/`, { headers: { host: hosts[0] } });
			expect(await again.text()).toBe(await first.text());
		} finally {
			await server.close();
		}
	});
});

describe('scan CLI', () => {
	it('scans a locally served site end to end through --map-host', async () => {
		const web = await startFixtureWeb();
		try {
			const { stdout } = await promisify(execFile)(
				process.execPath,
				[
					require.resolve('tsx/cli'),
					join(__dirname, '../../mock-server/src/scan/cli.cts'),
					'http://shop.test/pages/gtm-macros.html',
					'--map-host',
					`shop.test=${web.origin}`,
					'--map-host',
					`www.googletagmanager.com=${web.origin}`,
				],
				{ timeout: 30000 },
			);
			const result = JSON.parse(stdout);
			expect(result).toMatchObject({
				scanned: true,
				fbPixel: true,
				tikTokPixel: false,
				gAnalytics: true,
			});
			expect(result.ids.googleAnalytics).toEqual(['UA-99887766-5']);
		} finally {
			await web.close();
		}
	});
});
