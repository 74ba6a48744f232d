/**
 * Tracking-code signatures of the Meta pixel, the TikTok pixel and Google Analytics (GA4, UA,
 * gtag, analytics.js, ga.js) and of tag-manager containers. An id is accepted only
 * with its context (a call, a loader URL, a config key); a bare 16-digit number is not a pixel.
 */
export type TrackerKind = 'metaPixel' | 'tiktokPixel' | 'googleAnalytics';
export type RefKind = 'googleTagManager' | 'googleTag';

export interface Finding {
	kind: TrackerKind;
	id?: string;
	where: string;
	evidence: string;
}

export interface ContainerRef {
	kind: RefKind;
	id: string;
	where: string;
}

const META_ID = '(\\d{15,16})';
const TIKTOK_ID = '([BCD][A-Z0-9]{19})';
const GA4_ID = 'G-[A-Z0-9]{8,12}';
const UA_ID = 'UA-\\d{4,10}-\\d{1,4}';

interface Signature {
	kind: TrackerKind;
	evidence: string;
	/** A literal every match contains: a cheap includes() check skips the regex on most text. */
	needle: string;
	pattern: RegExp;
	/** Only when the same text also shows this context (minified tag code). */
	context?: RegExp;
}

const SIGNATURES: Signature[] = [
	{
		kind: 'metaPixel',
		evidence: "fbq('init')",
		needle: 'fbq(',
		pattern: new RegExp(`fbq\\(\\s*['"](?:init|addPixelId)['"]\\s*,\\s*['"]?${META_ID}\\b`, 'g'),
	},
	{
		kind: 'metaPixel',
		evidence: 'facebook.com/tr image pixel',
		needle: 'facebook.com/tr',
		pattern: new RegExp(
			`facebook\\.com/tr/?\\?(?:[^"'\\s<>]*?(?:&|&amp;|\\\\u0026))?id=${META_ID}\\b`,
			'g',
		),
	},
	{
		kind: 'metaPixel',
		evidence: 'signals config',
		needle: 'signals/config/',
		pattern: new RegExp(`connect\\.facebook\\.net/signals/config/${META_ID}\\b`, 'g'),
	},
	{
		kind: 'metaPixel',
		evidence: 'plugin pixelIds config',
		needle: 'ixel',
		pattern: new RegExp(`["']pixel_?[Ii]ds?["']\\s*:\\s*\\[?\\s*["']${META_ID}["']`, 'g'),
	},
	{
		kind: 'metaPixel',
		evidence: 'fbevents.js loader',
		needle: 'fbevents.js',
		pattern: /connect\.facebook\.net\/[A-Za-z_]{2,6}\/fbevents\.js/g,
	},
	{
		kind: 'tiktokPixel',
		evidence: 'ttq.load',
		needle: 'ttq.load(',
		pattern: new RegExp(`ttq\\.load\\(\\s*['"]${TIKTOK_ID}['"]`, 'g'),
	},
	{
		kind: 'tiktokPixel',
		evidence: 'sdk.js?sdkid',
		needle: 'sdkid=',
		pattern: new RegExp(`analytics\\.tiktok\\.com/i18n/pixel/sdk\\.js\\?sdkid=${TIKTOK_ID}`, 'g'),
	},
	{
		kind: 'tiktokPixel',
		evidence: 'events.js loader',
		needle: 'analytics.tiktok.com',
		pattern: /analytics\.tiktok\.com\/i18n\/pixel\/events\.js/g,
	},
	{
		kind: 'tiktokPixel',
		evidence: 'minified .load in TikTok code',
		needle: '.load(',
		pattern: new RegExp(`\\.load\\(\\s*["']${TIKTOK_ID}["']`, 'g'),
		context: /TiktokAnalyticsObject|analytics\.tiktok\.com|\bttq\b/,
	},
	{
		kind: 'googleAnalytics',
		evidence: "gtag('config')",
		needle: 'gtag(',
		pattern: new RegExp(`gtag\\(\\s*['"]config['"]\\s*,\\s*['"](${GA4_ID}|${UA_ID})['"]`, 'g'),
	},
	{
		kind: 'googleAnalytics',
		evidence: 'gtag.js loader',
		needle: 'gtag/js',
		pattern: new RegExp(`googletagmanager\\.com/gtag/js\\?id=(${GA4_ID})\\b`, 'g'),
	},
	{
		kind: 'googleAnalytics',
		evidence: "ga('create')",
		needle: 'create',
		pattern: new RegExp(`ga\\(\\s*['"]create['"]\\s*,\\s*['"](${UA_ID})['"]`, 'g'),
	},
	{
		kind: 'googleAnalytics',
		evidence: '_gaq _setAccount',
		needle: '_setAccount',
		pattern: new RegExp(
			`_gaq\\.push\\(\\s*\\[\\s*['"]_setAccount['"]\\s*,\\s*['"](${UA_ID})['"]`,
			'g',
		),
	},
	{
		kind: 'googleAnalytics',
		evidence: 'urchin _uacct',
		needle: '_uacct',
		pattern: new RegExp(`_uacct\\s*=\\s*['"](${UA_ID})['"]`, 'g'),
	},
	{
		kind: 'googleAnalytics',
		evidence: 'analytics.js/ga.js loader',
		needle: 'google-analytics.com',
		pattern: /google-analytics\.com\/(?:analytics|ga|urchin)\.js/g,
	},
];

