// Builds the standalone reference server: CommonJS bundles of the TypeScript sources, fastify and
// zod, so it starts fast with no TypeScript and no tsx at run time:
//   dist/lead-inbox-mock-server  the bin (extensionless like most bins, which also keeps linters off
//                                generated code);
//   dist/lead-inbox-mock-server-api and index.d.cts: the in-process API (startMockServer, also
//                                extensionless);
//   dist/lead-inbox-mock-server-helper: what the helper processes of both run (the synthetic web,
//                                the scanners), their code only;
//   dist/lead-inbox-mock-server-test: the Lead Inbox service of the workflow test runner and the
//                                `test` command (n8n-testkit's, with the service given), loaded
//                                only by that command and by n8n-testkit's bin in a project that
//                                installed this package. The runner itself is n8n-testkit, a
//                                dependency required at run time: its sources are never bundled here.
// Large data modules, the mail clients and the scanner's HTTP client stay separate packages,
// required on first use (every process parses its bundle whole). The Swagger UI files the docs page serves
// are copied into dist/docs (swagger-ui-dist is no runtime dependency: it pulls in a package with
// an install script, which npm 12 lists as blocked in every project installing the server). The
// store is Node's built-in node:sqlite: nothing native to ship. The dashboard's script and styles
// are built into dist/dashboard (Preact, htm, TanStack Virtual and uPlot bundled in: no CDN).
'use strict';
const { build } = require('esbuild');
const ts = require('typescript');
const {
	chmodSync,
	copyFileSync,
	mkdirSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} = require('node:fs');
const { dirname, join, sep } = require('node:path');

const EXTERNAL = [
	// Resolved from the sources only; the bundle serves its copy in dist/docs.
	'swagger-ui-dist',
	'city-timezones',
	'libphonenumber-js',
	'imapflow',
	'nodemailer',
	'undici',
	// The workflow test runner, a package of its own (the service and the command require it).
	'n8n-testkit',
	// The dashboard's bundler and the styles it reads: the package carries the page built (dist/dashboard).
	'esbuild',
	'uplot',
];
const src = join(__dirname, 'src');
// Built into a folder of its own, then swapped into place: a test building the bundle and a suite
// packing the package (its prepack builds) may run side by side, and neither may see a half-built
// or missing dist/ (the swap is two renames).
const target = join(__dirname, 'dist');
const dist = join(__dirname, `.dist-building-${process.pid}`);

/**
 * zod's messages in English only: its 40-odd translations were bundled too (the `locales`
 * namespace keeps them out of reach of tree-shaking), and their comments in other scripts made
 * V8 hold the whole bundle's source as a two-byte string: 5.4 MiB instead of 2.6, in the server
 * and in each helper process. The server never changes zod's locale.
 */
const zodEnglishOnly = {
	name: 'zod-english-only',
	setup(pluginBuild) {
		pluginBuild.onResolve({ filter: /^\.\.\/locales\/index\.c?js$/ }, (args) =>
			args.importer.includes(`${sep}node_modules${sep}zod${sep}`)
				? { path: join(dirname(args.importer), '..', 'locales'), namespace: 'zod-english-only' }
				: undefined,
		);
		pluginBuild.onLoad({ filter: /.*/, namespace: 'zod-english-only' }, (args) => ({
			contents: `export { default as en } from './en.js';`,
			resolveDir: args.path,
		}));
	},
};

/**
 * The runner's package entry, imported from its sources (n8n-testkit/src/index.cts: one instance in
 * tests and in the sources' runs), required as the package in the bundle.
 */
const runnerAsPackage = {
	name: 'runner-as-package',
	setup(pluginBuild) {
		pluginBuild.onResolve({ filter: /n8n-testkit\/src\/index\.cjs$/ }, () => ({
			path: 'n8n-testkit',
			external: true,
		}));
		pluginBuild.onResolve({ filter: /n8n-testkit\/src\// }, (args) => {
			throw new Error(
				`${args.importer} imports ${args.path}: the server reaches the runner through its package entry only (n8n-testkit/src/index.cts)`,
			);
		});
	},
};

/** V8 keeps a script's source one byte per character only when all of it is Latin-1. */
function assertAscii(file) {
	const text = readFileSync(file, 'utf8');
	const at = text.search(/[^\x00-\x7f]/);
	if (at >= 0)
		throw new Error(
			`${file} holds a non-ASCII character (${JSON.stringify(text.slice(Math.max(0, at - 40), at + 40))}): write it as an escape in the source, so the bundle's source stays one byte per character in V8`,
		);
}

const bundle = async (entry, outfile) => {
	await build({
		entryPoints: [join(src, entry)],
		outfile: join(dist, outfile),
		bundle: true,
		platform: 'node',
		target: 'node22',
		format: 'cjs',
		external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
		resolveExtensions: ['.cts', '.ts', '.cjs', '.js', '.json'],
		// Tells the code it runs from a bundle (core/helpers.cts): helpers then run the helper bundle.
		define: { SERVER_BUNDLE: 'true' },
		legalComments: 'linked',
		logLevel: 'warning',
		plugins: [zodEnglishOnly, runnerAsPackage],
	});
	assertAscii(join(dist, outfile));
};

/**
 * The API's type declarations, from its own files only (src/api/ writes out every type it
 * exports), joined into dist/index.d.cts (.d.cts: no linter of the nodes' takes it for theirs). A declaration that reaches into the server's internals
 * fails the build instead of shipping a broken index.d.cts.
 */
