import type { Dispatcher } from 'undici';
import { Limiter } from '../core/limiter.cjs';
import { analyzeContainer } from './container.cjs';
import { fetchBody, HostMap, httpClient } from './fetcher.cjs';
import { scanPage } from './page.cjs';
import type { ContainerRef, Finding } from './signatures.cjs';
import { ScanWindow } from './window.cjs';

export interface ScanResult {
	url: string | null;
	finalUrl?: string;
	scanned: boolean;
	reason?: string;
	/**
	 * Set when the page was read but not every container it loads (one timed out, failed, was over
	 * its size cap, or lay past the depth bound): which, why, and the codes this leaves unknown. A
	 * code found is still `true`; a code not found that an unread container could hold is then
	 * `null`, never `false`.
	 */
	incomplete?: string;
	fbPixel: boolean | null;
	tikTokPixel: boolean | null;
	gAnalytics: boolean | null;
	ids: {
		metaPixel: string[];
		tiktokPixel: string[];
		googleAnalytics: string[];
		googleTagManager: string[];
		googleTag: string[];
	};
	findings: Finding[];
	containers: ContainerRead[];
}

/**
 * One container the page loads. `loaded` means its answer is known: read in full, or answered 404
 * (no such container: a browser runs nothing from it, so it holds nothing; `reason` says so).
 */
export interface ContainerRead {
	id: string;
	url: string;
	loaded: boolean;
	reason?: string;
}

type Flag = 'fbPixel' | 'tikTokPixel' | 'gAnalytics';
const FLAG_OF: Record<Finding['kind'], Flag> = {
	metaPixel: 'fbPixel',
	tiktokPixel: 'tikTokPixel',
	googleAnalytics: 'gAnalytics',
};

/**
 * The codes an unread container could hold. A Tag Manager container may hold any tag; a Google tag
 * (gtag/js: G-, GT-, AW-, DC-) loads Google's own products only, never a Meta or TikTok pixel
 * (decisions.md, the scan flags).
 */
export function codesItMayHold(ref: ContainerRef): Finding['kind'][] {
	return ref.kind === 'googleTagManager'
		? ['metaPixel', 'tiktokPixel', 'googleAnalytics']
		: ['googleAnalytics'];
}

/**
 * What the lead search needs of a scan, and all a scanner thread sends back: the flags and why a
 * site was not scanned, without the findings (copying those between threads cost as much as a
 * quarter of a scan).
 */
export type ScanSummary = Pick<
	ScanResult,
	'url' | 'scanned' | 'reason' | 'incomplete' | 'fbPixel' | 'tikTokPixel' | 'gAnalytics'
> & { containers: number };

export function summarize(result: ScanResult): ScanSummary {
	const { url, scanned, reason, incomplete, fbPixel, tikTokPixel, gAnalytics, containers } = result;
	return {
		url,
		scanned,
		...(reason === undefined ? {} : { reason }),
		...(incomplete === undefined ? {} : { incomplete }),
		fbPixel,
		tikTokPixel,
		gAnalytics,
		containers: containers.length,
	};
}

export interface ScannerOptions {
	timeoutMs?: number;
	maxPageBytes?: number;
	maxContainerBytes?: number;
	maxRedirects?: number;
	/** Depth bound for containers loading containers (zones, Google tags). */
	maxContainerDepth?: number;
	concurrency?: number;
	/**
	 * Response bodies read at once. The other answers wait with what their socket delivered so far
	 * (a small page: all of it) in memory; the scan window keeps few of them waiting (ScanWindow).
	 */
	bodyConcurrency?: number;
	hostMap?: HostMap;
	/** Where containers come from; the real one unless a test or demo maps it. */
	tagManagerOrigin?: string;
	/**
	 * How long an idle connection is kept for the next scan, at most (4 s by default). Longer saves
	 * reconnecting to a web scanned again and again; a server closing waits for these connections.
	 */
	keepAliveMs?: number;
}

