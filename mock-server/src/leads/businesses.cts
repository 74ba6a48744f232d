import type { CountryCode, Examples } from 'libphonenumber-js';
import { contactKey } from '../contract/contact-key.cjs';
import { lazy } from '../core/lazy.cjs';
import { hash32, Rng } from '../core/random.cjs';
import type { City } from './cities.cjs';
import { localPhone, phoneLib, postalCodeOf } from './local-numbers.cjs';
import type { Niche } from './niches.cjs';

const mobileExamples = lazy(() => require('libphonenumber-js/mobile/examples') as object);

/**
 * The deterministic business directory: for a (niche, city) the same ranked list every time, so
 * dedup across calls is real. How many businesses exist grows with the city's population and the
 * niche's frequency. Each business is generated on demand from its rank.
 */
export interface Business {
	/** Stable identity, the dedup key of a business without email. */
	key: string;
	/** What an account deduplicates the business's contact under (computed once, with the listing). */
	dedupKey: string;
	businessName: string;
	address: string;
	website: string | null;
	emails: string[];
	phones: string[];
	instagram: string | null;
	facebook: string | null;
	linkedin: string | null;
	tiktok: string | null;
	categories: string[];
}

const MAX_BUSINESSES = 20000;

export function businessCount(niche: Niche, city: City): number {
	const expected = (city.population / 100000) * niche.perHundredThousand;
	// A little per-query variation, stable for the query.
	const jitter = 0.85 + (hash32(`${niche.id}|${city.id}`) % 300) / 1000;
	return Math.min(MAX_BUSINESSES, Math.floor(expected * jitter));
}

const PREFIXES = [
	'Bright',
	'Summit',
	'Oak',
	'Maple',
	'Riverside',
	'Lakeside',
	'Golden',
	'Blue Sky',
	'Evergreen',
	'Pioneer',
	'Harbor',
	'Northside',
	'Southside',
	'Central',
	'Prime',
	'Elite',
	'Urban',
	'Village',
	'Heritage',
	'Liberty',
	'Crown',
	'Silver',
	'Cedar',
	'Sunrise',
	'Granite',
	'Redwood',
	'Parkview',
	'Hillside',
	'Metro',
	'Family',
	'First Choice',
	'Trusted',
	'Precision',
	'Modern',
	'Classic',
	'Greenleaf',
	'Keystone',
	'Anchor',
	'Beacon',
	'Compass',
	'Horizon',
	'Juniper',
	'Willow',
	'Aspen',
	'Birch',
	'Sterling',
	'Apex',
	'Northern',
	'Coastal',
	'Union',
];
const SURNAMES = [
	'Smith',
	'Johnson',
	'Miller',
	'Garcia',
	'Brown',
	'Davis',
	'Martin',
	'Rossi',
	'Müller',
	'Schmidt',
	'Dubois',
	'Novak',
	'Kowalski',
	'Jensen',
	'Silva',
	'Tanaka',
	'Kim',
	'Patel',
	'Nguyen',
	'Okafor',
	'Murphy',
	"O'Brien",
	'Larsen',
	'Fischer',
];
const SUFFIXES = [
	'',
	'',
	'',
	' Co.',
	' Group',
	' Studio',
	' & Sons',
	' Center',
	' Pros',
	' Experts',
];
const STREETS = [
	'Oak',
	'Main',
	'Maple',
	'Cedar',
	'Park',
	'Elm',
	'Washington',
	'Lake',
	'Hill',
	'Pine',
	'River',
	'Church',
	'Market',
	'Mill',
	'Station',
	'King',
	'Queen',
	'High',
	'Bridge',
	'Garden',
];
const EN_KINDS = ['Street', 'Avenue', 'Road', 'Boulevard', 'Lane', 'Drive'];
const FREE_MAIL = ['freemail.test', 'webmail.test', 'inbox-mail.test', 'post.test'];

const slug = (text: string) =>
	text
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/&/g, 'and')
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-|-$/g, '');

