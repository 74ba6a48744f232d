import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { containerProfile, siteProfile } from './profiles.cjs';
import { renderGoogleTag, renderGtmContainer } from './render-container.cjs';
import { renderPage } from './render-page.cjs';

/**
 * The synthetic web, served by the same process as virtual hosts: business websites under the
 * reserved `.test` names, and a stand-in for the tag manager's host that serves containers. The
 * scanner reaches them through its host mapping, never through DNS.
 */
export const TAG_MANAGER_HOST = 'www.googletagmanager.com';
export const SLOW_SITE_DELAY_MS = 10000;

class Lru<V> {
	private readonly map = new Map<string, V>();

	constructor(private readonly max: number) {}

	get(key: string, make: () => V): V {
		let value = this.map.get(key);
		if (value !== undefined) {
			this.map.delete(key);
		} else {
			value = make();
			if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value!);
		}
		this.map.set(key, value);
		return value;
	}
}

const pages = new Lru<string>(500);
const containers = new Lru<string>(500);

export const isSyntheticHost = (hostname: string) => hostname.endsWith('.test') || hostname === TAG_MANAGER_HOST;

function html(reply: FastifyReply, status: number, body: string) {
	return reply.code(status).type('text/html; charset=utf-8').send(body);
}

function serveSite(request: FastifyRequest, reply: FastifyReply, host: string) {
	const path = request.url.split('?')[0];
	const profile = siteProfile(host);
	const page = () => pages.get(host, () => renderPage(profile));
	switch (profile.behavior) {
		case 'server-error':
			return html(reply, 503, '<!DOCTYPE html><html><body><h1>503 Service Unavailable</h1></body></html>');
		case 'not-html':
			return reply.code(200).type('application/pdf').send(Buffer.from(`%PDF-1.4\n% ${host} brochure\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`));
		case 'redirect-loop':
			return reply.code(302).header('location', path === '/' ? '/welcome' : '/').send();
		case 'redirect':
			if (path === '/') return reply.code(301).header('location', '/home').send();
			return path === '/home' ? html(reply, 200, page()) : html(reply, 404, '<h1>Not found</h1>');
		case 'slow':
			return new Promise<void>((resolve) => {
				const timer = setTimeout(() => {
					html(reply, 200, page());
					resolve();
				}, SLOW_SITE_DELAY_MS);
				request.raw.on('close', () => {
					clearTimeout(timer);
					resolve();
				});
			});
		case 'ok':
			return path === '/' ? html(reply, 200, page()) : html(reply, 404, '<h1>Not found</h1>');
	}
}

function serveTagManager(request: FastifyRequest, reply: FastifyReply) {
	const [path, search = ''] = request.url.split('?');
	const id = new URLSearchParams(search).get('id') ?? '';
	const js = (body: string) => reply.code(200).type('application/javascript; charset=utf-8').send(body);
	if (path === '/gtm.js' && /^GTM-[A-Z0-9]{4,9}$/.test(id)) return js(containers.get(id, () => renderGtmContainer(containerProfile(id))));
	if (path === '/gtag/js' && /^(G|GT|AW|DC)-[A-Z0-9-]{4,14}$/.test(id)) return js(containers.get(id, () => renderGoogleTag(id)));
	return reply.code(404).type('text/plain').send('Not found');
}

export function registerSyntheticWeb(app: FastifyInstance): void {
	app.addHook('onRequest', async (request, reply) => {
		const hostname = request.hostname.toLowerCase().replace(/:\d+$/, '');
		if (!isSyntheticHost(hostname)) return;
		if (request.method !== 'GET' && request.method !== 'HEAD') return reply.code(405).header('allow', 'GET').send();
		await (hostname === TAG_MANAGER_HOST ? serveTagManager(request, reply) : serveSite(request, reply, hostname));
		return reply;
	});
}
