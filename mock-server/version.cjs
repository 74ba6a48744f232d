// Run by npm when the root package's version changes (`npm version`, as n8n-node release does):
// the reference server's package takes the same version, so one tag releases both (publish.yml
// checks each against the tag).
'use strict';
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const version = process.env.npm_package_version;
if (!version) throw new Error('run through npm version: npm_package_version is not set');
const file = join(__dirname, 'package.json');
const text = readFileSync(file, 'utf8');
const pkg = JSON.parse(text);
if (pkg.version !== version) {
	pkg.version = version;
	writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
	process.stdout.write(`mock-server/package.json: version ${version}\n`);
}
