import http from 'node:http';
import zlib from 'node:zlib';
import { startMockServer } from '../../mock-server/src/api/index.cjs';
import { negotiate, siteEncodings } from '../../mock-server/src/web/encoding.cjs';
import { siteProfile } from '../../mock-server/src/web/profiles.cjs';
import { startSyntheticWebServer } from '../../mock-server/src/web/routes.cjs';

/** A GET with these headers, its answer as received (nothing decoded). */
function get(
	origin: string,
	host: string,
	path: string,
	headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; bytes: Buffer }> {
	return new Promise((resolve, reject) => {
		const request = http.get(
			`${origin}${path}`,
			{ agent: false, headers: { host, ...headers } },
			(response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () =>
					resolve({
						status: response.statusCode!,
						headers: response.headers,
						bytes: Buffer.concat(chunks),
					}),
				);
			},
		);
		request.on('error', reject);
	});
}

const decode = (bytes: Buffer, encoding: string | undefined) =>
	encoding === 'br'
		? zlib.brotliDecompressSync(bytes)
		: encoding === 'gzip'
			? zlib.gunzipSync(bytes)
			: bytes;

describe('the synthetic web compresses as real websites do', () => {
	it('chooses the first encoding the site offers that the client accepts', () => {
		const both: ('br' | 'gzip')[] = ['br', 'gzip'];
		expect(negotiate(both, 'gzip, deflate, br')).toBe('br');
		expect(negotiate(both, 'gzip')).toBe('gzip');
		expect(negotiate(both, 'br;q=0, gzip;q=0.5')).toBe('gzip');
		expect(negotiate(both, '*')).toBe('br');
		expect(negotiate(both, '*, br;q=0')).toBe('gzip');
		expect(negotiate(both, 'identity')).toBe('identity');
		expect(negotiate(both, undefined)).toBe('identity');
		expect(negotiate(['gzip'], 'br')).toBe('identity');
		expect(negotiate([], 'gzip, br')).toBe('identity');
	});

	it('sends each site as it offers it (Brotli, gzip or uncompressed), the same page once decoded', async () => {
		const { port, server } = await startSyntheticWebServer();
		const origin = `http://127.0.0.1:${port}`;
		try {
			// Sites that answer their page at once (no redirect, error or 10 s delay).
			const hosts = Array.from({ length: 80 }, (_, i) => `encoded-${i}.test`).filter(
				(host) => siteProfile(host).behavior === 'ok',
			);
			const seen = new Set<string>();
			for (const host of hosts) {
				const plain = await get(origin, host, '/');
				const sent = await get(origin, host, '/', { 'accept-encoding': 'gzip, deflate, br' });
				const encoding = sent.headers['content-encoding'];
				// The first the site offers (the client accepts all three).
				expect(encoding ?? 'identity').toBe(siteEncodings(host)[0] ?? 'identity');
				expect(plain.headers['content-encoding']).toBeUndefined();
				expect(sent.headers.vary).toBe('accept-encoding');
				expect(decode(sent.bytes, encoding).equals(plain.bytes)).toBe(true);
				seen.add(encoding ?? 'identity');
			}
			// What the scanner meets among 60 sites: all three.
			expect([...seen].sort()).toEqual(['br', 'gzip', 'identity']);
		} finally {
			server.closeAllConnections();
			await new Promise((resolve) => server.close(resolve));
		}
	});

	it("sends the tag manager's containers compressed, and the public port's sites as the client asks", async () => {
		const server = await startMockServer({ db: ':memory:', log: false });
		try {
			const container = '/gtm.js?id=GTM-ABC1234';
			const plain = await get(server.url, 'www.googletagmanager.com', container);
			const gzip = await get(server.url, 'www.googletagmanager.com', container, {
				'accept-encoding': 'gzip',
			});
			expect(plain.status).toBe(200);
			expect(plain.headers['content-encoding']).toBeUndefined();
			expect(gzip.headers['content-encoding']).toBe('gzip');
			expect(zlib.gunzipSync(gzip.bytes).equals(plain.bytes)).toBe(true);
			// A site on the server's own port, as a browser or curl --compressed gets it.
			const host = Array.from({ length: 40 }, (_, i) => `public-${i}.test`).find(
				(h) => siteProfile(h).behavior === 'ok' && siteEncodings(h)[0] === 'br',
			)!;
			const br = await get(server.url, host, '/', { 'accept-encoding': 'br' });
			expect(br.headers['content-encoding']).toBe('br');
			expect(zlib.brotliDecompressSync(br.bytes).toString()).toContain('<html');
		} finally {
			await server.close();
		}
	});
});
