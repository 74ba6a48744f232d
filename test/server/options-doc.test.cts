import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { optionsTable, usage } from '../../mock-server/src/core/config.cjs';

/*
 * Each server option is described once (OPTIONS in core/config.cts); the README's table and the
 * usage text are made from it. UPDATE_README=1 rewrites the README's table.
 */
const README = join(__dirname, '../../mock-server/README.md');
const TABLE = /(<!-- The table is made from[^\n]*-->\n)((?:\|[^\n]*\n?)+)/;

describe("the server's options, described once", () => {
	it("mock-server/README.md's table is the options' own description", () => {
		const text = readFileSync(README, 'utf8');
		const match = TABLE.exec(text);
		if (!match) throw new Error('mock-server/README.md has no options table after its marker');
		const expected = `${optionsTable()}\n`;
		if (process.env.UPDATE_README === '1' && match[2] !== expected)
			writeFileSync(README, text.replace(TABLE, `$1${expected}`));
		else expect(match[2]).toBe(expected);
	});

	it('the usage text lists every flag with its variable and default', () => {
		const text = usage();
		for (const line of optionsTable().split('\n').slice(2)) {
			const [flag, variable] = line
				.split('|')
				.slice(1, 3)
				.map((cell) => cell.trim().replace(/`/g, ''));
			expect(text).toMatch(new RegExp(`^  ${flag} +${variable} `, 'm'));
		}
		expect(text).toContain('(default 4010)');
		expect(text).toContain('(generated, stable per database)');
	});
});
