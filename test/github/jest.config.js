/**
 * The GitHub Actions jobs, run as a runner runs them (npm run test:github): a fresh clone, a fresh
 * HOME, only what each workflow installs. Minutes per job: not part of npm test.
 */
module.exports = require('../jest-suite.cjs')('github', '**/*.github.cts', {
	testTimeout: 60 * 60 * 1000,
});
