import { Rng } from '../core/random.cjs';

/**
 * What each synthetic website and container holds, derived only from its host name or container
 * id, so the same site is served identically on every run and after every restart. `siteTruth`
 * is the generator's ground truth, which the tests compare with what the scanner finds.
 */
export type Behavior = 'ok' | 'redirect' | 'slow' | 'server-error' | 'not-html' | 'redirect-loop';
export type MetaVariant = 'base' | 'addPixelId' | 'noscript-only' | 'wordpress';
export type TiktokVariant = 'current' | 'legacy';
export type GaVariant = 'gtag' | 'analytics.js' | 'ga.js' | 'google-tag';
export type Decoy = 'facebook-sdk' | 'ads-only-tag' | 'bare-number';

export interface SiteProfile {
	host: string;
	behavior: Behavior;
	meta?: { variant: MetaVariant; id: string };
	tiktok?: { variant: TiktokVariant; id: string };
	ga?: { variant: GaVariant; id: string };
	containerId?: string;
	consentBlocked: boolean;
	decoys: Decoy[];
	sizeKb: number;
}

export type ContainerMeta = 'community-template' | 'custom-html' | 'image';
export type ContainerTiktok = 'community-template' | 'custom-html';
export type ContainerGa =
	| 'google-tag'
	| 'ga4-config'
	| 'ua-settings-macro'
	| 'google-tag-follow'
	| 'zone';

export interface ContainerProfile {
	id: string;
	meta?: { how: ContainerMeta; id: string };
	tiktok?: { how: ContainerTiktok; id: string };
	ga?: { how: ContainerGa; id: string };
	pausedMeta?: string;
	adsTag?: string;
	sizeKb: number;
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
export const metaId = (rng: Rng) => `${rng.int(1, 9)}${rng.digits(15)}`;
export const tiktokId = (rng: Rng) =>
	`C${rng.chars(UPPER, 6)}${rng.pick(['C77U', 'D3QK', 'C6PL'])}${rng.chars(UPPER, 9)}`;
export const ga4Id = (rng: Rng) => `G-${rng.chars(UPPER, 10)}`;
export const uaId = (rng: Rng) => `UA-${rng.digits(8)}-${rng.int(1, 4)}`;
export const googleTagId = (rng: Rng) => `GT-${rng.chars(UPPER, 8)}`;
export const adsId = (rng: Rng) => `AW-${rng.int(100000000, 999999999)}`;

function behaviorOf(rng: Rng): Behavior {
	const r = rng.next();
	if (r < 0.84) return 'ok';
	if (r < 0.89) return 'redirect';
	if (r < 0.92) return 'slow';
	if (r < 0.95) return 'server-error';
	if (r < 0.98) return 'not-html';
	return 'redirect-loop';
}

export function siteProfile(host: string): SiteProfile {
	const rng = new Rng(`site:${host.toLowerCase()}`);
	const behavior = behaviorOf(rng);
	const profile: SiteProfile = {
		host,
		behavior,
		consentBlocked: rng.chance(0.15),
		decoys: [],
		sizeKb: rng.int(15, 90),
	};
	if (rng.chance(0.3))
		profile.meta = {
			variant: rng.pick(['base', 'base', 'addPixelId', 'noscript-only', 'wordpress'] as const),
			id: metaId(rng),
		};
	if (rng.chance(0.1))
		profile.tiktok = {
			variant: rng.pick(['current', 'current', 'legacy'] as const),
			id: tiktokId(rng),
		};
	if (rng.chance(0.35)) {
		const variant = rng.pick(['gtag', 'gtag', 'analytics.js', 'ga.js', 'google-tag'] as const);
		profile.ga = {
			variant,
			id: variant === 'gtag' ? ga4Id(rng) : variant === 'google-tag' ? googleTagId(rng) : uaId(rng),
		};
	}
	if (rng.chance(0.4)) profile.containerId = `GTM-${rng.chars(UPPER, 7)}`;
	if (rng.chance(0.15)) profile.decoys.push('facebook-sdk');
	if (rng.chance(0.15)) profile.decoys.push('ads-only-tag');
	if (rng.chance(0.3)) profile.decoys.push('bare-number');
	return profile;
}

/** Container ids of 9 characters are zone children: they hold a GA4 tag and no further zones. */
export function containerProfile(id: string): ContainerProfile {
	const rng = new Rng(`container:${id}`);
	const child = id.length === 'GTM-'.length + 9;
	const profile: ContainerProfile = { id, sizeKb: rng.int(50, 160) };
	if (child) {
		profile.ga = { how: 'ga4-config', id: ga4Id(rng) };
		return profile;
	}
	if (rng.chance(0.45))
		profile.meta = {
			how: rng.pick(['community-template', 'custom-html', 'image'] as const),
			id: metaId(rng),
		};
	if (rng.chance(0.2))
		profile.tiktok = {
			how: rng.pick(['community-template', 'custom-html'] as const),
			id: tiktokId(rng),
		};
	if (rng.chance(0.55)) {
		const how = rng.pick([
			'google-tag',
			'ga4-config',
			'ua-settings-macro',
			'google-tag-follow',
			'zone',
		] as const);
		const gaId =
			how === 'ua-settings-macro'
				? uaId(rng)
				: how === 'google-tag-follow'
					? googleTagId(rng)
					: how === 'zone'
						? `GTM-${rng.chars(UPPER, 9)}`
						: ga4Id(rng);
		profile.ga = { how, id: gaId };
	}
	if (!profile.meta && rng.chance(0.3)) profile.pausedMeta = metaId(rng);
	if (rng.chance(0.3)) profile.adsTag = adsId(rng);
	return profile;
}

/** A GT- Google tag's GA4 destination, revealed only in its gtag/js response. */
export function googleTagDestination(id: string): string | undefined {
	return id.startsWith('GT-') ? ga4Id(new Rng(`gtag:${id}`)) : undefined;
}

export interface SiteTruth {
	scanned: boolean;
	fbPixel: boolean | null;
	tikTokPixel: boolean | null;
	gAnalytics: boolean | null;
}

export function siteTruth(host: string): SiteTruth {
	const site = siteProfile(host);
	if (site.behavior !== 'ok' && site.behavior !== 'redirect')
		return { scanned: false, fbPixel: null, tikTokPixel: null, gAnalytics: null };
	const container = site.containerId ? containerProfile(site.containerId) : undefined;
	return {
		scanned: true,
		fbPixel: !!site.meta || !!container?.meta,
		tikTokPixel: !!site.tiktok || !!container?.tiktok,
		gAnalytics: !!site.ga || !!container?.ga,
	};
}
