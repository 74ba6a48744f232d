import { lazy } from '../core/lazy.cjs';
import { Rng } from '../core/random.cjs';
import { type City, normalize } from './cities.cjs';

/**
 * Phone area codes and postal codes that belong to a business's city, so a CRM's address and
 * phone checks accept the synthetic data: the city's own codes for the larger US cities, its
 * state's otherwise (US), its province's (Canada). Elsewhere the postal code keeps a prefix of
 * its own per city, so the businesses of one city share it.
 */

/** libphonenumber's full metadata, loaded with the first business generated. */
export const phoneLib = lazy(
	() => require('libphonenumber-js/max') as typeof import('libphonenumber-js/max'),
);

/** Area codes of each US state and DC (North American Numbering Plan). */
const US_AREA_CODES: Record<string, number[]> = {
	AL: [205, 251, 256, 334, 938],
	AK: [907],
	AZ: [480, 520, 602, 623, 928],
	AR: [479, 501, 870],
	CA: [
		209, 213, 310, 323, 408, 415, 510, 530, 559, 562, 619, 626, 650, 661, 707, 714, 760, 805, 818,
		831, 858, 909, 916, 925, 949, 951,
	],
	CO: [303, 719, 720, 970],
	CT: [203, 475, 860, 959],
	DE: [302],
	DC: [202],
	FL: [239, 305, 321, 352, 386, 407, 561, 727, 754, 772, 786, 813, 850, 863, 904, 941, 954],
	GA: [229, 404, 470, 478, 678, 706, 762, 770, 912],
	HI: [808],
	ID: [208, 986],
	IL: [217, 224, 309, 312, 331, 618, 630, 708, 773, 779, 815, 847, 872],
	IN: [219, 260, 317, 463, 574, 765, 812, 930],
	IA: [319, 515, 563, 641, 712],
	KS: [316, 620, 785, 913],
	KY: [270, 364, 502, 606, 859],
	LA: [225, 318, 337, 504, 985],
	ME: [207],
	MD: [240, 301, 410, 443, 667],
	MA: [339, 351, 413, 508, 617, 774, 781, 857, 978],
	MI: [231, 248, 269, 313, 517, 586, 616, 734, 810, 906, 947, 989],
	MN: [218, 320, 507, 612, 651, 763, 952],
	MS: [228, 601, 662, 769],
	MO: [314, 417, 573, 636, 660, 816],
	MT: [406],
	NE: [308, 402, 531],
	NV: [702, 725, 775],
	NH: [603],
	NJ: [201, 551, 609, 640, 732, 848, 856, 862, 908, 973],
	NM: [505, 575],
	NY: [
		212, 315, 332, 347, 516, 518, 585, 607, 631, 646, 680, 716, 718, 838, 845, 914, 917, 929, 934,
	],
	NC: [252, 336, 704, 743, 828, 910, 919, 980, 984],
	ND: [701],
	OH: [216, 220, 234, 330, 380, 419, 440, 513, 567, 614, 740, 937],
	OK: [405, 539, 580, 918],
	OR: [458, 503, 541, 971],
	PA: [215, 223, 267, 272, 412, 445, 484, 570, 610, 717, 724, 814, 878],
	RI: [401],
	SC: [803, 843, 854, 864],
	SD: [605],
	TN: [423, 615, 629, 731, 865, 901, 931],
	TX: [
		210, 214, 254, 281, 325, 346, 361, 409, 430, 432, 469, 512, 682, 713, 726, 737, 806, 817, 830,
		832, 903, 915, 936, 940, 956, 972, 979,
	],
	UT: [385, 435, 801],
	VT: [802],
	VA: [276, 434, 540, 571, 703, 757, 804],
	WA: [206, 253, 360, 425, 509, 564],
	WV: [304, 681],
	WI: [262, 414, 534, 608, 715, 920],
	WY: [307],
};

