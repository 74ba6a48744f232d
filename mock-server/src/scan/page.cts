import { type ContainerRef, type Finding, findContainerRefs, findTrackers } from './signatures.cjs';

/**
 * Splits a page into the places tracking codes live (every script, whatever its type, so scripts
 * a consent or lazy-load plugin disabled still count; noscript fallbacks; the rest of the markup)
 * and looks for trackers and container references in each. Written for large pages: indexOf
 * instead of backtracking regexes, no copies of the whole page, and the markup between blocks is
 * only searched when it names a tracker's host.
 */
const MARKUP_HOSTS = ['facebook.com', 'facebook.net', 'tiktok.com', 'googletagmanager.com', 'google-analytics.com'];

/** Finds a tag in lower or upper case; each search runs again only once the scan has passed it. */
class TagFinder {
	private next = -2;

	constructor(
		private readonly html: string,
		private readonly tag: string,
		private readonly upperToo: boolean,
	) {}

	from(pos: number): number {
		if (this.next === -1 || (this.next >= pos && this.next !== -2)) return this.next;
		const lower = this.html.indexOf(this.tag, pos);
		const upper = this.upperToo ? this.html.indexOf(this.tag.toUpperCase(), pos) : -1;
		this.next = lower < 0 ? upper : upper < 0 ? lower : Math.min(lower, upper);
		return this.next;
	}
}

function indexOfTag(html: string, tag: string, from: number, upperToo: boolean): number {
	const lower = html.indexOf(tag, from);
	const upper = upperToo ? html.indexOf(tag.toUpperCase(), from) : -1;
	return lower < 0 ? upper : upper < 0 ? lower : Math.min(lower, upper);
}

function whereOf(tag: 'script' | 'noscript', attrs: string): string {
	if (tag === 'noscript') return 'noscript';
	const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
	return type && !/^((text|application)\/(x-)?(javascript|ecmascript)|module|.*json)$/.test(type) ? `script (disabled: type=${type})` : 'script';
}

export function scanPage(html: string): { findings: Finding[]; refs: ContainerRef[] } {
	const findings: Finding[] = [];
	const refs: ContainerRef[] = [];
	const scan = (text: string, where: string) => {
		findings.push(...findTrackers(text, where));
		refs.push(...findContainerRefs(text, where));
	};
	const markup = (from: number, to: number) => {
		const text = html.slice(from, to);
		if (MARKUP_HOSTS.some((host) => text.includes(host))) scan(text, 'page');
	};

	const upperToo = html.includes('<SCRIPT') || html.includes('<NOSCRIPT');
	const scripts = new TagFinder(html, '<script', upperToo);
	const noscripts = new TagFinder(html, '<noscript', upperToo);
	let pos = 0;
	while (pos < html.length) {
		const script = scripts.from(pos);
		const noscript = noscripts.from(pos);
		const start = script < 0 ? noscript : noscript < 0 ? script : Math.min(script, noscript);
		if (start < 0) break;
		const tag = start === noscript ? 'noscript' : 'script';
		const openEnd = html.indexOf('>', start);
		if (openEnd < 0) break;
		const close = indexOfTag(html, `</${tag}`, openEnd, upperToo);
		const end = close < 0 ? html.length : close;
		markup(pos, start);
		const attrs = html.slice(start + tag.length + 1, openEnd);
		scan(attrs + html.slice(openEnd + 1, end), whereOf(tag, attrs));
		pos = close < 0 ? html.length : html.indexOf('>', close) + 1 || html.length;
	}
	markup(pos, html.length);
	return { findings, refs };
}
