/**
 * The success answers as the specs write them, field by field: the type each field has in the
 * spec's table, "or null" where the spec says so, and the form its notes give (URL, ISO 8601 UTC,
 * a leading plus sign, the four status values). Written from the spec's words, not from this
 * server's schemas: those hold this server's choices where the spec is open, and a real service
 * may choose otherwise.
 */
import { INBOX_STATUSES } from '../../contract/inboxes.cjs';
import type { Kind } from './kinds.cjs';

export type Form = 'url' | 'iso-utc' | 'phone' | 'inbox-status';

export interface Field {
	type: 'string' | 'number' | 'integer' | 'boolean' | 'array' | 'object';
	/** The spec says "or null". */
	nullable?: boolean;
	/** The spec says "present only when..." */
	optional?: boolean;
	form?: Form;
	items?: Field;
	fields?: Record<string, Field>;
	/** The spec's words for the field, quoted in the report. */
	words: string;
}

const string = (words: string, form?: Form): Field => ({ type: 'string', words, form });
const number = (words: string): Field => ({ type: 'number', words });
const list = (items: Field, words: string): Field => ({ type: 'array', items, words });

const socialUrl = (name: string): Field => ({
	type: 'string',
	nullable: true,
	form: 'url',
	words: `${name}: string (URL) or null`,
});

/** The contact: "Each contact carries these fields where available; a value that is missing may be null". */
export const CONTACT: Record<string, Field> = {
	businessName: string('businessName: string'),
	address: string('address: string'),
	website: string('website: string (URL)', 'url'),
	email: string('email: string, primary email address'),
	emails: list(string('emails: array of string'), 'emails: array of string'),
	phone: string('phone: string, international format with a leading plus sign', 'phone'),
	phone_numbers: list(string('phone_numbers: array of string'), 'phone_numbers: array of string'),
	instagram: socialUrl('instagram'),
	facebook: socialUrl('facebook'),
	linkedin: socialUrl('linkedin'),
	tiktok: socialUrl('tiktok'),
	fbPixel: { type: 'boolean', words: 'fbPixel: boolean' },
	tikTokPixel: { type: 'boolean', words: 'tikTokPixel: boolean' },
	gAnalytics: { type: 'boolean', words: 'gAnalytics: boolean' },
	googleBusinessCategories: list(
		string('googleBusinessCategories: array of string'),
		'googleBusinessCategories: array of string',
	),
};

export const LEAD_SEARCH_ANSWER: Field = {
	type: 'object',
	words: 'JSON object with contacts and chargedCredits',
	fields: {
		contacts: list(
			{ type: 'object', fields: CONTACT, words: 'Contact' },
			'contacts: array of Contact',
		),
		chargedCredits: { type: 'integer', words: 'chargedCredits: integer' },
	},
};

const POOL: Field = {
	type: 'object',
	words: 'Pool',
	fields: {
		id: string('id: string'),
		name: string('name: string'),
		inboxCount: number('inboxCount: number'),
		createdAt: string('createdAt: string, ISO 8601 timestamp in UTC', 'iso-utc'),
	},
};

export const POOLS_ANSWER: Field = {
	type: 'object',
	words: 'object with pools (array of Pool)',
	fields: { pools: list(POOL, 'pools: array of Pool') },
};

export const LISTED_INBOX: Record<string, Field> = {
	id: string('id: string'),
	emailAddress: string('emailAddress: string'),
	poolId: string('poolId: string'),
	status: string('status: one of active, paused, deactivated, error', 'inbox-status'),
	dailySendingLimit: number('dailySendingLimit: number'),
	createdAt: string('createdAt: string, ISO 8601 timestamp in UTC', 'iso-utc'),
};

export const INBOXES_ANSWER: Field = {
	type: 'object',
	words: 'object with inboxes and pagination',
	fields: {
		inboxes: list(
			{ type: 'object', words: 'Inbox', fields: LISTED_INBOX },
			'inboxes: array of Inbox',
		),
		pagination: {
			type: 'object',
			words: 'pagination with total, limit, skip, hasMore',
			fields: {
				total: number('pagination.total: number'),
				limit: number('pagination.limit: number'),
				skip: number('pagination.skip: number'),
				hasMore: { type: 'boolean', words: 'pagination.hasMore: boolean' },
			},
		},
	},
};

/** An element of results. inboxId is checked by the creation rules (present for a created entry). */
const RESULT: Field = {
	type: 'object',
	words: 'Element of results',
	fields: {
		emailAddress: string('emailAddress: string'),
		success: { type: 'boolean', words: 'success: boolean' },
		inboxId: { ...string('inboxId: string, present for a created entry'), optional: true },
		autoFilledFields: {
			...list(string('autoFilledFields: array of string'), 'autoFilledFields: array of string'),
			optional: true,
		},
	},
};