function postalCode(iso2: string, rng: Rng): string {
	switch (iso2) {
		case 'US':
			return rng.digits(5);
		case 'GB':
			return `${rng.chars('ABCDEFGHKLMNPRSTW', 2)}${rng.int(1, 20)} ${rng.int(1, 9)}${rng.chars('ABDEFGHJLNPQRSTUWXYZ', 2)}`;
		case 'CA':
			return `${rng.chars('ABCEGHJKLMNPRSTVXY', 1)}${rng.int(0, 9)}${rng.chars('ABCEGHJKLMNPRSTVWXYZ', 1)} ${rng.int(0, 9)}${rng.chars('ABCEGHJKLMNPRSTVWXYZ', 1)}${rng.int(0, 9)}`;
		case 'NL':
			return `${rng.int(1000, 9999)} ${rng.chars('ABCDEFGHJKLMNPRSTVWXZ', 2)}`;
		case 'AU':
		case 'AT':
		case 'CH':
		case 'BE':
		case 'DK':
		case 'NO':
			return String(rng.int(1000, 9999));
		default:
			return rng.digits(5);
	}
}

function address(city: City, rng: Rng): string {
	const number = rng.int(1, 2400);
	const street = rng.pick(STREETS);
	const postal = postalCodeOf(city, rng, (r) => postalCode(city.iso2, r));
	switch (city.iso2) {
		case 'US':
			return `${number} ${street} ${rng.pick(EN_KINDS)}, ${city.name}, ${city.regionCode ?? city.region} ${postal}`;
		case 'CA':
		case 'AU':
			return `${number} ${street} ${rng.pick(EN_KINDS)}, ${city.name}, ${city.region} ${postal}`;
		case 'GB':
		case 'IE':
		case 'NZ':
			return `${number} ${street} ${rng.pick(EN_KINDS)}, ${city.name} ${postal}`;
		case 'DE':
		case 'AT':
		case 'CH':
			return `${rng.pick(['Haupt', 'Linden', 'Bahnhof', 'Garten', 'Schul', 'Berg', 'Kirch'])}${rng.pick(['straße', 'weg', 'allee'])} ${rng.int(1, 180)}, ${postal} ${city.name}`;
		case 'FR':
		case 'BE':
			return `${rng.int(1, 180)} ${rng.pick(['Rue de la Paix', 'Avenue Victor Hugo', 'Rue du Commerce', 'Boulevard Voltaire', 'Rue de la République'])}, ${postal} ${city.name}`;
		case 'ES':
		case 'MX':
		case 'AR':
		case 'CO':
		case 'CL':
		case 'PE':
			return `${rng.pick(['Calle Mayor', 'Avenida de la Constitución', 'Calle Real', 'Paseo de la Reforma', 'Calle Independencia'])} ${rng.int(1, 300)}, ${postal} ${city.name}`;
		case 'IT':
			return `${rng.pick(['Via Roma', 'Via Garibaldi', 'Corso Italia', 'Via Dante', 'Piazza Verdi'])} ${rng.int(1, 200)}, ${postal} ${city.name}`;
		case 'NL':
			return `${rng.pick(['Kerkstraat', 'Dorpsstraat', 'Molenweg', 'Stationsweg'])} ${rng.int(1, 200)}, ${postal} ${city.name}`;
		case 'BR':
		case 'PT':
			return `${rng.pick(['Rua das Flores', 'Avenida Paulista', 'Rua Augusta', 'Rua da Liberdade'])}, ${rng.int(1, 2000)}, ${city.name}`;
		default:
			return `${number} ${street} ${rng.pick(EN_KINDS)}, ${city.name}, ${city.country}`;
	}
}

/**
 * A phone number of the city's own area where a table covers it, else one valid for the country
 * (libphonenumber's metadata), in E.164.
 */
