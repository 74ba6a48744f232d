/**
 * "Did you mean" for unknown fields, mistyped mail domains and cities: the edit distance counts
 * an insertion, a deletion, a substitution or a swap of two neighbouring letters as one edit
 * (gmial -> gmail is one edit, as a reader sees it).
 */
export function editDistance(a: string, b: string): number {
	const x = a.toLowerCase();
	const y = b.toLowerCase();
	let before = new Array<number>(y.length + 1).fill(0);
	let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
	for (let i = 1; i <= x.length; i++) {
		const current = [i];
		for (let j = 1; j <= y.length; j++) {
			const cost = x[i - 1] === y[j - 1] ? 0 : 1;
			let best = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
			if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1])
				best = Math.min(best, before[j - 2] + 1);
			current.push(best);
		}
		before = previous;
		previous = current;
	}
	return previous[y.length];
}

/** The candidate nearest to `word` within `maxDistance` edits (the first one on a tie). */
export function closest(
	word: string,
	candidates: Iterable<string>,
	maxDistance: number,
): string | undefined {
	let best: string | undefined;
	let bestScore = maxDistance + 1;
	for (const candidate of candidates) {
		if (Math.abs(candidate.length - word.length) >= bestScore) continue;
		const score = editDistance(word, candidate);
		if (score < bestScore) {
			best = candidate;
			bestScore = score;
		}
	}
	return best;
}
