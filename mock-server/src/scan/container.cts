import {
	type ContainerRef,
	type Finding,
	findContainerRefs,
	findTrackers,
	isGa4,
	isMetaId,
	isTiktokId,
	isUa,
	unescapeJs,
} from './signatures.cjs';

/**
 * Reads a Google Tag Manager container (gtm.js) or Google tag (gtag/js) response: extracts the
 * `data` object with a string-aware brace scan and JSON.parse (never eval), resolves macro and
 * template references, and classifies each active tag. Falls back to regexes over the unescaped
 * text when the object cannot be parsed.
 *
 * The object is found and delimited in the bytes as received, and only it becomes a string: a
 * container is mostly its runtime library (the data is about 1 % of 50-160 KB), and turning whole
 * containers into strings was most of what the scanner allocated. Bytes are read as Latin-1, as
 * pages are (page.cts).
 */
interface Tag {
	function?: string;
	[key: string]: unknown;
}

interface ContainerData {
	resource?: { macros?: Tag[]; tags?: Tag[] };
	permissions?: Record<string, Record<string, unknown>>;
}

// The bytes the scan compares (ASCII).
const [BACKSLASH, DOUBLE_QUOTE, SINGLE_QUOTE, EQUALS, OPEN, CLOSE] = [
	0x5c, 0x22, 0x27, 0x3d, 0x7b, 0x7d,
];
// What /\s/ matches among single bytes (Latin-1).
const isSpace = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0;

/** Where the `{` of `var data = {` is (as /var\s+data\s*=\s*\{/ finds it first), or -1. */
function dataObjectStart(script: Buffer): number {
	for (let at = script.indexOf('data'); at >= 0; at = script.indexOf('data', at + 4)) {
		let before = at - 1;
		if (!isSpace(script[before])) continue;
		while (before >= 0 && isSpace(script[before])) before--;
		if (before < 2 || script.toString('latin1', before - 2, before + 1) !== 'var') continue;
		let after = at + 4;
		while (isSpace(script[after])) after++;
		if (script[after++] !== EQUALS) continue;
		while (isSpace(script[after])) after++;
		if (script[after] === OPEN) return after;
	}
	return -1;
}

/** Index just past the balanced object starting at `start` (which must be '{'), or -1. */
function objectEnd(bytes: Buffer, start: number): number {
	let depth = 0;
	let quote = 0;
	for (let i = start; i < bytes.length; i++) {
		const c = bytes[i];
		if (quote) {
			if (c === BACKSLASH) i++;
			else if (c === quote) quote = 0;
			continue;
		}
		if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) quote = c;
		else if (c === OPEN) depth++;
		else if (c === CLOSE && --depth === 0) return i + 1;
	}
	return -1;
}

function extractContainerData(script: Buffer): ContainerData | undefined {
	const start = dataObjectStart(script);
	if (start < 0) return undefined;
	const end = objectEnd(script, start);
	if (end < 0) return undefined;
	try {
		return JSON.parse(script.toString('latin1', start, end)) as ContainerData;
	} catch {
		return undefined;
	}
}

class Resolver {
	constructor(private readonly macros: Tag[]) {}

	value(v: unknown, depth = 0): unknown {
		if (depth > 8 || !Array.isArray(v) || typeof v[0] !== 'string') return v;
		switch (v[0]) {
			case 'macro':
				return this.macro(Number(v[1]), depth + 1);
			case 'template':
				return v
					.slice(1)
					.map((part) => String((this.value(part, depth + 1) as string | undefined) ?? ''))
					.join('');
			case 'escape':
				return this.value(v[1], depth + 1);
			case 'list':
				return v.slice(1).map((item) => this.value(item, depth + 1));
			case 'map': {
				const out: Record<string, unknown> = {};
				for (let i = 1; i + 1 < v.length; i += 2)
					out[String(this.value(v[i], depth + 1))] = this.value(v[i + 1], depth + 1);
				return out;
			}
			default:
				return v;
		}
	}

	private macro(index: number, depth: number): unknown {
		const macro = this.macros[index];
		if (!macro) return undefined;
		if (macro.function === '__c') return this.value(macro.vtp_value, depth);
		// Other macros (settings variables such as __gas) resolve to their resolved fields.
		const out: Record<string, unknown> = {};
		for (const [k, val] of Object.entries(macro)) out[k] = this.value(val, depth);
		return out;
	}
}

