// Builds the standalone reference server: one CommonJS bundle (dist/lead-inbox-mock-server, the
// bin; extensionless like most bins, which also keeps linters off generated code) of the TypeScript
// sources, fastify and zod, so it starts fast with no TypeScript and no tsx at run time. Large data
// modules, the mail clients and the scanner's HTTP client stay separate packages, required on first
// use (every thread parses the bundle); better-sqlite3 is native, and swagger-ui-dist's files are
// served from its package folder.
'use strict';
const { build } = require('esbuild');
const { chmodSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const EXTERNAL = [
	'better-sqlite3',
	'swagger-ui-dist',
	'city-timezones',
	'libphonenumber-js',
	'imapflow',
	'nodemailer',
	'undici',
];

(async () => {
	const dist = join(__dirname, 'dist');
	rmSync(dist, { recursive: true, force: true });
	const out = join(dist, 'lead-inbox-mock-server');
	await build({
		entryPoints: [join(__dirname, 'src', 'cli.cts')],
		outfile: out,
		bundle: true,
		platform: 'node',
		target: 'node20',
		format: 'cjs',
		external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
		resolveExtensions: ['.cts', '.ts', '.cjs', '.js', '.json'],
		// Tells the code it runs from the bundle (core/threads.cts): threads then run this file.
		define: { SERVER_BUNDLE: 'true' },
		legalComments: 'linked',
		logLevel: 'warning',
	});
	chmodSync(out, 0o755);
})().catch((error) => {
	process.stderr.write(`${error.message}\n`);
	process.exit(1);
});
