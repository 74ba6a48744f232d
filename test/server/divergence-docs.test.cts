import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { KINDS } from '../../mock-server/src/proxy/index.cjs';

/*
 * The divergence report quotes this server's rules for the open points from docs/api.md and links
 * the section: each quote must stand in that section, word for word (Markdown's backticks and line
 * breaks aside), so the report never quotes a rule the docs do not hold.
 */

const API_DOCS = readFileSync(join(__dirname, '../../docs/api.md'), 'utf8');

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
	heading
		.toLowerCase()
		.replace(/[^\p{L}\p{N} _-]/gu, '')
		.replace(/ /g, '-');

/** Each section's text by anchor, up to the next heading of its level or above. */
function sections(markdown: string): Map<string, string> {
	const found = new Map<string, string>();
	const lines = markdown.split('\n');
	lines.forEach((line, i) => {
		const heading = /^(#+)\s+(.*)$/.exec(line);
		if (!heading) return;
		const level = heading[1].length;
		const end = lines.findIndex(
			(l, j) => j > i && /^(#+)\s/.test(l) && /^(#+)/.exec(l)![1].length <= level,
		);
		found.set(slug(heading[2]), lines.slice(i + 1, end < 0 ? undefined : end).join('\n'));
	});
	return found;
}

const plain = (text: string) => text.replace(/`/g, '').replace(/\s+/g, ' ');

describe("the report's quotes of this server's rules", () => {
	const bySection = sections(API_DOCS);

	it.each(
		Object.entries(KINDS)
			.filter(([, kind]) => 'decision' in kind)
			.map(
				([name, kind]) =>
					[name, (kind as { decision: { words: string; section: string } }).decision] as const,
			),
	)('%s: quoted word for word from its section of docs/api.md', (_, decision) => {
		expect([...bySection.keys()]).toContain(decision.section);
		expect(plain(bySection.get(decision.section)!)).toContain(plain(decision.words));
	});

	it('every open point names a rule, and only open points do', () => {
		for (const [name, kind] of Object.entries(KINDS))
			expect([name, 'decision' in kind]).toEqual([name, kind.class === 'open-point']);
	});
});