export const USER_AGENT =
	'Mozilla/5.0 (compatible; LeadInboxScanner/1.0; +https://github.com/n8n-nodes-lead-inbox)';

const unique = (values: (string | undefined)[]) => [
	...new Set(values.filter((v): v is string => !!v)),
];

export function notScanned(url: string | null, reason: string, finalUrl?: string): ScanResult {
	return {
		url,
		...(finalUrl && finalUrl !== url ? { finalUrl } : {}),
		scanned: false,
		reason,
		fbPixel: null,
		tikTokPixel: null,
		gAnalytics: null,
		ids: {
			metaPixel: [],
			tiktokPixel: [],
			googleAnalytics: [],
			googleTagManager: [],
			googleTag: [],
		},
		findings: [],
		containers: [],
	};
}

/**
 * The website scan: fetch the page, find trackers in it, then follow the tag-manager containers
 * and Google tags it loads (recursively, depth-bounded, each container once).
 */
export class Scanner {
	private readonly limiter: Limiter;
	private readonly window: ScanWindow;
	private readonly bodies: Limiter;
	private readonly o: Required<Omit<ScannerOptions, 'hostMap'>> & { hostMap: HostMap };
	private client: Dispatcher | undefined;

	constructor(options: ScannerOptions = {}) {
		this.o = {
			timeoutMs: options.timeoutMs ?? 5000,
			maxPageBytes: options.maxPageBytes ?? 3 * 1024 * 1024,
			maxContainerBytes: options.maxContainerBytes ?? 4 * 1024 * 1024,
			maxRedirects: options.maxRedirects ?? 5,
			maxContainerDepth: options.maxContainerDepth ?? 3,
			concurrency: options.concurrency ?? 128,
			bodyConcurrency: options.bodyConcurrency ?? 16,
			hostMap: options.hostMap ?? new HostMap(),
			tagManagerOrigin: options.tagManagerOrigin ?? 'https://www.googletagmanager.com',
			keepAliveMs: options.keepAliveMs ?? 4000,
		};
		this.limiter = new Limiter(this.o.concurrency);
		this.bodies = new Limiter(this.o.bodyConcurrency);
		this.window = new ScanWindow(this.limiter, {
			min: Math.min(32, this.o.concurrency),
			max: this.o.concurrency,
			targetMs: this.o.timeoutMs / 4,
			maxUnread: 2 * this.o.bodyConcurrency,
		});
	}

	scan(url: string | null | undefined): Promise<ScanResult> {
		if (!url) return Promise.resolve(notScanned(null, 'no website'));
		// A scan never fails the caller: anything unexpected is reported as "not scanned".
		return this.limiter
			.run(() => this.scanNow(url))
			.catch((error: Error) => notScanned(url, `scan failed: ${error.message}`))
			.finally(() => this.window.settled());
	}

	/** Closes its connections (scans in flight end as not scanned); a later scan opens new ones. */
	async close(): Promise<void> {
		const client = this.client;
		this.client = undefined;
		await client?.destroy();
	}

	private fetchOptions(maxBytes: number) {
		// Made on first use: the HTTP client is a separate package, loaded only where scans run.
		this.client ??= httpClient(this.o.keepAliveMs);
		return {
			client: this.client,
			timeoutMs: this.o.timeoutMs,
			maxBytes,
			maxRedirects: this.o.maxRedirects,
			hostMap: this.o.hostMap,
			userAgent: USER_AGENT,
			bodies: this.bodies,
			answered: (ms: number) => this.window.answered(ms, this.bodies.queued),
		};
	}

	private containerUrl(ref: ContainerRef): string {
		const path = ref.kind === 'googleTagManager' ? '/gtm.js' : '/gtag/js';
		return `${this.o.tagManagerOrigin}${path}?id=${encodeURIComponent(ref.id)}`;
	}