/** First three digits of the ZIP codes of each US state and DC. */
const US_ZIP_PREFIXES: Record<string, [number, number][]> = {
	AL: [[350, 369]],
	AK: [[995, 999]],
	AZ: [[850, 865]],
	AR: [[716, 729]],
	CA: [[900, 961]],
	CO: [[800, 816]],
	CT: [[60, 69]],
	DE: [[197, 199]],
	DC: [[200, 205]],
	FL: [[320, 349]],
	GA: [[300, 319]],
	HI: [[967, 968]],
	ID: [[832, 838]],
	IL: [[600, 629]],
	IN: [[460, 479]],
	IA: [[500, 528]],
	KS: [[660, 679]],
	KY: [[400, 427]],
	LA: [[700, 714]],
	ME: [[39, 49]],
	MD: [[206, 219]],
	MA: [[10, 27]],
	MI: [[480, 499]],
	MN: [[550, 567]],
	MS: [[386, 397]],
	MO: [[630, 658]],
	MT: [[590, 599]],
	NE: [[680, 693]],
	NV: [[889, 898]],
	NH: [[30, 38]],
	NJ: [[70, 89]],
	NM: [[870, 884]],
	NY: [[100, 149]],
	NC: [[270, 289]],
	ND: [[580, 588]],
	OH: [[430, 459]],
	OK: [[730, 749]],
	OR: [[970, 979]],
	PA: [[150, 196]],
	RI: [[28, 29]],
	SC: [[290, 299]],
	SD: [[570, 577]],
	TN: [[370, 385]],
	TX: [[750, 799]],
	UT: [[840, 847]],
	VT: [[50, 59]],
	VA: [[220, 246]],
	WA: [[980, 994]],
	WV: [[247, 268]],
	WI: [[530, 549]],
	WY: [[820, 831]],
};

/** The larger US cities' own area codes and ZIP prefixes (the state's would be too wide). */
const US_CITIES: Record<string, { areaCodes: number[]; zip: number[] }> = {
	'Austin, TX': { areaCodes: [512, 737], zip: [787] },
	'Houston, TX': { areaCodes: [713, 281, 832, 346], zip: [770, 772] },
	'Dallas, TX': { areaCodes: [214, 469, 972], zip: [752, 753] },
	'San Antonio, TX': { areaCodes: [210, 726], zip: [782] },
	'New York, NY': { areaCodes: [212, 646, 332, 718, 347, 917, 929], zip: [100, 101, 102, 112] },
	'Los Angeles, CA': { areaCodes: [213, 323, 310, 818], zip: [900, 910, 913] },
	'San Francisco, CA': { areaCodes: [415, 628], zip: [941] },
	'San Diego, CA': { areaCodes: [619, 858], zip: [919, 920, 921] },
	'Chicago, IL': { areaCodes: [312, 773, 872], zip: [606] },
	'Boston, MA': { areaCodes: [617, 857], zip: [21, 22] },
	'Seattle, WA': { areaCodes: [206], zip: [981] },
	'Miami, FL': { areaCodes: [305, 786], zip: [331] },
	'Atlanta, GA': { areaCodes: [404, 470, 678], zip: [303] },
	'Denver, CO': { areaCodes: [303, 720], zip: [802] },
	'Phoenix, AZ': { areaCodes: [602, 480, 623], zip: [850] },
	'Philadelphia, PA': { areaCodes: [215, 267, 445], zip: [191] },
	'Portland, OR': { areaCodes: [503, 971], zip: [972] },
	'Las Vegas, NV': { areaCodes: [702, 725], zip: [891] },
	'Washington, DC': { areaCodes: [202], zip: [200] },
};

