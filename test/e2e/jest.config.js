/**
 * The end-to-end suite: the real n8n apps (1.123.81 on Node 20, 2.8.4 on 22, 2.40.7 on 24) with
 * the packed package, the reference server and Debian's Chromium. Run with `npm run test:e2e`.
 * E2E_ONLY=<name> runs one file (test/github's run of the CI job: the whole suite runs in .ci/run).
 */
module.exports = require('../jest-suite.cjs')('e2e', `**/${process.env.E2E_ONLY ?? '*'}.e2e.cts`, {
	testTimeout: 10 * 60 * 1000,
	// Files side by side (each with its own n8n folders, ports and packed tarball): much of a
	// file's time is n8n's own waiting (trigger polls a minute apart, start-ups), not CPU. Two by
	// default; .ci/run, where this suite is the longest path, runs three (E2E_WORKERS).
	maxWorkers: Number(process.env.E2E_WORKERS ?? 2),
	testSequencer: require.resolve('./longest-first.cjs'),
	// The n8n apps are stopped in afterAll; their stdio pipes can keep jest waiting after the last test.
	forceExit: true,
});
