import { boundedCache, type LRUCache } from '../core/cache.cjs';
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

// Rendered once per host or container and kept as bytes (no re-encoding per answer); a few dozen
// recent ones are enough for repeated visits and keep the thread's memory small.
const pages = boundedCache<string, Buffer>('renderedPages');
const containers = boundedCache<string, Buffer>('renderedContainers');

function cached(cache: LRUCache<string, Buffer>, key: string, render: () => Buffer): Buffer {
	let bytes = cache.get(key);
	if (!bytes) cache.set(key, (bytes = render()));
	return bytes;
}

export const isSyntheticHost = (hostname: string) =>
	hostname.endsWith('.test') || hostname === TAG_MANAGER_HOST;

const html = (status: number, body: string | Buffer): SyntheticResponse => ({
	status,
	headers: { 'content-type': 'text/html; charset=utf-8' },
	body,
});
const redirect = (status: number, location: string): SyntheticResponse => ({
	status,
	headers: { location },
	body: '',
});

function site(host: string, path: string): SyntheticResponse {
	const profile = siteProfile(host);
	const page = () => cached(pages, host, () => renderPage(profile));
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

function tagManager(path: string, search: string): SyntheticResponse {
	const id = new URLSearchParams(search).get('id') ?? '';
	const js = (body: Buffer): SyntheticResponse => ({
		status: 200,
		headers: { 'content-type': 'application/javascript; charset=utf-8' },
		body,
	});
	if (path === '/gtm.js' && /^GTM-[A-Z0-9]{4,9}$/.test(id))
		return js(cached(containers, id, () => renderGtmContainer(containerProfile(id))));
	if (path === '/gtag/js' && /^(G|GT|AW|DC)-[A-Z0-9-]{4,14}$/.test(id))
		return js(cached(containers, id, () => renderGoogleTag(id)));
	return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'Not found' };
}

export function respondSynthetic(hostname: string, method: string, url: string): SyntheticResponse {
	if (method !== 'GET' && method !== 'HEAD')
		return { status: 405, headers: { allow: 'GET' }, body: '' };
	const [path, search = ''] = url.split('?');
	return hostname === TAG_MANAGER_HOST ? tagManager(path, search) : site(hostname, path);
}
