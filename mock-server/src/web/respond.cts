import { boundedCache, type LRUCache } from '../core/cache.cjs';
import {
	type Encoding,
	encode,
	negotiate,
	siteEncodings,
	TAG_MANAGER_ENCODINGS,
} from './encoding.cjs';
import { containerProfile, siteProfile } from './profiles.cjs';
import { renderGoogleTag, renderGtmContainer } from './render-container.cjs';
import { renderPage } from './render-page.cjs';

/**
 * What the synthetic web answers for a host and path, independent of the HTTP server carrying it
 * (the public port's virtual hosts, and the helper process the scanners use).
 */
export const TAG_MANAGER_HOST = 'www.googletagmanager.com';
export const SLOW_SITE_DELAY_MS = 10000;

export interface SyntheticResponse {
	status: number;
	headers: Record<string, string>;
	body: string | Buffer;
	/** Slow sites answer only after this long (if the client is still there). */
	delayMs?: number;
}

// Rendered once per host or container and kept as bytes, compressed as sent (no re-encoding per
// answer); a few dozen recent ones are enough for repeated visits and keep the thread's memory small.
const pages = boundedCache<string, Buffer>('renderedPages');
const containers = boundedCache<string, Buffer>('renderedContainers');

/** A rendered page or container in an encoding: its bytes, and the headers that say so. */
interface Encoded {
	bytes: Buffer;
	headers: Record<string, string>;
}

function cached(
	cache: LRUCache<string, Buffer>,
	key: string,
	encoding: Encoding,
	render: () => Buffer,
): Encoded {
	const cacheKey = `${encoding}:${key}`;
	let bytes = cache.get(cacheKey);
	if (!bytes) cache.set(cacheKey, (bytes = encode(render(), encoding)));
	// Vary: the answer depends on the request's Accept-Encoding, as any cache between must know.
	const headers: Record<string, string> = { vary: 'accept-encoding' };
	if (encoding !== 'identity') headers['content-encoding'] = encoding;
	return { bytes, headers };
}

export const isSyntheticHost = (hostname: string) =>
	hostname.endsWith('.test') || hostname === TAG_MANAGER_HOST;

const html = (status: number, body: string | Encoded): SyntheticResponse => {
	const { bytes, headers } = typeof body === 'string' ? { bytes: body, headers: {} } : body;
	return {
		status,
		headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
		body: bytes,
	};
};
const redirect = (status: number, location: string): SyntheticResponse => ({
	status,
	headers: { location },
	body: '',
});

function site(host: string, path: string, acceptEncoding: string | undefined): SyntheticResponse {
	const profile = siteProfile(host);
	const page = () =>
		cached(pages, host, negotiate(siteEncodings(host), acceptEncoding), () => renderPage(profile));
	switch (profile.behavior) {
		case 'server-error':
			return html(503, '<!DOCTYPE html><html><body><h1>503 Service Unavailable</h1></body></html>');
		case 'not-html':
			return {
				status: 200,
				headers: { 'content-type': 'application/pdf' },
				body: Buffer.from(
					`%PDF-1.4\n% ${host} brochure\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
				),
			};
		case 'redirect-loop':
			return redirect(302, path === '/' ? '/welcome' : '/');
		case 'redirect':
			if (path === '/') return redirect(301, '/home');
			return path === '/home' ? html(200, page()) : html(404, '<h1>Not found</h1>');
		case 'slow':
			return { ...html(200, page()), delayMs: SLOW_SITE_DELAY_MS };
		case 'ok':
			return path === '/' ? html(200, page()) : html(404, '<h1>Not found</h1>');
	}
}

function tagManager(
	path: string,
	search: string,
	acceptEncoding: string | undefined,
): SyntheticResponse {
	const id = new URLSearchParams(search).get('id') ?? '';
	const encoding = negotiate(TAG_MANAGER_ENCODINGS, acceptEncoding);
	const js = ({ bytes, headers }: Encoded): SyntheticResponse => ({
		status: 200,
		headers: { 'content-type': 'application/javascript; charset=utf-8', ...headers },
		body: bytes,
	});
	if (path === '/gtm.js' && /^GTM-[A-Z0-9]{4,9}$/.test(id))
		return js(cached(containers, id, encoding, () => renderGtmContainer(containerProfile(id))));
	if (path === '/gtag/js' && /^(G|GT|AW|DC)-[A-Z0-9-]{4,14}$/.test(id))
		return js(cached(containers, id, encoding, () => renderGoogleTag(id)));
	return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not found' };
}

/** The answer to a request; `acceptEncoding` is its Accept-Encoding header (none: uncompressed). */
export function respondSynthetic(
	hostname: string,
	method: string,
	url: string,
	acceptEncoding?: string,
): SyntheticResponse {
	if (method !== 'GET' && method !== 'HEAD')
		return { status: 405, headers: { allow: 'GET' }, body: '' };
	const [path, search = ''] = url.split('?');
	return hostname === TAG_MANAGER_HOST
		? tagManager(path, search, acceptEncoding)
		: site(hostname, path, acceptEncoding);
}