const str = (v: unknown): string | undefined =>
	typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;

function permissionText(permissions: Record<string, unknown> | undefined): string {
	return permissions ? JSON.stringify(permissions) : '';
}

export function analyzeContainer(
	script: Buffer,
	label: string,
): { findings: Finding[]; refs: ContainerRef[]; parsed: boolean } {
	const findings: Finding[] = [];
	const refs: ContainerRef[] = [];
	const data = extractContainerData(script);
	if (!data?.resource) {
		const text = unescapeJs(script.toString('latin1'));
		return {
			findings: findTrackers(text, `${label} (unparsed)`),
			refs: findContainerRefs(text, `${label} (unparsed)`),
			parsed: false,
		};
	}
	const resolve = new Resolver(data.resource.macros ?? []);
	const add = (kind: Finding['kind'], id: string | undefined, where: string, evidence: string) =>
		findings.push({ kind, ...(id ? { id } : {}), where, evidence });
	const googleId = (id: string | undefined, where: string, evidence: string) => {
		if (!id) return;
		if (isGa4(id) || isUa(id)) add('googleAnalytics', id, where, evidence);
		else if (/^(GT|AW)-/.test(id)) refs.push({ kind: 'googleTag', id, where });
		else if (/^GTM-/.test(id)) refs.push({ kind: 'googleTagManager', id, where });
	};

	(data.resource.tags ?? []).forEach((tag, index) => {
		const fn = tag.function ?? '';
		const where = `${label} tag #${index} (${fn})`;
		if (fn === '__paused' || tag.vtp_paused === true) return;
		const field = (name: string) => resolve.value(tag[name]);
		switch (true) {
			case fn === '__googtag':
				googleId(str(field('vtp_tagId')), where, 'Google tag');
				break;
			case fn === '__gaawc':
				googleId(str(field('vtp_measurementId')), where, 'GA4 configuration tag');
				break;
			case fn === '__gaawe':
				googleId(
					str(field('vtp_measurementIdOverride')) ?? str(field('vtp_measurementId')),
					where,
					'GA4 event tag',
				);
				break;
			case fn === '__ua': {
				const settings = field('vtp_gaSettings') as Record<string, unknown> | undefined;
				googleId(
					str(field('vtp_trackingId')) ?? str(settings?.vtp_trackingId),
					where,
					'Universal Analytics tag',
				);
				break;
			}
			case fn === '__html':
			case fn === '__img': {
				const text = unescapeJs(
					String((field(fn === '__html' ? 'vtp_html' : 'vtp_url') as string | undefined) ?? ''),
				);
				findings.push(...findTrackers(text, where));
				refs.push(...findContainerRefs(text, where));
				break;
			}
			case fn === '__zone': {
				const children = field('vtp_childContainers');
				for (const child of Array.isArray(children) ? children : []) {
					googleId(str((child as Record<string, unknown>)?.publicId), where, 'zone child');
				}
				break;
			}
			case fn.startsWith('__cvt_'): {
				const perms = permissionText(data.permissions?.[fn]);
				const ids = [
					field('vtp_pixelId'),
					field('vtp_pixelIds'),
					field('vtp_pixel_code'),
					field('vtp_pixelCode'),
				]
					.flatMap((v) => (Array.isArray(v) ? (v as unknown[]) : [v]))
					.flatMap((v) => (str(v) ?? '').split(/[\s,]+/))
					.filter(Boolean);
				if (/connect\.facebook\.net|"fbq"|"_fbq"/.test(perms)) {
					const metaIds = ids.filter(isMetaId);
					if (metaIds.length)
						metaIds.forEach((id) => add('metaPixel', id, where, 'community template (Meta)'));
					else add('metaPixel', undefined, where, 'community template (Meta)');
				} else if (/analytics\.tiktok\.com|"ttq"|TiktokAnalyticsObject/.test(perms)) {
					const tiktokIds = ids.filter(isTiktokId);
					if (tiktokIds.length)
						tiktokIds.forEach((id) => add('tiktokPixel', id, where, 'community template (TikTok)'));
					else add('tiktokPixel', undefined, where, 'community template (TikTok)');
				}
				break;
			}
		}
		// A Google tag response names its GA4 destination here.
		googleId(str(field('vtp_instanceDestinationId')), where, 'Google tag destination');
	});
	return { findings, refs, parsed: true };
}
