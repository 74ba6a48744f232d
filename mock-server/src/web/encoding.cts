import zlib from 'node:zlib';
import { Rng } from '../core/random.cjs';

/**
 * How the synthetic web compresses what it sends, as real websites do: most compress their pages
 * (Brotli or gzip, chosen by what the client accepts), a few send them as they are. Each site's
 * choice is derived from its host name alone (a random stream of its own, so the rest of its
 * profile stays what it was), and the tag manager's host compresses like Google's.
 *
 * Why it matters beyond realism: the scanner sends a thousand requests at once and reads the
 * answers a few at a time; each answer waiting to be read holds what its socket delivered. At
 * 15-90 KiB a page that was 50-70 MiB in a scanner during a burst of searches; compressed it is a
 * twentieth (bench/README.md, "The helpers' own bundle").
 */
export type Encoding = 'br' | 'gzip' | 'identity';

/** The encodings a site offers, best first: what the client accepts decides among them. */
export function siteEncodings(host: string): Encoding[] {
	const r = new Rng(`encoding:${host.toLowerCase()}`).next();
	if (r < 0.6) return ['br', 'gzip'];
	if (r < 0.85) return ['gzip'];
	return [];
}

/** Google's tag manager answers with Brotli or gzip, whichever the client accepts. */
export const TAG_MANAGER_ENCODINGS: Encoding[] = ['br', 'gzip'];

/**
 * The first of `offered` that the Accept-Encoding header allows (a `q=0` refuses one), or
 * identity. Enough of RFC 9110's negotiation for the clients the synthetic web sees: `*` accepts
 * any, and a coding named with q=0 is refused even under `*`.
 */
export function negotiate(offered: Encoding[], acceptEncoding: string | undefined): Encoding {
	if (!acceptEncoding || offered.length === 0) return 'identity';
	const weights = new Map<string, number>();
	for (const part of acceptEncoding.toLowerCase().split(',')) {
		const [name, ...params] = part.trim().split(';');
		const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
		weights.set(name.trim(), q === undefined ? 1 : Number(q));
	}
	const accepted = (coding: Encoding) => {
		const weight = weights.get(coding) ?? weights.get('*');
		return weight !== undefined && weight > 0;
	};
	return offered.find(accepted) ?? 'identity';
}

/**
 * The bytes as sent in `encoding`, at the fastest settings (Brotli quality 1, gzip level 1): the
 * synthetic web shares the machine's cores with the scanners, and a page costs about half as much
 * again to compress as to render (Brotli 0.07 ms, gzip 0.15 ms, rendering 0.18 ms for 54 KiB). The
 * synthetic pages compress to 6-7 % either way.
 */
export function encode(bytes: Buffer, encoding: Encoding): Buffer {
	switch (encoding) {
		case 'br':
			return zlib.brotliCompressSync(bytes, {
				params: {
					[zlib.constants.BROTLI_PARAM_QUALITY]: 1,
					// 256 KiB: the largest page or container fits, and a decoder needs no more.
					[zlib.constants.BROTLI_PARAM_LGWIN]: 18,
					[zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
				},
			});
		case 'gzip':
			// An 8 KiB window and a small hash table: zlib's state then stays under the 64 KiB from
			// which the helpers' allocator maps memory afresh (core/helpers.cts), which doubled the
			// time of each call (0.29 ms a page instead of 0.15), for 7 % of the size instead of 6.
			return zlib.gzipSync(bytes, { level: 1, windowBits: 13, memLevel: 5 });
		case 'identity':
			return bytes;
	}
}
