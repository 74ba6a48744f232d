import { type ContainerRef, type Finding, findContainerRefs, findTrackers } from './signatures.cjs';

/**
 * Splits a page into the places tracking codes live (every script, whatever its type, so scripts
 * a consent or lazy-load plugin disabled still count; noscript fallbacks; the rest of the markup)
 * and looks for trackers and container references in each. Blocks are found with indexOf on a
 * lower-cased copy: much faster than a backtracking regex over large pages.
 */
interface Segment {
	where: string;
	text: string;
}

function segments(html: string): Segment[] {
	const lower = html.toLowerCase();
	const out: Segment[] = [];
	let rest = '';
	let pos = 0;
	while (pos < html.length) {
		const script = lower.indexOf('<script', pos);
		const noscript = lower.indexOf('<noscript', pos);
		const start = script < 0 ? noscript : noscript < 0 ? script : Math.min(script, noscript);
		if (start < 0) break;
		const tag = start === noscript ? 'noscript' : 'script';
		const openEnd = lower.indexOf('>', start);
		if (openEnd < 0) break;
		const close = lower.indexOf(`</${tag}`, openEnd);
		const end = close < 0 ? html.length : close;
		rest += html.slice(pos, start);
		const attrs = html.slice(start + tag.length + 1, openEnd);
		let where: string = tag;
		if (tag === 'script') {
			const type = /\btype\s*=\s*["']?([^"'\s>]+)/i.exec(attrs)?.[1]?.toLowerCase();
			if (type && !/^((text|application)\/(x-)?(javascript|ecmascript)|module|.*json)$/.test(type)) where = `script (disabled: type=${type})`;
		}
		out.push({ where, text: attrs + html.slice(openEnd + 1, end) });
		pos = close < 0 ? html.length : lower.indexOf('>', close) + 1 || html.length;
	}
	rest += html.slice(pos);
	out.push({ where: 'page', text: rest });
	return out;
}

export function scanPage(html: string): { findings: Finding[]; refs: ContainerRef[] } {
	const findings: Finding[] = [];
	const refs: ContainerRef[] = [];
	for (const { where, text } of segments(html)) {
		findings.push(...findTrackers(text, where));
		refs.push(...findContainerRefs(text, where));
	}
	return { findings, refs };
}
