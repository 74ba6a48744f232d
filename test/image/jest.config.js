/**
 * The container image suite (npm run test:image): builds the Dockerfile's mock-server target with
 * podman on a local base (test/image/base.sh) and runs it as a user would. The compose stacks have
 * a suite of their own (test/compose).
 */
module.exports = require('../jest-suite.cjs')('image', '**/*.image.cts', {
	testTimeout: 5 * 60 * 1000,
});
