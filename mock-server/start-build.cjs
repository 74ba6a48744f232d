// `npm start` (package.json): builds the bundle (build.cjs) when it is missing or older than a
// source, then the start script runs it, as the published bin runs. Run from the TypeScript sources
// through tsx, a burst of large searches peaked 35-50 MiB higher (tsx's loader in the server and in
// each helper process, and tsx's own process beside them: bench/README.md, issue 62), and an idle
// server held 60 MiB more. A build takes about 5 s; an unchanged checkout starts at once.
'use strict';
const { execFileSync } = require('node:child_process');
const { readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

/** The newest modification time of the files below `path` (or of `path`), in ms. */
function newest(path) {
	const stat = statSync(path);
	if (!stat.isDirectory()) return stat.mtimeMs;
	return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), 0);
}

/** Builds a package's dist/ when `output` is missing or older than one of its inputs. */
function buildIfStale(folder, output, what) {
	let built = 0;
	try {
		built = statSync(join(folder, output)).mtimeMs;
	} catch {
		// not built yet
	}
	const inputs = ['src', 'build.cjs', 'package.json'].map((input) => join(folder, input));
	if (inputs.some((input) => newest(input) > built)) {
		process.stderr.write(`Building ${what} from its sources...\n`);
		execFileSync(process.execPath, [join(folder, 'build.cjs')], { stdio: 'inherit' });
	}
}

buildIfStale(__dirname, join('dist', 'lead-inbox-mock-server'), 'the reference server (mock-server/dist)');
// The workflow test runner (`npm start -- test`): the server's package requires it as a package.
buildIfStale(join(__dirname, '..', 'n8n-testkit'), join('dist', 'n8n-testkit-api'), 'the workflow test runner (n8n-testkit/dist)');
