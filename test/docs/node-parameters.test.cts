import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BEGIN, END, parameterReference } from './node-parameters.cjs';

/**
 * docs/nodes.md names every parameter as an export holds it (`countMode: newLeads`, `metaAds`,
 * `spendOutput`), generated from the node descriptions: a description that changes without the
 * docs fails here (UPDATE_DOCS=1 rewrites the section).
 */
const ROOT = join(__dirname, '..', '..');
const DOCS = join(ROOT, 'docs', 'nodes.md');

it("docs/nodes.md's parameter reference is the node descriptions' (UPDATE_DOCS=1 rewrites it)", () => {
	const docs = readFileSync(DOCS, 'utf8');
	const start = docs.indexOf(BEGIN);
	const end = docs.indexOf(END);
	expect({ start: start >= 0, end: end > start }).toEqual({ start: true, end: true });
	const reference = parameterReference();
	// As the repository's Prettier lays the page out (its tables padded).
	const generated = execFileSync(
		join(ROOT, 'node_modules', '.bin', 'prettier'),
		['--stdin-filepath', DOCS],
		{ encoding: 'utf8', input: docs.slice(0, start) + reference + docs.slice(end + END.length) },
	);
	if (process.env.UPDATE_DOCS) writeFileSync(DOCS, generated);
	expect(docs).toBe(generated);
	// The names users asked for, as an export holds them.
	for (const name of [
		'`countMode`',
		'`newLeads`',
		'`options.onlyWithEmail`',
		'`metaAds`',
		'`spendOutput`',
		'`simplified`',
		'`n8n-nodes-lead-inbox.fetchLeadsTool`',
	])
		expect(reference).toContain(name);
});
