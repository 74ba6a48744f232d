/*
 * The trigger remembers each inbox or pool by a 48-bit key made from its ID, not by the ID: IDs
 * are long (a UUID is 36 characters), and n8n saves the trigger's memory with the workflow after
 * every check that changed it. Keys, sorted and written as the gaps between them, take about 7
 * characters each at 50,000 inboxes (bench/README.md).
 *
 * What a key costs: two IDs may share one. A new inbox whose key equals one already remembered is
 * taken for that one and not announced; with n remembered, the chance for each new inbox is
 * n / 2^48 (1 in 5.6 billion at 50,000). The README says so.
 */

/** A 48-bit key of an ID: two independent 32-bit multiply-xorshift lanes, mixed at the end. */
export function keyOf(id: string): number {
	let a = 0x9e3779b9 ^ id.length;
	let b = 0x7f4a7c15;
	for (let i = 0; i < id.length; i++) {
		const code = id.charCodeAt(i);
		a = Math.imul(a ^ code, 0x5bd1e995);
		a ^= a >>> 15;
		b = Math.imul(b ^ code, 0x27d4eb2f);
		b ^= b >>> 13;
	}
	a = Math.imul(a ^ (b >>> 16), 0x85ebca6b);
	a ^= a >>> 13;
	b = Math.imul(b ^ (a >>> 15), 0xc2b2ae35);
	b ^= b >>> 16;
	return (b & 0xffff) * 0x1_0000_0000 + (a >>> 0);
}

/*
 * Sorted keys are written as the gaps between them, each in base 32, most significant digit
 * first: a digit from MORE when more digits of the same gap follow, from LAST for its last digit.
 * No separators, nothing JSON must escape.
 */
const MORE = '0123456789abcdefghijklmnopqrstuv';
const LAST = 'wxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-';
const DIGIT = new Map([...MORE].map((c, i) => [c, { value: i, last: false }]));
for (const [i, c] of [...LAST].entries()) DIGIT.set(c, { value: i, last: true });

export function encodeKeys(keys: number[]): string {
	const sorted = [...new Set(keys)].sort((x, y) => x - y);
	const parts: string[] = [];
	let previous = 0;
	for (const key of sorted) {
		let gap = key - previous;
		previous = key;
		let digits = LAST[gap % 32];
		gap = Math.floor(gap / 32);
		while (gap > 0) {
			digits = MORE[gap % 32] + digits;
			gap = Math.floor(gap / 32);
		}
		parts.push(digits);
	}
	return parts.join('');
}

/** The keys of an encoded string; undefined when it is not one (a damaged record). */
export function decodeKeys(encoded: string): number[] | undefined {
	const keys: number[] = [];
	let previous = 0;
	let gap = 0;
	let open = false;
	for (const c of encoded) {
		const digit = DIGIT.get(c);
		if (!digit) return undefined;
		gap = gap * 32 + digit.value;
		open = !digit.last;
		if (digit.last) {
			previous += gap;
			keys.push(previous);
			gap = 0;
		}
	}
	return open ? undefined : keys;
}
