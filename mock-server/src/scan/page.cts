import { type ContainerRef, type Finding, findContainerRefs, findTrackers } from './signatures.cjs';

/**
 * Splits a page into the places tracking codes live (every script, whatever its type, so scripts
 * a consent or lazy-load plugin disabled still count; noscript fallbacks; the rest of the markup)
 * and looks for trackers and container references in each. Written for large pages: one forward
 * pass over the occurrences of "script" (which also finds noscript and closing tags) instead of
 * backtracking regexes, no copy of the whole page, and the markup between blocks is only searched
 * when it names a tracker's host.
 */
const MARKUP_HOSTS = ['facebook', 'tiktok', 'google'];

type Tag = { kind: 'script' | 'noscript'; closing: boolean; start: number };

/** The tag around an occurrence of "script" at `at`, if it is one. */
function tagAt(html: string, at: number): Tag | undefined {
	const no = html.slice(Math.max(0, at - 2), at).toLowerCase() === 'no';
	const nameStart = no ? at - 2 : at;
	const after = html.charCodeAt(at + 6);
	// the name must end there: whitespace, '>' or '/'
	if (
		!(after === 62 || after === 47 || after === 32 || after === 9 || after === 10 || after === 13)
	)
		return undefined;
	if (html[nameStart - 1] === '<')
		return { kind: no ? 'noscript' : 'script', closing: false, start: nameStart - 1 };
	if (html[nameStart - 1] === '/' && html[nameStart - 2] === '<')
		return { kind: no ? 'noscript' : 'script', closing: true, start: nameStart - 2 };
	return undefined;
}

function* tags(html: string): Generator<Tag> {
	const upperToo = html.includes('SCRIPT') || html.includes('Script');
	const lower = upperToo ? html.toLowerCase() : html;
	for (let at = lower.indexOf('script'); at >= 0; at = lower.indexOf('script', at + 6)) {
		const tag = tagAt(lower, at);
		if (tag) yield tag;
	}
}

function whereOf(kind: Tag['kind'], attrs: string): string {
	if (kind === 'noscript') return 'noscript';
	const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
	return type && !/^((text|application)\/(x-)?(javascript|ecmascript)|module|.*json)$/.test(type)
		? `script (disabled: type=${type})`
		: 'script';
}

export function scanPage(html: string): { findings: Finding[]; refs: ContainerRef[] } {
	const findings: Finding[] = [];
	const refs: ContainerRef[] = [];
	const scan = (text: string, where: string) => {
		findings.push(...findTrackers(text, where));
		refs.push(...findContainerRefs(text, where));
	};
	const markup = (from: number, to: number) => {
		if (to <= from) return;
		const text = html.slice(from, to);
		if (MARKUP_HOSTS.some((host) => text.includes(host))) scan(text, 'page');
	};

	let pos = 0;
	let open: (Tag & { contentStart: number; attrs: string }) | undefined;
	for (const tag of tags(html)) {
		if (!open && !tag.closing && tag.start >= pos) {
			const openEnd = html.indexOf('>', tag.start);
			if (openEnd < 0) break;
			markup(pos, tag.start);
			open = {
				...tag,
				contentStart: openEnd + 1,
				attrs: html.slice(tag.start + tag.kind.length + 1, openEnd),
			};
			pos = openEnd + 1;
		} else if (open && tag.closing && tag.kind === open.kind) {
			scan(open.attrs + html.slice(open.contentStart, tag.start), whereOf(open.kind, open.attrs));
			const closeEnd = html.indexOf('>', tag.start);
			pos = closeEnd < 0 ? html.length : closeEnd + 1;
			open = undefined;
		}
	}
	if (open) scan(open.attrs + html.slice(open.contentStart), whereOf(open.kind, open.attrs));
	else markup(pos, html.length);
	return { findings, refs };
}
