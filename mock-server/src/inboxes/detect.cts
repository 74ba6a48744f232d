import { promises as dns } from 'node:dns';
import type { InboxEntry, Provider } from '../contract/inboxes.cjs';
import {
	likelyDomainTypo,
	MX_SUFFIXES,
	type MailSettings,
	providerOfDomain,
	settingsFor,
} from './providers.cjs';

export type MxResolver = (domain: string) => Promise<string[]>;

export const systemMxResolver: MxResolver = async (domain) =>
	(await dns.resolveMx(domain)).map((r) => r.exchange);

export interface ResolvedSettings extends MailSettings {
	provider?: Provider;
	imapUsername: string;
	smtpUsername: string;
	imapPassword: string;
	smtpPassword: string;
	autoFilledFields: (keyof MailSettings)[];
}

export class DetectionError extends Error {}

const FIELDS: (keyof MailSettings)[] = ['imapHost', 'imapPort', 'smtpHost', 'smtpPort'];

async function providerByMx(domain: string, resolver: MxResolver): Promise<Provider | undefined> {
	let hosts: string[];
	try {
		hosts = await resolver(domain);
	} catch {
		return undefined;
	}
	for (const host of hosts) {
		const h = host.toLowerCase().replace(/\.$/, '');
		const hit = MX_SUFFIXES.find(([suffix]) => h === suffix || h.endsWith(`.${suffix}`));
		if (hit) return hit[1];
	}
	return undefined;
}

/**
 * Connection settings of an entry: an explicit provider wins, then the email domain, then (when
 * enabled) the domain's MX records. Only fields the entry did not send are filled.
 */
export async function resolveSettings(
	entry: InboxEntry,
	mx?: MxResolver,
): Promise<ResolvedSettings> {
	const [localPart, domain] = splitAddress(entry.emailAddress);
	const typoOf = entry.acceptDomainAsTyped ? undefined : likelyDomainTypo(domain);
	if (typoOf) {
		throw new DetectionError(
			`${entry.emailAddress} looks like a typo: did you mean ${localPart}@${typoOf}? Fix the address, or send acceptDomainAsTyped: true if it is right.`,
		);
	}
	const provider =
		entry.provider ?? providerOfDomain(domain) ?? (mx ? await providerByMx(domain, mx) : undefined);
	const detected = provider ? settingsFor(provider, domain) : undefined;
	const missing = FIELDS.filter((f) => entry[f] === undefined);
	if (!detected && missing.length > 0) {
		throw new DetectionError(
			`Cannot detect the mail provider of '${domain}': set provider (google, microsoft, yahoo, zoho, icloud, godaddy or namecheap) or send ${missing.join(', ')}.`,
		);
	}
	const pick = <K extends keyof MailSettings>(field: K): MailSettings[K] =>
		(entry[field] ?? detected![field]) as MailSettings[K];
	return {
		provider,
		imapHost: pick('imapHost'),
		imapPort: pick('imapPort'),
		smtpHost: pick('smtpHost'),
		smtpPort: pick('smtpPort'),
		// iCloud's IMAP login is the local part (ISPDB); everyone else uses the full address.
		imapUsername: entry.imapUsername ?? (provider === 'icloud' ? localPart : entry.emailAddress),
		smtpUsername: entry.smtpUsername ?? entry.emailAddress,
		imapPassword: entry.imapPassword,
		smtpPassword: entry.smtpPassword ?? entry.imapPassword,
		autoFilledFields: missing,
	};
}

export function splitAddress(address: string): [string, string] {
	const at = address.lastIndexOf('@');
	return [address.slice(0, at), address.slice(at + 1).toLowerCase()];
}
