/**
 * The compose suite (npm run test:compose): compose.yaml and compose.queue.yaml run whole under
 * podman-compose, from a fresh copy of the work tree, on local stand-ins for the official n8n,
 * PostgreSQL and Redis images (test/compose/official-images.sh).
 */
module.exports = require('../jest-suite.cjs')('compose', '**/*.compose.cts', {
	testTimeout: 10 * 60 * 1000,
});
