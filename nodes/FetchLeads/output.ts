import type { IDataObject } from 'n8n-workflow';

/** The contact fields the spec names, for Output: Selected Fields. */
export const CONTACT_FIELDS = [
	'address',
	'businessName',
	'email',
	'emails',
	'facebook',
	'fbPixel',
	'gAnalytics',
	'googleBusinessCategories',
	'instagram',
	'linkedin',
	'phone',
	'phone_numbers',
	'tiktok',
	'tikTokPixel',
	'website',
] as const;

const text = (value: unknown): string | null =>
	typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

const flag = (value: unknown): boolean | null =>
	value === true || value === 'true' ? true : value === false || value === 'false' ? false : null;

/**
 * A contact's address: `email`, or the first of `emails` when a service leaves `email` empty
 * (the spec names it the primary address and does not say it is always set).
 */
export function primaryEmail(contact: IDataObject): string | null {
	const candidates = [contact.email, ...(Array.isArray(contact.emails) ? contact.emails : [])];
	for (const candidate of candidates)
		if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim();
	return null;
}

/**
 * The ten fields a CRM record or an AI agent needs, named for people: the contact's lists turned
 * into text a CRM field takes, the pixel flags named for what they tell a salesperson.
 */
export function simplifyContact(contact: IDataObject): IDataObject {
	const categories = Array.isArray(contact.googleBusinessCategories)
		? contact.googleBusinessCategories.map(text).filter((c) => c !== null)
		: [];
	const socialProfiles = ['facebook', 'instagram', 'linkedin', 'tiktok']
		.map((network) => text(contact[network]))
		.filter((url) => url !== null);
	return {
		name: text(contact.businessName),
		email: primaryEmail(contact),
		phone: text(contact.phone),
		website: text(contact.website),
		address: text(contact.address),
		categories: categories.join(', ') || null,
		socialProfiles,
		runsMetaAds: flag(contact.fbPixel),
		runsTikTokAds: flag(contact.tikTokPixel),
		usesGoogleAnalytics: flag(contact.gAnalytics),
	};
}

/** Only the fields asked for; one the service left out comes as null so every item has them all. */
export function selectFields(contact: IDataObject, fields: string[]): IDataObject {
	return Object.fromEntries(fields.map((field) => [field, contact[field] ?? null]));
}

export type OutputMode = 'contacts' | 'simplified' | 'selected' | 'response';

/** Each contact as the Output parameter asks (Full Response keeps them raw, as the service sent). */
export function shapeContacts(
	contacts: IDataObject[],
	mode: OutputMode,
	fields: string[],
): IDataObject[] {
	if (mode === 'simplified') return contacts.map(simplifyContact);
	if (mode === 'selected') return contacts.map((contact) => selectFields(contact, fields));
	return contacts;
}