export const CREATION_ANSWER: Field = {
	type: 'object',
	words: 'Creation response',
	fields: {
		success: { type: 'boolean', words: 'success: boolean, overall flag' },
		summary: {
			type: 'object',
			words: 'summary: object',
			fields: {
				total: number('summary.total: number of entries'),
				created: number('summary.created: number created'),
				failed: number('summary.failed: number failed'),
			},
		},
		results: list(RESULT, 'results: array, one element per entry'),
	},
};

/** A field's difference, as a check reports it. */
export interface FieldFinding {
	kind: Kind;
	/** The field as people write it, indexes out: contacts[].website. */
	subject: string;
	/** Where exactly: contacts[3].website. */
	at: string;
	value: unknown;
	seen: string;
	/** The spec's words for the field. */
	words: string;
}

export function describe(value: unknown): string {
	if (value === null) return 'null';
	if (value === undefined) return 'absent';
	if (Array.isArray(value)) return `an array of ${value.length}`;
	if (typeof value === 'string') {
		const shown = value.length > 60 ? `${value.slice(0, 57)}...` : value;
		return `${JSON.stringify(shown)} (text)`;
	}
	if (typeof value === 'object') return `an object {${Object.keys(value).slice(0, 6).join(', ')}}`;
	return `${JSON.stringify(value)} (a ${typeof value})`;
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]00:?00)$/;

function formBroken(form: Form, value: string): boolean {
	switch (form) {
		case 'url':
			try {
				return !/^https?:$/.test(new URL(value).protocol);
			} catch {
				return true;
			}
		case 'iso-utc':
			return !ISO_UTC.test(value) || Number.isNaN(Date.parse(value));
		case 'phone':
			return !/^\+\d[\d\s().-]{4,}$/.test(value);
		case 'inbox-status':
			return !(INBOX_STATUSES as readonly string[]).includes(value);
	}
}

const FORM_KIND: Record<Form, Kind> = {
	url: 'url',
	'iso-utc': 'timestamp',
	phone: 'phone-format',
	'inbox-status': 'status-value',
};

const typeMatches = (type: Field['type'], value: unknown) =>
	type === 'array'
		? Array.isArray(value)
		: type === 'object'
			? typeof value === 'object' && value !== null && !Array.isArray(value)
			: type === 'integer'
				? typeof value === 'number'
				: typeof value === type;

export interface WalkOptions {
	/** In a contact every value may be missing or null ("where available"). */
	whereAvailable?: (path: PropertyKey[]) => boolean;
	/** Extra fields a caller judges itself (a failed entry's fields, the pool): not reported here. */
	skipExtra?: (path: PropertyKey[], key: string) => boolean;
	/** The kind an extra field is (default extra-field). */
	extraKind?: (path: PropertyKey[], key: string) => Kind;
}

const textOf = (path: PropertyKey[]) =>
	path
		.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
		.join('')
		.replace(/^\./, '');
const generic = (path: PropertyKey[]) => textOf(path).replace(/\[\d+\]/g, '[]');

/** Walks a value beside the spec's field, reporting every difference. */
export function fieldFindings(
	field: Field,
	value: unknown,
	options: WalkOptions = {},
	path: PropertyKey[] = [],
	out: FieldFinding[] = [],
): FieldFinding[] {
	const report = (kind: Kind, seen: string, words = field.words, at = path, v = value) =>
		out.push({ kind, subject: generic(at), at: textOf(at), value: v, seen, words });
	const available = options.whereAvailable?.(path) ?? false;
	if (value === null) {
		if (field.nullable) return out;
		if (available) return (field.type === 'array' && report('contact-list-null', 'null'), out);
		return (report('field-null', 'null'), out);
	}
	if (!typeMatches(field.type, value)) {
		const numeric =
			(field.type === 'number' || field.type === 'integer') &&
			typeof value === 'string' &&
			/^\s*-?\d+(\.\d+)?\s*$/.test(value);
		report(numeric ? 'number-as-text' : 'field-type', describe(value));
		return out;
	}
	if (field.type === 'integer' && !Number.isInteger(value)) report('not-integer', describe(value));
	if (field.form && typeof value === 'string' && formBroken(field.form, value))
		report(FORM_KIND[field.form], describe(value));
	if (field.type === 'array' && field.items)
		(value as unknown[]).forEach((item, i) =>
			fieldFindings(field.items!, item, options, [...path, i], out),
		);
	if (field.type === 'object' && field.fields) {
		const object = value as Record<string, unknown>;
		for (const [key, inner] of Object.entries(field.fields)) {
			const at = [...path, key];
			if (object[key] !== undefined) fieldFindings(inner, object[key], options, at, out);
			else if (!inner.optional)
				report(
					options.whereAvailable?.(at) ? 'contact-field-missing' : 'field-missing',
					'absent',
					inner.words,
					at,
					undefined,
				);
		}
		for (const key of Object.keys(object))
			if (!(key in field.fields) && !options.skipExtra?.(path, key))
				report(
					options.extraKind?.(path, key) ?? 'extra-field',
					key,
					`${field.words}: ${Object.keys(field.fields).join(', ')}`,
					[...path, key],
					object[key],
				);
	}
	return out;
}
