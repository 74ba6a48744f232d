/**
 * The container image suite (npm run test:image): builds the Dockerfile's mock-server target with podman on a
 * local base (test/image/base.sh) and runs it, and the compose stack's server half, as a user would.
 */
module.exports = require('../jest-suite.cjs')('image', '**/*.image.cts', {
	testTimeout: 5 * 60 * 1000,
});
