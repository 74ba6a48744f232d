import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { N8nNotFound, resolveN8n } from '../../n8n-testkit/src/n8n/install.cjs';
import { withTempDir } from '../helpers/temp-dir.cjs';

/**
 * A broken n8n install is named in one line before anything waits on n8n: its database driver
 * (sqlite3, native) is loaded on the Node that would run n8n, as n8n loads it.
 */
describe('an installed n8n given to the runner', () => {
	const fakeInstall = (dir: string, sqlite3: string) => {
		const modules = join(dir, 'node_modules');
		mkdirSync(join(modules, 'n8n', 'bin'), { recursive: true });
		writeFileSync(
			join(modules, 'n8n', 'package.json'),
			JSON.stringify({ name: 'n8n', version: '2.40.7' }),
		);
		writeFileSync(join(modules, 'n8n', 'bin', 'n8n'), '');
		mkdirSync(join(modules, 'sqlite3'));
		writeFileSync(
			join(modules, 'sqlite3', 'package.json'),
			JSON.stringify({ name: 'sqlite3', main: 'index.js' }),
		);
		writeFileSync(join(modules, 'sqlite3', 'index.js'), sqlite3);
	};

	it('whose sqlite3 was never built is refused at once, saying so and how to build it', async () => {
		await withTempDir('n8n-install-', async (dir) => {
			// What the bindings package throws when npm ran no install script for sqlite3.
			fakeInstall(
				dir,
				"throw new Error('Could not locate the bindings file. Tried:\\n → ' + __dirname + '/build/node_sqlite3.node');",
			);
			const refused = resolveN8n(dir).catch((error: Error) => error);
			const error = (await refused) as Error;
			expect(error).toBeInstanceOf(N8nNotFound);
			expect(error.message).toBe(
				`n8n 2.40.7 at ${join(dir, 'node_modules', 'n8n')} cannot open its database: sqlite3 is not built for Node ${process.versions.node} (Could not locate the bindings file. Tried:). Build it with that Node: cd ${dir} && npm rebuild sqlite3 (npm 12 runs no install script that package.json's "allowScripts" does not allow: add "sqlite3": true there), or give --n8n a version to install (e.g. --n8n 2.40.7)`,
			);
		});
	});

	it('whose sqlite3 loads is taken', async () => {
		await withTempDir('n8n-install-', async (dir) => {
			fakeInstall(dir, 'module.exports = {};');
			expect(await resolveN8n(dir)).toMatchObject({ version: '2.40.7' });
		});
	});
});
