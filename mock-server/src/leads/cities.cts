import { editDistance } from '../core/similar.cjs';

/**
 * Offline city resolution against a real gazetteer (city-timezones, MIT: ~7,300 cities with
 * population, country and region). Accepts "Austin", "Austin, TX", "Austin, US", "München",
 * "Munchen": case and accents are ignored, qualifiers narrow the match, the most populous wins.
 */
export interface City {
	id: string;
	name: string;
	country: string;
	iso2: string;
	region: string;
	regionCode?: string;
	population: number;
}

interface Row {
	city: string;
	city_ascii: string;
	pop: number;
	country: string;
	iso2: string;
	iso3: string;
	province: string;
	state_ansi?: string;
}

export function normalize(text: string): string {
	return text
		.normalize('NFKD')
		.replace(/\u00df/g, 'ss') // ß, escaped: the bundle stays ASCII (build.cjs)
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, ' ')
		.trim();
}

/** Local names and common alternates the gazetteer lists under their English name. */
const CITY_ALIASES: Record<string, string> = {
	munchen: 'munich',
	muenchen: 'munich',
	koln: 'cologne',
	koeln: 'cologne',
	wien: 'vienna',
	roma: 'rome',
	milano: 'milan',
	napoli: 'naples',
	torino: 'turin',
	firenze: 'florence',
	venezia: 'venice',
	genova: 'genoa',
	praha: 'prague',
	warszawa: 'warsaw',
	krakow: 'krakow',
	lisboa: 'lisbon',
	sevilla: 'seville',
	bruxelles: 'brussels',
	brussel: 'brussels',
	antwerpen: 'antwerp',
	'den haag': 'the hague',
	's gravenhage': 'the hague',
	kobenhavn: 'copenhagen',
	goteborg: 'gothenburg',
	geneve: 'geneva',
	genf: 'geneva',
	zuerich: 'zurich',
	athina: 'athens',
	moskva: 'moscow',
	'sankt peterburg': 'st petersburg',
	'saint petersburg': 'st petersburg',
	kyiv: 'kiev',
	beograd: 'belgrade',
	bucuresti: 'bucharest',
	nurnberg: 'nuremberg',
	nuernberg: 'nuremberg',
	hannover: 'hanover',
	'frankfurt am main': 'frankfurt',
	'mexico city': 'mexico city',
	'ciudad de mexico': 'mexico city',
	cdmx: 'mexico city',
	'sao paulo': 'sao paulo',
	nyc: 'new york',
	'new york city': 'new york',
	la: 'los angeles',
	sf: 'san francisco',
	'washington dc': 'washington',
	'd c': 'washington',
	bombay: 'mumbai',
	calcutta: 'kolkata',
	madras: 'chennai',
	peking: 'beijing',
	montreal: 'montreal',
	quebec: 'quebec',
};

const COUNTRY_ALIASES: Record<string, string> = {
	usa: 'US',
	'united states': 'US',
	america: 'US',
	uk: 'GB',
	'united kingdom': 'GB',
	england: 'GB',
	scotland: 'GB',
	wales: 'GB',
	'great britain': 'GB',
	britain: 'GB',
	deutschland: 'DE',
	espana: 'ES',
	italia: 'IT',
	nederland: 'NL',
	holland: 'NL',
	schweiz: 'CH',
	suisse: 'CH',
	osterreich: 'AT',
	brasil: 'BR',
	mexico: 'MX',
	'south korea': 'KR',
	korea: 'KR',
	russia: 'RU',
	uae: 'AE',
};

/** Region abbreviations the gazetteer does not carry (Canada, Australia). */
const REGION_CODES: Record<string, Record<string, string>> = {
	CA: {
		on: 'ontario',
		qc: 'quebec',
		bc: 'british columbia',
		ab: 'alberta',
		mb: 'manitoba',
		sk: 'saskatchewan',
		ns: 'nova scotia',
		nb: 'new brunswick',
		nl: 'newfoundland and labrador',
		pe: 'prince edward island',
	},
	AU: {
		nsw: 'new south wales',
		vic: 'victoria',
		qld: 'queensland',
		wa: 'western australia',
		sa: 'south australia',
		tas: 'tasmania',
		act: 'australian capital territory',
		nt: 'northern territory',
	},
};

let index: Map<string, Row[]> | undefined;

function buildIndex(): Map<string, Row[]> {
	const map = new Map<string, Row[]>();
	// Loaded on first use (about 7,300 cities): an idle server does without it.
	const { cityMapping } = require('city-timezones') as typeof import('city-timezones');
	for (const row of cityMapping as Row[]) {
		for (const key of new Set([normalize(row.city), normalize(row.city_ascii)])) {
			if (!key) continue;
			const list = map.get(key) ?? [];
			list.push(row);
			map.set(key, list);
		}
	}
	for (const list of map.values()) list.sort((a, b) => b.pop - a.pop);
	return map;
}

function matchesQualifier(row: Row, qualifier: string): boolean {
	const q = normalize(qualifier);
	const iso = COUNTRY_ALIASES[q] ?? q.toUpperCase();
	if (row.iso2 === iso || row.iso3 === iso) return true;
	if (normalize(row.country) === q || normalize(row.province) === q) return true;
	if (row.state_ansi && row.state_ansi.toLowerCase() === q) return true;
	const regionName = REGION_CODES[row.iso2]?.[q];
	return !!regionName && normalize(row.province) === regionName;
}

function parts(input: string): [string | undefined, string[]] {
	const [rawName, ...qualifiers] = input
		.split(',')
		.map((p) => p.trim())
		.filter(Boolean);
	return [rawName, qualifiers];
}

/**
 * The known city nearest to a name that did not resolve ("Austn, TX" -> "Austin, TX"), among
 * those matching the qualifiers, written the way the request may send it; undefined when none is
 * close (about one edit per four letters).
 */
export function suggestCity(input: string): string | undefined {
	index ??= buildIndex();
	const [rawName, qualifiers] = parts(input);
	if (!rawName) return undefined;
	const name = normalize(rawName);
	const matching = (key: string) =>
		index!
			.get(CITY_ALIASES[key] ?? key)
			?.find((r) => qualifiers.every((q) => matchesQualifier(r, q)));
	let best: { distance: number; row: Row } | undefined;
	const limit = Math.max(1, Math.floor(name.length / 4));
	for (const key of [...index.keys(), ...Object.keys(CITY_ALIASES)]) {
		if (Math.abs(key.length - name.length) > limit) continue;
		const distance = editDistance(name, key);
		if (distance > limit || (best && distance > best.distance)) continue;
		const row = matching(key);
		// Nearest first; among equally near names, the most populous city.
		if (row && (!best || distance < best.distance || row.pop > best.row.pop))
			best = { distance, row };
	}
	return best && `${best.row.city_ascii}, ${best.row.state_ansi ?? best.row.country}`;
}

export function resolveCity(input: string): City | undefined {
	index ??= buildIndex();
	const [rawName, qualifiers] = parts(input);
	if (!rawName) return undefined;
	const name = normalize(rawName);
	const rows = index.get(CITY_ALIASES[name] ?? name) ?? index.get(name) ?? [];
	const row = rows.find((r) => qualifiers.every((q) => matchesQualifier(r, q)));
	if (!row) return undefined;
	return {
		id: `${row.iso2}:${normalize(row.city_ascii)}:${normalize(row.province)}`,
		name: row.city_ascii,
		country: row.country,
		iso2: row.iso2,
		region: row.province,
		regionCode: row.state_ansi,
		population: Math.round(row.pop),
	};
}