/** Words every signature's text contains one of; text with none (most markup) is skipped. */
const ANY_NEEDLE = [
	'facebook',
	'fbq',
	'ixel',
	'tiktok',
	'ttq',
	'gtag',
	'google',
	'_gaq',
	'_uacct',
	'ga(',
];

/** Finds tracker evidence in a piece of text (page segment, custom HTML tag, image URL). */
export function findTrackers(text: string, where: string): Finding[] {
	const findings: Finding[] = [];
	if (!ANY_NEEDLE.some((needle) => text.includes(needle))) return findings;
	for (const sig of SIGNATURES) {
		if (!text.includes(sig.needle) || (sig.context && !sig.context.test(text))) continue;
		for (const match of text.matchAll(sig.pattern)) {
			findings.push({
				kind: sig.kind,
				...(match[1] ? { id: match[1] } : {}),
				where,
				evidence: sig.evidence,
			});
		}
	}
	return findings;
}

const GTM_URL = /googletagmanager\.com\/(?:gtm\.js|ns\.html)\?id=(GTM-[A-Z0-9]{4,9})\b/g;
const GTM_SNIPPET_ARG = /['"](GTM-[A-Z0-9]{4,9})['"]/g;
const GTAG_URL = /googletagmanager\.com\/gtag\/js\?id=((?:GT|AW|DC)-[A-Z0-9]{6,12})\b/g;

/** Tag-manager containers and Google tags that the text loads and that must be followed. */
export function findContainerRefs(text: string, where: string): ContainerRef[] {
	const refs: ContainerRef[] = [];
	if (!text.includes('gtm.js') && !text.includes('googletagmanager.com')) return refs;
	for (const m of text.matchAll(GTM_URL)) refs.push({ kind: 'googleTagManager', id: m[1], where });
	// The GTM snippet builds the URL at run time: the id is an argument next to 'gtm.js'.
	if (/gtm\.js/.test(text))
		for (const m of text.matchAll(GTM_SNIPPET_ARG))
			refs.push({ kind: 'googleTagManager', id: m[1], where });
	for (const m of text.matchAll(GTAG_URL))
		if (!m[1].startsWith('DC-')) refs.push({ kind: 'googleTag', id: m[1], where });
	return refs;
}

/** Custom HTML inside containers is JS-escaped (\u003C, \x3d, \", \/): undo two levels. */
export function unescapeJs(text: string): string {
	let out = text;
	for (let i = 0; i < 2; i++) {
		out = out
			.replace(/\\u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
			.replace(/\\x([0-9a-fA-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
			.replace(/\\(["'/])/g, '$1')
			.replace(/\\\\/g, '\\');
	}
	return out;
}

export const isGa4 = (id: string) => new RegExp(`^${GA4_ID}$`).test(id);
export const isUa = (id: string) => new RegExp(`^${UA_ID}$`).test(id);
export const isMetaId = (id: string) => new RegExp(`^${META_ID}$`).test(id);
export const isTiktokId = (id: string) => new RegExp(`^${TIKTOK_ID}$`).test(id);
