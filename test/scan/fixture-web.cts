import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const DIR = join(__dirname, '../fixtures/scan');

/**
 * A local web for the scanner tests: fixture pages at http://fixtures.test/<file>, containers at
 * the tag manager's paths, compressed pages, and the failure modes (slow, dripping, huge, cut off,
 * loops, 5xx, not HTML).
 */
export async function startFixtureWeb(): Promise<{ origin: string; close(): Promise<void> }> {
	const server = http.createServer((req, res) => {
		const url = new URL(req.url!, 'http://x');
		const host = (req.headers.host ?? '').toLowerCase();
		if (host === 'www.googletagmanager.com') {
			const id = url.searchParams.get('id') ?? '';
			try {
				const body = readFileSync(join(DIR, 'containers', `${id.replace(/[^A-Z0-9-]/g, '')}.js`));
				res.writeHead(200, { 'content-type': 'application/javascript' }).end(body);
			} catch {
				res.writeHead(404).end();
			}
			return;
		}
		switch (url.pathname) {
			case '/slow':
				setTimeout(
					() => res.writeHead(200, { 'content-type': 'text/html' }).end('<html></html>'),
					3000,
				).unref();
				return;
			case '/drip': {
				// Answers at once, then sends the rest of the page over 3 s.
				res.writeHead(200, { 'content-type': 'text/html' });
				res.write('<html><body>');
				const timer = setTimeout(() => res.end('</body></html>'), 3000).unref();
				res.on('close', () => clearTimeout(timer));
				return;
			}
			case '/huge':
				res.writeHead(200, { 'content-type': 'text/html' });
				res.end('<html><body>' + 'x'.repeat(300 * 1024) + '</body></html>');
				return;
			case '/loop-a':
				res.writeHead(302, { location: '/loop-b' }).end();
				return;
			case '/loop-b':
				res.writeHead(302, { location: '/loop-a' }).end();
				return;
			case '/moved':
				res.writeHead(301, { location: '/pages/ga4-gtag.html' }).end();
				return;
			case '/error':
				res.writeHead(503, { 'content-type': 'text/html' }).end('<h1>down</h1>');
				return;
			case '/gzipped':
			case '/brotli': {
				// A compressed page sent in chunks (no content-length), as most real servers send it.
				const page = readFileSync(join(DIR, 'pages', 'ga4-gtag.html'));
				const gzip = url.pathname === '/gzipped';
				const body = gzip ? gzipSync(page) : brotliCompressSync(page);
				res.writeHead(200, {
					'content-type': 'text/html',
					'content-encoding': gzip ? 'gzip' : 'br',
				});
				const half = body.length >> 1;
				res.write(body.subarray(0, half));
				setTimeout(() => res.end(body.subarray(half)), 20).unref();
				return;
			}
			case '/gzip-bomb':
				// 5 KiB that expand to 4 MiB: over the size cap once decoded, not as sent.
				res
					.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
					.end(gzipSync(Buffer.alloc(4 * 1024 * 1024, ' ')));
				return;
			case '/bad-gzip':
				res
					.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' })
					.end('<html><body>not gzip at all</body></html>');
				return;
			case '/cut':
				// Promises a body and closes the connection halfway through it.
				res.writeHead(200, { 'content-type': 'text/html', 'content-length': '2000' });
				res.write('<html><body>' + 'x'.repeat(988));
				setTimeout(() => res.destroy(), 20).unref();
				return;
			case '/brochure.pdf':
				res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4');
				return;
		}
		try {
			const body = readFileSync(join(DIR, url.pathname.replace(/\.\./g, '')));
			res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
		} catch {
			res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>not found</h1>');
		}
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	return {
		origin,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
