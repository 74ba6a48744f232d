import { normalize } from './cities.cjs';
import { NICHE_TABLE } from './niche-data.cjs';

export interface Niche {
	id: string;
	name: string;
	categories: string[];
	perHundredThousand: number;
}

const BY_TERM = new Map<string, Niche>();

function singular(term: string): string {
	return term
		.split(' ')
		.map((w) =>
			w.length > 4 && w.endsWith('ies')
				? `${w.slice(0, -3)}y`
				: w.length > 3 && w.endsWith('s') && !w.endsWith('ss')
					? w.slice(0, -1)
					: w,
		)
		.join(' ');
}

for (const line of NICHE_TABLE.trim().split('\n')) {
	const [name, synonyms, categories, rate] = line.split('|');
	const niche: Niche = {
		id: normalize(name).replace(/ /g, '-'),
		name,
		categories: categories.split(';'),
		perHundredThousand: Number(rate),
	};
	for (const term of [name, ...synonyms.split(','), ...niche.categories]) {
		const key = normalize(term);
		if (!key) continue;
		if (!BY_TERM.has(key)) BY_TERM.set(key, niche);
		if (!BY_TERM.has(singular(key))) BY_TERM.set(singular(key), niche);
	}
}

/** A niche by its name, a synonym or a category, in singular or plural, case and accents ignored. */
export function resolveNiche(input: string): Niche | undefined {
	const key = normalize(input);
	return BY_TERM.get(key) ?? BY_TERM.get(singular(key));
}
