import { type ContainerRef, type Finding, findContainerRefs, findTrackers } from './signatures.cjs';

/**
 * Splits a page into the places tracking codes live (every script, whatever its type, so scripts
 * a consent or lazy-load plugin disabled still count; noscript fallbacks; the rest of the markup)
 * and looks for trackers and container references in each. Written for large pages: one forward
 * pass over the occurrences of "script" (which also finds noscript and closing tags) instead of
 * backtracking regexes, and it works on the bytes as received: only the script blocks and the
 * markup that names a tracker's host become strings (a page's scripts are typically a few percent
 * of it, and turning whole pages into strings was most of what the scanner allocated).
 *
 * Bytes are read as Latin-1, which maps them 1:1; every signature and id the scanner looks for is
 * ASCII, so non-ASCII text may come out garbled without harm.
 */
const MARKUP_HOSTS = ['facebook', 'tiktok', 'google'];

const LT = 0x3c; // <
const GT = 0x3e; // >
const SLASH = 0x2f;
const isNameEnd = (c: number) =>
	c === GT || c === SLASH || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
// Lower-cases an ASCII letter's byte; only 'N' and 'O' (and themselves) map to 'n' and 'o'.
const lowerByte = (c: number) => c | 0x20;

type Tag = { kind: 'script' | 'noscript'; closing: boolean; start: number };

/** The tag around an occurrence of "script" at `at`, if it is one. */
function tagAt(html: Buffer, at: number): Tag | undefined {
	const no = at >= 2 && lowerByte(html[at - 2]) === 0x6e && lowerByte(html[at - 1]) === 0x6f;
	const nameStart = no ? at - 2 : at;
	// the name must end there: whitespace, '>' or '/'
	if (!isNameEnd(html[at + 6])) return undefined;
	if (html[nameStart - 1] === LT)
		return { kind: no ? 'noscript' : 'script', closing: false, start: nameStart - 1 };
	if (html[nameStart - 1] === SLASH && html[nameStart - 2] === LT)
		return { kind: no ? 'noscript' : 'script', closing: true, start: nameStart - 2 };
	return undefined;
}

function* tags(html: Buffer): Generator<Tag> {
	const upperToo = html.includes('SCRIPT') || html.includes('Script');
	const lower = upperToo ? Buffer.from(html.toString('latin1').toLowerCase(), 'latin1') : html;
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

export function scanPage(html: Buffer): { findings: Finding[]; refs: ContainerRef[] } {
	const findings: Finding[] = [];
	const refs: ContainerRef[] = [];
	const text = (from: number, to = html.length) => html.toString('latin1', from, to);
	const scan = (content: string, where: string) => {
		findings.push(...findTrackers(content, where));
		refs.push(...findContainerRefs(content, where));
	};
	const markup = (from: number, to: number) => {
		if (to <= from) return;
		const region = html.subarray(from, to);
		if (MARKUP_HOSTS.some((host) => region.includes(host))) scan(text(from, to), 'page');
	};

	let pos = 0;
	let open: (Tag & { contentStart: number; attrs: string }) | undefined;
	for (const tag of tags(html)) {
		if (!open && !tag.closing && tag.start >= pos) {
			const openEnd = html.indexOf(GT, tag.start);
			if (openEnd < 0) break;
			markup(pos, tag.start);
			open = {
				...tag,
				contentStart: openEnd + 1,
				attrs: text(tag.start + tag.kind.length + 1, openEnd),
			};
			pos = openEnd + 1;
		} else if (open && tag.closing && tag.kind === open.kind) {
			scan(open.attrs + text(open.contentStart, tag.start), whereOf(open.kind, open.attrs));
			const closeEnd = html.indexOf(GT, tag.start);
			pos = closeEnd < 0 ? html.length : closeEnd + 1;
			open = undefined;
		}
	}
	if (open) scan(open.attrs + text(open.contentStart), whereOf(open.kind, open.attrs));
	else markup(pos, html.length);
	return { findings, refs };
}
