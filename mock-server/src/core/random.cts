/**
 * Deterministic randomness for the synthetic data: the same seed string always gives the same
 * sequence, so the same business, website and container come back on every run.
 */
export function hash32(text: string): number {
	let h = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		h ^= text.charCodeAt(i);
		h = Math.imul(h, 0x01000193);
	}
	return h >>> 0;
}

export class Rng {
	private state: number;

	constructor(seed: string | number) {
		this.state = typeof seed === 'number' ? seed >>> 0 : hash32(seed);
	}

	/** mulberry32: fast, good enough for test data. */
	next(): number {
		let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	}

	int(min: number, max: number): number {
		return min + Math.floor(this.next() * (max - min + 1));
	}

	chance(p: number): boolean {
		return this.next() < p;
	}

	pick<T>(items: readonly T[]): T {
		return items[Math.floor(this.next() * items.length)];
	}

	chars(alphabet: string, length: number): string {
		let out = '';
		for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.next() * alphabet.length)];
		return out;
	}

	digits(length: number): string {
		return this.chars('0123456789', length);
	}
}