/** Canadian area codes and the first letters of the postal codes, by province. */
const CANADA: Record<string, { areaCodes: number[]; letters: string }> = {
	ontario: {
		areaCodes: [226, 249, 289, 343, 365, 416, 437, 519, 548, 613, 647, 705, 807, 905],
		letters: 'KLMNP',
	},
	quebec: { areaCodes: [418, 438, 450, 514, 579, 581, 819, 873], letters: 'GHJ' },
	'british columbia': { areaCodes: [236, 250, 604, 672, 778], letters: 'V' },
	alberta: { areaCodes: [368, 403, 587, 780, 825], letters: 'T' },
	manitoba: { areaCodes: [204, 431], letters: 'R' },
	saskatchewan: { areaCodes: [306, 639], letters: 'S' },
	'nova scotia': { areaCodes: [782, 902], letters: 'B' },
	'new brunswick': { areaCodes: [506], letters: 'E' },
	'newfoundland and labrador': { areaCodes: [709], letters: 'A' },
	'prince edward island': { areaCodes: [782, 902], letters: 'C' },
};

/**
 * Larger cities elsewhere: postal-code prefixes and area codes (national, without the trunk 0).
 * Australia by state: its postcode ranges and the state's area code.
 */
const CITIES: Record<string, Record<string, { postal: string[]; area: string[] }>> = {
	DE: {
		Berlin: { postal: ['10', '12', '13'], area: ['30'] },
		Hamburg: { postal: ['20', '21', '22'], area: ['40'] },
		Munich: { postal: ['80', '81'], area: ['89'] },
		Cologne: { postal: ['50', '51'], area: ['221'] },
		Frankfurt: { postal: ['60'], area: ['69'] },
		Stuttgart: { postal: ['70'], area: ['711'] },
		Dusseldorf: { postal: ['40'], area: ['211'] },
		Dortmund: { postal: ['44'], area: ['231'] },
		Essen: { postal: ['45'], area: ['201'] },
		Leipzig: { postal: ['04'], area: ['341'] },
		Bremen: { postal: ['28'], area: ['421'] },
		Dresden: { postal: ['01'], area: ['351'] },
		Hannover: { postal: ['30'], area: ['511'] },
		Nuremberg: { postal: ['90'], area: ['911'] },
	},
	GB: {
		London: { postal: ['E', 'N', 'NW', 'SE', 'SW', 'W'], area: ['20'] },
		Manchester: { postal: ['M'], area: ['161'] },
		Birmingham: { postal: ['B'], area: ['121'] },
		Leeds: { postal: ['LS'], area: ['113'] },
		Glasgow: { postal: ['G'], area: ['141'] },
		Liverpool: { postal: ['L'], area: ['151'] },
		Bristol: { postal: ['BS'], area: ['117'] },
		Edinburgh: { postal: ['EH'], area: ['131'] },
		Sheffield: { postal: ['S'], area: ['114'] },
	},
	FR: {
		Paris: { postal: ['750'], area: ['1'] },
		Marseille: { postal: ['130'], area: ['4'] },
		Lyon: { postal: ['690'], area: ['4'] },
		Toulouse: { postal: ['310'], area: ['5'] },
		Nice: { postal: ['060'], area: ['4'] },
		Nantes: { postal: ['440'], area: ['2'] },
		Strasbourg: { postal: ['670'], area: ['3'] },
		Bordeaux: { postal: ['330'], area: ['5'] },
		Lille: { postal: ['590'], area: ['3'] },
	},
};
const AU_STATES: Record<string, { postal: [number, number]; area: string }> = {
	'new south wales': { postal: [2000, 2599], area: '2' },
	'australian capital territory': { postal: [2600, 2618], area: '2' },
	victoria: { postal: [3000, 3999], area: '3' },
	queensland: { postal: [4000, 4999], area: '7' },
	'south australia': { postal: [5000, 5799], area: '8' },
	'western australia': { postal: [6000, 6797], area: '8' },
	tasmania: { postal: [7000, 7799], area: '3' },
	'northern territory': { postal: [800, 899], area: '8' },
};
const COUNTRY_CODES: Record<string, string> = { DE: '49', GB: '44', FR: '33', AU: '61' };

