// test:workflows packs the built nodes (./dist) without building them: .ci/run built them before
// its lanes start, and a build beside the e2e suite's (which removes ./dist first) would race.
// Builds only when nothing is built yet (a developer's first run).
'use strict';
const { existsSync } = require('node:fs');
const { execFileSync } = require('node:child_process');
const { join } = require('node:path');

if (!existsSync(join(__dirname, '..', '..', 'dist', 'nodes', 'FetchLeads', 'FetchLeads.node.js')))
	execFileSync('npm', ['run', 'build'], { cwd: join(__dirname, '..', '..'), stdio: 'inherit' });