function declarations() {
	const api = join(src, 'api');
	const files = [
		'admin-client.cts',
		'options.cts',
		'start.cts',
		'workflow-tests.cts',
	];
	const program = ts.createProgram(
		files.map((file) => join(api, file)),
		{
			declaration: true,
			emitDeclarationOnly: true,
			strict: true,
			module: ts.ModuleKind.Node16,
			moduleResolution: ts.ModuleResolutionKind.Node16,
			target: ts.ScriptTarget.ES2022,
			skipLibCheck: true,
			types: ['node'],
		},
	);
	const emitted = new Map();
	const result = program.emit(undefined, (name, text) => emitted.set(name, text));
	if (result.emitSkipped || result.diagnostics.length)
		throw new Error(ts.formatDiagnostics(result.diagnostics, ts.createCompilerHost({})));
	const parts = files.map((file) => {
		const name = [...emitted.keys()].find((key) =>
			key.endsWith(`/api/${file.replace('.cts', '.d.cts')}`),
		);
		// Imports between the API's own files are dropped: their declarations are all in this one file.
		const text = emitted
			.get(name)
			.replace(/^import (type )?\{[^}]*\} from '\.\/[\w-]+\.cjs';\n/gm, '')
			// The runner's types are its package's (a dependency).
			.replace(/'(\.\.\/)+n8n-testkit\/src\/index\.cjs'/g, "'n8n-testkit'")
			// The service's module is bundled with the test command, not the API: its one option is written here.
			.replace(/^import (type )?\{[^}]*\} from '\.\.\/workflow-tests\/[\w-]+\.cjs';\n/gm, '')
			.replace(/^export \{\};\n/gm, '');
		const stray = text.match(/from '(\.\.?\/[^']+)'/);
		if (stray)
			throw new Error(
				`${file}: its declarations import ${stray[1]}; write the type out in src/api/`,
			);
		return `// ${file}\n${text}`;
	});
	// The runner's result types, as the API exports them (src/api/index.cts), from its package.
	const runnerTypes = readFileSync(join(api, 'index.cts'), 'utf8').match(
		/export type \{([^}]*)\} from '(?:\.\.\/)+n8n-testkit\/src\/index\.cjs';/,
	);
	if (!runnerTypes) throw new Error('src/api/index.cts no longer re-exports the runner types');
	writeFileSync(
		join(dist, 'index.d.cts'),
		`/** lead-inbox-mock-server: the reference server, started in-process. Generated by build.cjs. */\n${parts.join('\n')}\n// The workflow test runner's types (n8n-testkit)\nexport type {${runnerTypes[1]}} from 'n8n-testkit';\n`,
	);
}

/** The docs page's Swagger UI files (src/docs/swagger-ui-files.json), with swagger-ui's licence. */
function copySwaggerUi() {
	const from = dirname(require.resolve('swagger-ui-dist/package.json'));
	const served = Object.keys(require('./src/docs/swagger-ui-files.json'));
	mkdirSync(join(dist, 'docs'));
	for (const file of [...served, 'LICENSE', 'NOTICE'])
		copyFileSync(join(from, file), join(dist, 'docs', file));
}

/** The dashboard's script and styles (src/dashboard/ui), built once for the package. */
async function buildDashboard() {
	const { bundleDashboard } = require('./src/dashboard/ui/bundle.cjs');
	const { js, css } = await bundleDashboard();
	mkdirSync(join(dist, 'dashboard'));
	writeFileSync(join(dist, 'dashboard', 'app.js'), js);
	writeFileSync(join(dist, 'dashboard', 'app.css'), css);
}

/** The built folder in dist/'s place; another build swapping at the same moment is waited out. */
function swapIntoPlace() {
	const moved = [];
	for (let attempt = 0; ; attempt++) {
		const old = join(__dirname, `.dist-old-${process.pid}-${attempt}`);
		try {
			renameSync(target, old);
			moved.push(old);
		} catch (error) {
			if (error.code !== 'ENOENT') throw error;
		}
		try {
			renameSync(dist, target);
			break;
		} catch (error) {
			// Another build put its dist/ in place between the two renames: move it aside too.
			if (!['ENOTEMPTY', 'EEXIST'].includes(error.code) || attempt > 20) throw error;
		}
	}
	for (const old of moved) rmSync(old, { recursive: true, force: true });
}

(async () => {
	rmSync(dist, { recursive: true, force: true });
	mkdirSync(dist, { recursive: true });
	await bundle('cli.cts', 'lead-inbox-mock-server');
	chmodSync(join(dist, 'lead-inbox-mock-server'), 0o755);
	await bundle(join('api', 'index.cts'), 'lead-inbox-mock-server-api');
	await bundle('thread.cts', 'lead-inbox-mock-server-helper');
	await bundle(join('workflow-tests', 'command.cts'), 'lead-inbox-mock-server-test');
	declarations();
	// The test files' JSON Schema with the Lead Inbox service's fields (generated from n8n-testkit's
	// file/schema.cts and workflow-tests/schema.cts; a test keeps it in step).
	copyFileSync(
		join(__dirname, 'workflow-test.schema.json'),
		join(dist, 'workflow-test.schema.json'),
	);
	copySwaggerUi();
	await buildDashboard();
	swapIntoPlace();
})().catch((error) => {
	rmSync(dist, { recursive: true, force: true });
	process.stderr.write(`${error.message}\n`);
	process.exit(1);
});
