// Builds the runner's package: one CommonJS bundle of the TypeScript sources with yaml
// (dist/n8n-testkit-api: the API and the command), the bin that runs it (dist/n8n-testkit); both
// extensionless like most bins, which also keeps linters (n8n-node lint at the root) off generated
// code; the clock n8n's processes load (dist/n8n-clock.cjs: plain JavaScript run on
// n8n's own Node) and the API's type declarations (dist/types). zod, @peculiar/x509 and cron stay
// packages of their own (dependencies): a service simulator builds its fields with zod, and the
// declarations name its types; cron's luxon would make the bundle's source two bytes per character
// in V8. Built into a folder of its own and swapped into place, so a suite packing the
// package beside a test building it never sees half a dist/.
'use strict';
const { build } = require('esbuild');
const ts = require('typescript');
const {
	chmodSync,
	copyFileSync,
	mkdirSync,
	renameSync,
	rmSync,
	writeFileSync,
} = require('node:fs');
const { join } = require('node:path');

const src = join(__dirname, 'src');
const target = join(__dirname, 'dist');
const dist = join(__dirname, `.dist-building-${process.pid}`);

/** The API's declarations (src/index.cts and what it reaches), into dist/types. */
function declarations() {
	const program = ts.createProgram([join(src, 'index.cts')], {
		declaration: true,
		emitDeclarationOnly: true,
		strict: true,
		module: ts.ModuleKind.Node16,
		moduleResolution: ts.ModuleResolutionKind.Node16,
		target: ts.ScriptTarget.ES2022,
		skipLibCheck: true,
		types: ['node'],
		rootDir: src,
		outDir: join(dist, 'types'),
	});
	const result = program.emit();
	if (result.emitSkipped || result.diagnostics.length)
		throw new Error(ts.formatDiagnostics(result.diagnostics, ts.createCompilerHost({})));
}

function swapIntoPlace() {
	const old = join(__dirname, `.dist-old-${process.pid}`);
	rmSync(old, { recursive: true, force: true });
	try {
		renameSync(target, old);
	} catch (error) {
		if (error.code !== 'ENOENT') throw error;
	}
	renameSync(dist, target);
	rmSync(old, { recursive: true, force: true });
}

(async () => {
	rmSync(dist, { recursive: true, force: true });
	mkdirSync(dist, { recursive: true });
	await build({
		entryPoints: [join(src, 'index.cts')],
		outfile: join(dist, 'n8n-testkit-api'),
		bundle: true,
		platform: 'node',
		target: 'node22',
		format: 'cjs',
		external: ['@peculiar/x509', 'cron', 'zod'],
		resolveExtensions: ['.cts', '.ts', '.cjs', '.js', '.json'],
		legalComments: 'linked',
		logLevel: 'warning',
	});
	writeFileSync(
		join(dist, 'n8n-testkit'),
		"#!/usr/bin/env node\n'use strict';\nrequire('./n8n-testkit-api')\n\t.main(process.argv.slice(2))\n\t.then((code) => (process.exitCode = code));\n",
	);
	chmodSync(join(dist, 'n8n-testkit'), 0o755);
	copyFileSync(join(src, 'clock', 'n8n-clock.cjs'), join(dist, 'n8n-clock.cjs'));
	declarations();
	swapIntoPlace();
})().catch((error) => {
	rmSync(dist, { recursive: true, force: true });
	process.stderr.write(`${error.message}\n`);
	process.exit(1);
});
