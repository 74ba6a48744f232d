// Builds the nodes package (./dist) only when it is missing or older than its sources: `npm test`
// and the suites that pack ./dist call it first. A build removes ./dist before writing it, so two
// side by side would race with each other and with a suite reading ./dist: .ci/run builds once
// before its suites start and every later call finds ./dist up to date; a developer who changed a
// node gets a build. "Up to date": ./dist/.sources-stamp (written after a build) is newer than
// every file of nodes/, credentials/, package.json and tsconfig.json.
'use strict';
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const ROOT = join(__dirname, '..');
const STAMP = join(ROOT, 'dist', '.sources-stamp');

/** The newest modification time of a file or of any file under a folder. */
function newest(path) {
	const stat = statSync(path, { throwIfNoEntry: false });
	if (!stat) return 0;
	if (!stat.isDirectory()) return stat.mtimeMs;
	return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const sources = Math.max(
	...['nodes', 'credentials', 'package.json', 'tsconfig.json'].map((p) => newest(join(ROOT, p))),
);
if (!existsSync(STAMP) || statSync(STAMP).mtimeMs < sources) {
	execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
	writeFileSync(STAMP, `${new Date().toISOString()}\n`);
}