function phone(city: City, rng: Rng): string | undefined {
	const local = localPhone(city, rng);
	if (local) return local;
	const country = city.iso2 as CountryCode;
	let example;
	try {
		example = phoneLib().getExampleNumber(country, mobileExamples() as unknown as Examples);
	} catch {
		return undefined;
	}
	if (!example) return undefined;
	// Keep the example's first digit (the number type) and draw the rest until libphonenumber
	// accepts it, so area codes vary instead of all businesses sharing the example's.
	const national = example.nationalNumber as string;
	const keep = 1;
	for (let attempt = 0; attempt < 40; attempt++) {
		const candidate = national.slice(0, keep) + rng.digits(national.length - keep);
		const parsed = phoneLib().parsePhoneNumberFromString(candidate, country);
		if (parsed?.isValid()) return parsed.number as string;
	}
	return example.number as string;
}

type Listing = Omit<Business, 'dedupKey'>;

function generateListing(niche: Niche, city: City, rank: number): Listing {
	const key = `${niche.id}|${city.id}|${rank}`;
	const rng = new Rng(`business:${key}`);
	const noun = niche.categories[0];
	const name = rng.chance(0.35)
		? `${rng.pick(SURNAMES)} ${noun}${rng.pick(SUFFIXES)}`
		: rng.chance(0.2)
			? `${city.name} ${noun}${rng.pick(SUFFIXES)}`
			: `${rng.pick(PREFIXES)} ${noun}${rng.pick(SUFFIXES)}`;
	const base = slug(name);
	const domain = `${base}-${hash32(key).toString(36).slice(0, 4)}.test`;
	const website = rng.chance(0.88) ? `http://${domain}/` : null;

	const emails: string[] = [];
	if (rng.chance(0.9)) {
		if (website && rng.chance(0.7)) {
			emails.push(`${rng.pick(['info', 'contact', 'hello', 'office', 'booking'])}@${domain}`);
			if (rng.chance(0.25))
				emails.push(`${rng.pick(['sales', 'support', 'admin', 'manager'])}@${domain}`);
		} else {
			emails.push(`${base.replace(/-/g, '.')}.${rng.int(1, 99)}@${rng.pick(FREE_MAIL)}`);
		}
		if (rng.chance(0.1))
			emails.push(`${base.split('-')[0]}${rng.int(10, 99)}@${rng.pick(FREE_MAIL)}`);
	}
	const phones: string[] = [];
	const count = rng.chance(0.93) ? (rng.chance(0.2) ? 2 : 1) : 0;
	for (let i = 0; i < count; i++) {
		const p = phone(city, rng);
		if (p && !phones.includes(p)) phones.push(p);
	}
	const handle =
		base.replace(/-/g, '') +
		(rng.chance(0.5) ? '' : city.name.toLowerCase().replace(/[^a-z]/g, ''));
	const categories = [
		niche.categories[0],
		...niche.categories.slice(1).filter(() => rng.chance(0.6)),
	];
	return {
		key,
		businessName: name,
		address: address(city, rng),
		website,
		emails,
		phones,
		instagram: rng.chance(0.4) ? `https://www.instagram.com/${handle}/` : null,
		facebook: rng.chance(0.55) ? `https://www.facebook.com/${handle}` : null,
		linkedin: rng.chance(0.2) ? `https://www.linkedin.com/company/${base}` : null,
		tiktok: rng.chance(0.12) ? `https://www.tiktok.com/@${handle}` : null,
		categories,
	};
}

/**
 * The business at a rank. About 2% are second listings (another branch) of the business ranked
 * just before, sharing its email: the same request must count that email once.
 */
export function businessAt(niche: Niche, city: City, rank: number): Business {
	const listing = listingAt(niche, city, rank);
	return { ...listing, dedupKey: contactKey(listing.emails[0], `business:${listing.key}`) };
}

function listingAt(niche: Niche, city: City, rank: number): Listing {
	const listing = generateListing(niche, city, rank);
	if (rank > 0 && new Rng(`branch:${listing.key}`).chance(0.02)) {
		const main = generateListing(niche, city, rank - 1);
		if (main.emails.length)
			return {
				...listing,
				businessName: `${main.businessName} (${listing.address.split(',')[0]})`,
				emails: main.emails,
			};
	}
	return listing;
}
