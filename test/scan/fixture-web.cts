import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

const DIR = join(__dirname, '../fixtures/scan');

/**
 * A local web for the scanner tests: fixture pages at http://fixtures.test/<file>, containers at
 * the tag manager's paths, compressed pages, and the failure modes (slow, dripping, huge, cut off,
 * loops, 5xx, not HTML). The slow and dripping answers never end (until the scanner gives up): a
 * time-out is then the only outcome, however loaded the machine.
 *
 * Containers that cannot be read, for pages that load them (/with-containers?ids=A,B, with a Meta
 * pixel on the page itself unless `&meta=no`; GTM- ids load as gtm.js, others as Google tags,
 * gtag/js): GTM-NEVER00 and AW-NEVER0001 never answer, GTM-ERROR00 answers 500, GTM-HUGE000 is
 * 300 KiB, GTM-LOADERR loads GTM-ERROR00, GTM-CHAIN<n> loads GTM-CHAIN<n+1> (a chain deeper
 * than any bound). An id without a fixture file answers 404 (GTM-MISSING, AW-404404404).
 */
const UNREAD_CONTAINER = /^(GTM|AW)-(NEVER|ERROR|HUGE|CHAIN|LOADERR)/;
const META_PIXEL = `<script>!function(f,b,e,v,n,t,s){}(window,document,'script','https://connect.facebook.net/en_US/fbevents.js');fbq('init', '123456789012345');fbq('track', 'PageView');</script>`;
const pageLoading = (ids: string[], meta: boolean) =>
	`<html><head>${meta ? META_PIXEL : ''}${ids
		.map(
			(id) =>
				`<script async src="https://www.googletagmanager.com/${id.startsWith('GTM-') ? 'gtm.js' : 'gtag/js'}?id=${id}"></script>`,
		)
		.join('')}</head><body></body></html>`;
const chainContainer = (next: string) =>
	`(function(){var data = {"resource":{"version":"2","macros":[],"tags":[{"function":"__zone","vtp_childContainers":["list",["map","publicId","${next}"]],"tag_id":1}]},"runtime":[],"permissions":{}};})()`;
function answerUnreadable(id: string, res: http.ServerResponse): void {
	if (/^[A-Z]+-NEVER/.test(id)) return; // holds the request: the scanner's time-out ends it
	if (id.startsWith('GTM-ERROR')) {
		res.writeHead(500).end('internal error');
		return;
	}
	const js = { 'content-type': 'application/javascript' };
	if (id.startsWith('GTM-HUGE')) {
		res.writeHead(200, js).end(`/*${'x'.repeat(300 * 1024)}*/`);
		return;
	}
	const next = id.startsWith('GTM-LOADERR')
		? 'GTM-ERROR00'
		: `GTM-CHAIN${Number(id.slice('GTM-CHAIN'.length)) + 1}`;
	res.writeHead(200, js).end(chainContainer(next));
}

export async function startFixtureWeb(): Promise<{ origin: string; close(): Promise<void> }> {
	const server = http.createServer((req, res) => {
		const url = new URL(req.url!, 'http://x');
		const host = (req.headers.host ?? '').toLowerCase();
		if (host === 'www.googletagmanager.com') {
			const id = url.searchParams.get('id') ?? '';
			if (UNREAD_CONTAINER.test(id)) return answerUnreadable(id, res);
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
				return; // never answers
			case '/drip':
				// Answers at once, sends the page's first bytes, and never the rest.
				res.writeHead(200, { 'content-type': 'text/html' });
				res.write('<html><body>');
				return;
			case '/with-containers':
				res
					.writeHead(200, { 'content-type': 'text/html' })
					.end(
						pageLoading(
							(url.searchParams.get('ids') ?? '').split(',').filter(Boolean),
							url.searchParams.get('meta') !== 'no',
						),
					);
				return;
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
