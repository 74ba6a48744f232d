import { type ContainerRef, type Finding, findContainerRefs, findTrackers } from './signatures';

/**
 * Splits a page into the places tracking codes live (every script, whatever its type, so scripts
 * a consent or lazy-load plugin disabled still count; noscript fallbacks; the rest of the markup)
 * and looks for trackers and container references in each.
 */
const BLOCK = /<(script|noscript)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi;

export function scanPage(html: string): { findings: Finding[]; refs: ContainerRef[] } {
	const findings: Finding[] = [];
	const refs: ContainerRef[] = [];
	let rest = '';
	let last = 0;
	for (const match of html.matchAll(BLOCK)) {
		rest += html.slice(last, match.index);
		last = match.index! + match[0].length;
		const [, tag, attrs, body] = match;
		const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
		const blocked = type && !/javascript|module|ecmascript|json/.test(type) ? ` (disabled: type=${type})` : type === 'javascript/blocked' ? ' (disabled)' : '';
		const where = tag.toLowerCase() === 'noscript' ? 'noscript' : `script${blocked}`;
		const text = attrs + body;
		findings.push(...findTrackers(text, where));
		refs.push(...findContainerRefs(text, where));
	}
	rest += html.slice(last);
	findings.push(...findTrackers(rest, 'page'));
	refs.push(...findContainerRefs(rest, 'page'));
	return { findings, refs };
}
