import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What n8n's verification asks of the published package, checked on the sources. */
const ROOT = join(__dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

function files(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? files(path) : [path];
	});
}

/** The icons of a node's source folder, as the build copies them into dist/. */
const icons = (folder: string) =>
	readdirSync(join(ROOT, folder))
		.filter((f) => f.endsWith('.svg'))
		.map((f) => `dist/${folder}/${f}`);

describe('the community-node package', () => {
	it('has no runtime dependencies and n8n-workflow as its only peer', () => {
		expect(pkg.dependencies ?? {}).toEqual({});
		expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
		expect(pkg.main).toBeUndefined();
		expect(pkg.scripts).toEqual(
			expect.objectContaining({ dev: 'n8n-node dev', release: 'n8n-node release' }),
		);
		expect(pkg.keywords).toContain('n8n-community-node-package');
		expect(pkg.license).toBe('MIT');
	});

	it('lists the five nodes and the credential, each with its codex and light and dark icons', () => {
		expect(pkg.n8n.nodes).toEqual([
			'dist/nodes/FetchLeads/FetchLeads.node.js',
			'dist/nodes/ListPools/ListPools.node.js',
			'dist/nodes/ListInboxes/ListInboxes.node.js',
			'dist/nodes/CreateInboxes/CreateInboxes.node.js',
			'dist/nodes/LeadInboxTrigger/LeadInboxTrigger.node.js',
		]);
		expect(pkg.n8n.credentials).toEqual(['dist/credentials/LeadInboxApi.credentials.js']);
		for (const entry of pkg.n8n.nodes as string[]) {
			const folder = join(ROOT, entry.replace(/^dist\//, '').replace(/\/[^/]+$/, ''));
			const name = entry.split('/').pop()!.replace('.node.js', '');
			const codex = JSON.parse(readFileSync(join(folder, `${name}.node.json`), 'utf8'));
			expect(codex.node).toBe(`n8n-nodes-lead-inbox.${name[0].toLowerCase()}${name.slice(1)}`);
			expect(codex.categories.length).toBeGreaterThan(0);
			const icons = readdirSync(folder).filter((f) => f.endsWith('.svg'));
			expect(icons.some((f) => f.endsWith('.dark.svg'))).toBe(true);
			expect(icons.length).toBe(2);
		}
	});

	it('describes each node for a person in the nodes panel and for a model alike: no tool-only wording, what a paid or limited call costs and answers', () => {
		// n8n gives a tool the node's own description at run time (its node-types.js on 1.123, 2.8
		// and 2.40): usableAsTool.replacements would reach only the editor's list, not the model.
		const described: Record<string, string> = {};
		for (const entry of pkg.n8n.nodes as string[]) {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const module = require(join(ROOT, entry));
			const { description } = new (Object.values(module)[0] as new () => any)();
			expect([description.name, typeof description.usableAsTool]).not.toEqual([
				description.name,
				'object',
			]);
			described[description.name] = description.description;
		}
		for (const [name, text] of Object.entries(described))
			expect([name, text]).not.toEqual([name, expect.stringMatching(/\bas a tool\b/i)]);
		expect(described.fetchLeads).toMatch(/one credit per new lead.*Answers with the leads/i);
		expect(described.createInboxes).toMatch(/1000 per hour.*Answers with the inboxes created/);
	});

	it('packs only what n8n loads: the built nodes and credential, README, licence, package.json', () => {
		const report = JSON.parse(
			// npm test has built it: its prepack (the same build) is not run again.
			execFileSync('npm', ['pack', '--dry-run', '--json', '--silent', '--ignore-scripts'], {
				cwd: ROOT,
				encoding: 'utf8',
			}),
		);
		// npm 11 answers a list of packages, npm 12 an object by package name.
		const [packed] = Array.isArray(report) ? report : Object.values(report);
		const paths = (packed.files as { path: string }[]).map((f) => f.path);
		// Everything n8n loads is in it: each node and the credential, their codex files and icons
		// (an empty dist/, say a pack before the build, fails here; run npm run build first).
		const loaded = [...pkg.n8n.nodes, ...pkg.n8n.credentials].flatMap((entry: string) => {
			const folder = entry.replace(/\/[^/]+$/, '');
			const name = entry
				.split('/')
				.pop()!
				.replace(/\.(node|credentials)\.js$/, '');
			return entry.endsWith('.node.js')
				? [entry, `${folder}/${name}.node.json`, ...icons(folder.replace(/^dist\//, ''))]
				: [entry];
		});
		expect(loaded.filter((path: string) => !paths.includes(path))).toEqual([]);
		for (const path of paths)
			expect([
				path,
				/^(README\.md|LICENSE\.md|package\.json|dist\/(nodes|credentials)\/.+\.(js|json|svg))$/.test(
					path,
				),
			]).toEqual([path, true]);
	});

	it('imports nothing but n8n-workflow and its own files', () => {
		const sources = [...files(join(ROOT, 'nodes')), ...files(join(ROOT, 'credentials'))].filter(
			(f) => f.endsWith('.ts'),
		);
		for (const source of sources) {
			for (const [, specifier] of readFileSync(source, 'utf8').matchAll(/from '([^']+)'/g)) {
				expect([source, specifier.startsWith('.') || specifier === 'n8n-workflow']).toEqual([
					source,
					true,
				]);
			}
		}
	});

	it('keeps the reference server and the runner out of the node package, and their dependencies in step with the repo', () => {
		const read = (folder: string) =>
			JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8'));
		const server = read('mock-server');
		const runner = read('n8n-testkit');
		expect(server.bin).toEqual({ 'lead-inbox-mock-server': 'dist/lead-inbox-mock-server' });
		expect(runner.bin).toEqual({ 'n8n-testkit': 'dist/n8n-testkit' });
		// The standalone packages pin what the repository's own tests run against; the server
		// depends on the runner of this repository, at its version (the repository links it).
		expect(server.dependencies['n8n-testkit']).toBe(runner.version);
		expect(pkg.devDependencies['n8n-testkit']).toBe('file:n8n-testkit');
		for (const [name, version] of Object.entries({
			...server.dependencies,
			...runner.dependencies,
		} as Record<string, string>))
			if (name !== 'n8n-testkit') expect([name, version]).toEqual([name, pkg.devDependencies[name]]);
	});
});