	private async scanNow(url: string): Promise<ScanResult> {
		const page = await fetchBody(url, this.fetchOptions(this.o.maxPageBytes));
		if (!page.ok) return notScanned(url, page.reason, page.url);
		const type = page.contentType.toLowerCase();
		// Without a content type, the start of the body tells.
		const looksHtml = type
			? /text\/html|application\/xhtml\+xml/.test(type)
			: /^\s*(<!doctype html|<html)/i.test(page.body.toString('latin1', 0, 1024));
		if (!looksHtml) return notScanned(url, `not HTML (${type || 'no content type'})`, page.url);

		const { findings, refs } = scanPage(page.body);
		const containers: ContainerRead[] = [];
		const unread: { ref: ContainerRef; reason: string }[] = [];
		const visited = new Set<string>();
		let frontier = refs;
		for (let depth = 0; depth < this.o.maxContainerDepth && frontier.length > 0; depth++) {
			const next: ContainerRef[] = [];
			const batch = frontier.filter((ref) => !visited.has(ref.id) && visited.add(ref.id));
			await Promise.all(
				batch.map(async (ref) => {
					const containerUrl = this.containerUrl(ref);
					const response = await fetchBody(
						containerUrl,
						this.fetchOptions(this.o.maxContainerBytes),
					);
					if (!response.ok && response.status === 404) {
						// The tag host knows no such container: nothing runs from it, so it was read.
						containers.push({
							id: ref.id,
							url: containerUrl,
							loaded: true,
							reason: 'HTTP 404: no such container, holds nothing',
						});
						return;
					}
					if (!response.ok) {
						unread.push({ ref, reason: response.reason });
						containers.push({
							id: ref.id,
							url: containerUrl,
							loaded: false,
							reason: response.reason,
						});
						return;
					}
					containers.push({ id: ref.id, url: containerUrl, loaded: true });
					const analysis = analyzeContainer(response.body, `container ${ref.id}`);
					findings.push(...analysis.findings);
					next.push(...analysis.refs);
				}),
			);
			frontier = next;
		}
		// Containers loaded deeper than the bound are not read: they count as unread.
		for (const ref of frontier) {
			if (visited.has(ref.id)) continue;
			visited.add(ref.id);
			const reason = `not followed: more than ${this.o.maxContainerDepth} containers deep`;
			unread.push({ ref, reason });
			containers.push({ id: ref.id, url: this.containerUrl(ref), loaded: false, reason });
		}
		const allRefs = [...visited];
		const idsOf = (kind: Finding['kind']) =>
			unique(findings.filter((f) => f.kind === kind).map((f) => f.id));
		const found = (kind: Finding['kind']) => findings.some((f) => f.kind === kind);
		const mayHide = new Set(unread.flatMap(({ ref }) => codesItMayHold(ref)));
		// false only when the page and every container that could hold the code were read.
		const flag = (kind: Finding['kind']) => (found(kind) ? true : mayHide.has(kind) ? null : false);
		const unknown = (Object.keys(FLAG_OF) as Finding['kind'][])
			.filter((kind) => mayHide.has(kind) && !found(kind))
			.map((kind) => FLAG_OF[kind]);
		return {
			url,
			...(page.url !== url ? { finalUrl: page.url } : {}),
			scanned: true,
			...(unread.length > 0
				? {
						incomplete: `${unread
							.map(({ ref, reason }) => `container ${ref.id} not read (${reason})`)
							.join('; ')}; left unknown: ${unknown.join(', ') || 'none (every code it could hold was found elsewhere)'}`,
					}
				: {}),
			fbPixel: flag('metaPixel'),
			tikTokPixel: flag('tiktokPixel'),
			gAnalytics: flag('googleAnalytics'),
			ids: {
				metaPixel: idsOf('metaPixel'),
				tiktokPixel: idsOf('tiktokPixel'),
				googleAnalytics: idsOf('googleAnalytics'),
				googleTagManager: allRefs.filter((id) => id.startsWith('GTM-')),
				googleTag: allRefs.filter((id) => !id.startsWith('GTM-')),
			},
			findings,
			containers,
		};
	}
}
