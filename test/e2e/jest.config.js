/**
 * The end-to-end suite: the real n8n apps (2.8.4 on Node 20, 2.40.7 on Node 24) with the packed
 * package, the reference server and Debian's Chromium. Run with `npm run test:e2e`.
 * @type {import('jest').Config}
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	// E2E_ONLY=<name> runs one file (test/github's run of the CI job: the whole suite runs in .ci/run).
	testMatch: [`**/${process.env.E2E_ONLY ?? '*'}.e2e.cts`],
	moduleFileExtensions: ['cts', 'ts', 'cjs', 'js', 'json'],
	moduleNameMapper: { '^(\\.{1,2}/.*)\\.cjs$': '$1' },
	transform: {
		'^.+\\.c?ts$': ['ts-jest', { tsconfig: 'mock-server/tsconfig.json', diagnostics: false }],
	},
	testTimeout: 10 * 60 * 1000,
	maxWorkers: 1,
	// The n8n apps are stopped in afterAll; their stdio pipes can keep jest waiting after the last test.
	forceExit: true,
};
