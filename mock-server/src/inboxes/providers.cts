/**
 * Mail settings per provider, from Thunderbird's ISPDB (Namecheap from its own docs); the detection
 * rules are in docs/api.md ("POST /inboxes"). Static on purpose: never fetched at run time.
 */
import type { Provider } from '../contract/inboxes.cjs';
import { closest } from '../core/similar.cjs';

export interface MailSettings {
	imapHost: string;
	imapPort: number;
	smtpHost: string;
	smtpPort: number;
}

export const PROVIDER_SETTINGS: Record<Provider, MailSettings> = {
	google: { imapHost: 'imap.gmail.com', imapPort: 993, smtpHost: 'smtp.gmail.com', smtpPort: 465 },
	microsoft: {
		imapHost: 'outlook.office365.com',
		imapPort: 993,
		smtpHost: 'smtp-mail.outlook.com',
		smtpPort: 587,
	},
	yahoo: {
		imapHost: 'imap.mail.yahoo.com',
		imapPort: 993,
		smtpHost: 'smtp.mail.yahoo.com',
		smtpPort: 465,
	},
	zoho: { imapHost: 'imap.zoho.com', imapPort: 993, smtpHost: 'smtp.zoho.com', smtpPort: 465 },
	icloud: {
		imapHost: 'imap.mail.me.com',
		imapPort: 993,
		smtpHost: 'smtp.mail.me.com',
		smtpPort: 587,
	},
	godaddy: {
		imapHost: 'imap.secureserver.net',
		imapPort: 993,
		smtpHost: 'smtpout.secureserver.net',
		smtpPort: 465,
	},
	namecheap: {
		imapHost: 'mail.privateemail.com',
		imapPort: 993,
		smtpHost: 'mail.privateemail.com',
		smtpPort: 465,
	},
};

const YAHOO_COUNTRIES = [
	'ca',
	'de',
	'it',
	'fr',
	'es',
	'se',
	'co.uk',
	'co.in',
	'co.nz',
	'com.au',
	'com.ar',
	'com.br',
	'com.mx',
];
const ZOHO_REGIONS: Record<string, string> = {
	com: 'com',
	eu: 'eu',
	in: 'in',
	'com.au': 'com.au',
	jp: 'jp',
};

/** Each provider's own mail domains (exact names). */
export const PROVIDER_DOMAINS: Record<string, Provider> = {
	'gmail.com': 'google',
	'googlemail.com': 'google',
	'outlook.com': 'microsoft',
	'hotmail.com': 'microsoft',
	'live.com': 'microsoft',
	'msn.com': 'microsoft',
	'windowslive.com': 'microsoft',
	'yahoo.com': 'yahoo',
	'ymail.com': 'yahoo',
	'myyahoo.com': 'yahoo',
	'rocketmail.com': 'yahoo',
	...Object.fromEntries(YAHOO_COUNTRIES.map((c) => [`yahoo.${c}`, 'yahoo' as Provider])),
	...Object.fromEntries(
		Object.keys(ZOHO_REGIONS).flatMap((r) => [
			[`zoho.${r}`, 'zoho' as Provider],
			[`zohomail.${r}`, 'zoho' as Provider],
		]),
	),
	'icloud.com': 'icloud',
	'me.com': 'icloud',
	'mac.com': 'icloud',
	'secureserver.net': 'godaddy',
	'privateemail.com': 'namecheap',
};

/** Microsoft's country forms: outlook.de, hotmail.co.uk, live.fr, ... */
const MICROSOFT_COUNTRY_FORM = /^(outlook|hotmail|live)\.([a-z]{2,3}|(co|com)\.[a-z]{2})$/;

/** Real mail domains near a provider's name, never taken for its typos (email.com is not gmail.com). */
const OTHER_MAIL_DOMAINS = new Set([
	'email.com',
	'mail.com',
	'gmx.com',
	'gmx.net',
	'gmx.de',
	'web.de',
	'aol.com',
	'proton.me',
	'protonmail.com',
	'yandex.com',
	'mail.ru',
	'att.net',
	'msn.net',
	'live.net',
	'mail.me',
]);

/**
 * The provider domain that `domain` is most likely a typo of (gmial.com -> gmail.com), or
 * undefined. Short domains are left alone: one edit away from a short name is often a real domain.
 */
export function likelyDomainTypo(domain: string): string | undefined {
	const d = domain.toLowerCase();
	if (providerOfDomain(d) || OTHER_MAIL_DOMAINS.has(d) || d.length < 7) return undefined;
	return closest(d, Object.keys(PROVIDER_DOMAINS), d.length <= 9 ? 1 : 2);
}

export function providerOfDomain(domain: string): Provider | undefined {
	const d = domain.toLowerCase();
	return PROVIDER_DOMAINS[d] ?? (MICROSOFT_COUNTRY_FORM.test(d) ? 'microsoft' : undefined);
}

/** The provider's settings; Zoho's regional domains use their regional servers. */
export function settingsFor(provider: Provider, domain: string): MailSettings {
	const base = PROVIDER_SETTINGS[provider];
	if (provider !== 'zoho') return base;
	const region = /^zoho(?:mail)?\.(.+)$/.exec(domain.toLowerCase())?.[1];
	const suffix = region && ZOHO_REGIONS[region];
	if (!suffix || suffix === 'com') return base;
	return { ...base, imapHost: `imap.zoho.${suffix}`, smtpHost: `smtp.zoho.${suffix}` };
}

/** MX host suffixes of hosting providers, for the optional MX lookup of custom domains. */
export const MX_SUFFIXES: [string, Provider][] = [
	['secureserver.net', 'godaddy'],
	['privateemail.com', 'namecheap'],
	['mail.protection.outlook.com', 'microsoft'],
	['google.com', 'google'],
	['googlemail.com', 'google'],
	['zoho.com', 'zoho'],
	['zoho.eu', 'zoho'],
];
