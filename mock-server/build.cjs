// Builds the standalone reference server: CommonJS bundles of the TypeScript sources, fastify and
// zod, so it starts fast with no TypeScript and no tsx at run time:
//   dist/lead-inbox-mock-server  the bin (extensionless like most bins, which also keeps linters off
//                                generated code);
//   dist/lead-inbox-mock-server-api and index.d.ts: the in-process API (startMockServer, also
//                                extensionless);
//   dist/lead-inbox-mock-server-helper: what the helper processes of both run (the synthetic web,
//                                the scanners), their code only;
//   dist/lead-inbox-mock-server-test: the workflow test runner (`test`), loaded only by that command.
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
	// The Schedule's firings, as n8n computes them (workflow/schedule.cts): luxon, which it brings,
	// keeps comments in other scripts that would make the bundle's source two bytes per character.
	'cron',
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
		plugins: [zodEnglishOnly],
	});
	assertAscii(join(dist, outfile));
};

/**
 * The API's type declarations, from its own files only (src/api/ writes out every type it
 * exports), joined into dist/index.d.ts. A declaration that reaches into the server's internals
 * fails the build instead of shipping a broken index.d.ts.
 */
function declarations() {
	const api = join(src, 'api');
	const files = [
		'admin-client.cts',
		'options.cts',
		'start.cts',
		'workflow-test-types.cts',
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
			.replace(/^export \{\};\n/gm, '');
		const stray = text.match(/from '(\.\.?\/[^']+)'/);
		if (stray)
			throw new Error(
				`${file}: its declarations import ${stray[1]}; write the type out in src/api/`,
			);
		return `// ${file}\n${text}`;
	});
	writeFileSync(
		join(dist, 'index.d.ts'),
		`/** lead-inbox-mock-server: the reference server, started in-process. Generated by build.cjs. */\n${parts.join('\n')}`,
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
	await bundle(join('..', '..', 'n8n-testkit', 'src', 'command.cts'), 'lead-inbox-mock-server-test');
	declarations();
	// The test files' JSON Schema (generated from runner/file/schema.cts; a test keeps it in step).
	copyFileSync(
		join(__dirname, 'workflow-test.schema.json'),
		join(dist, 'workflow-test.schema.json'),
	);
	// The test clock n8n's processes load (node --require): plain JavaScript, run on n8n's own Node.
	copyFileSync(join(__dirname, '..', 'n8n-testkit', 'src', 'clock', 'n8n-clock.cjs'), join(dist, 'n8n-clock.cjs'));
	copySwaggerUi();
	await buildDashboard();
	swapIntoPlace();
})().catch((error) => {
	rmSync(dist, { recursive: true, force: true });
	process.stderr.write(`${error.message}\n`);
	process.exit(1);
});