const localCity = (city: City) => CITIES[city.iso2]?.[city.name];
const auState = (city: City) =>
	city.iso2 === 'AU' ? AU_STATES[normalize(city.region)] : undefined;

const usCity = (city: City) => US_CITIES[`${city.name}, ${city.regionCode}`];
const province = (city: City) => CANADA[normalize(city.region)];

/** The first of `attempts` drawn candidates that libphonenumber accepts as valid. */
function firstValid(attempts: number, draw: () => string | undefined): string | undefined {
	for (let attempt = 0; attempt < attempts; attempt++) {
		const candidate = draw();
		if (candidate && phoneLib().parsePhoneNumberFromString(candidate)?.isValid()) return candidate;
	}
	return undefined;
}

/**
 * A phone number of the city's own area, in E.164: North American area codes by city, state or
 * province, landlines of the larger cities and Australian states in the tables above; undefined
 * where no table covers the city (the caller then draws a number valid for the country).
 */
export function localPhone(city: City, rng: Rng): string | undefined {
	const northAmerican =
		city.iso2 === 'US' && city.regionCode
			? (usCity(city)?.areaCodes ?? US_AREA_CODES[city.regionCode])
			: city.iso2 === 'CA'
				? province(city)?.areaCodes
				: undefined;
	if (northAmerican)
		return firstValid(20, () => {
			const exchange = rng.int(200, 999);
			// N11 exchanges are service numbers.
			return exchange % 100 === 11
				? undefined
				: `+1${rng.pick(northAmerican)}${exchange}${rng.digits(4)}`;
		});
	const areas = localCity(city)?.area ?? (auState(city) ? [auState(city)!.area] : undefined);
	const cc = COUNTRY_CODES[city.iso2];
	if (!areas || !cc) return undefined;
	return firstValid(
		30,
		() => `+${cc}${rng.pick(areas)}${rng.int(2, 9)}${rng.digits(rng.int(5, 8) - 1)}`,
	);
}

/**
 * A postal code of the city: its own or its state's (US), its province's (Canada), the larger
 * cities' of Germany, the UK and France, the state's range (Australia), else a per-city prefix.
 */
export function postalCodeOf(city: City, rng: Rng, generic: (rng: Rng) => string): string {
	if (city.iso2 === 'US' && city.regionCode) {
		const own = usCity(city)?.zip;
		const ranges = US_ZIP_PREFIXES[city.regionCode];
		const prefix = own
			? rng.pick(own)
			: ranges
				? (([low, high]) => rng.int(low, high))(rng.pick(ranges))
				: undefined;
		if (prefix !== undefined) return `${String(prefix).padStart(3, '0')}${rng.digits(2)}`;
	}
	if (city.iso2 === 'CA') {
		const letters = province(city)?.letters;
		const code = generic(rng);
		if (letters) return `${rng.pick([...letters])}${code.slice(1)}`;
		return code;
	}
	const local = localCity(city);
	if (local) {
		const prefix = rng.pick(local.postal);
		if (city.iso2 === 'GB') return `${prefix}${rng.int(1, 9)} ${generic(rng).split(' ')[1]}`;
		if (city.iso2 === 'FR' && prefix === '750')
			return `750${String(rng.int(1, 20)).padStart(2, '0')}`;
		return `${prefix}${rng.digits(5 - prefix.length)}`;
	}
	const state = auState(city);
	if (state) return String(rng.int(state.postal[0], state.postal[1])).padStart(4, '0');
	// Elsewhere: the city's own prefix (drawn once per city) on the country's format.
	const cityCode = generic(new Rng(`postal:${city.id}`));
	const code = generic(rng);
	const keep = Math.ceil(cityCode.replace(/\s/g, '').length / 2);
	return cityCode.slice(0, keep) + code.slice(keep);
}
