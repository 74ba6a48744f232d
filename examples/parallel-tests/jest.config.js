/**
 * One reference server for the whole suite, shared by parallel workers: each test makes an
 * account of its own, so faults, checks and resets never reach another test (see the server's
 * README, "Parallel tests"). Copy this folder into your project and drop the two lines marked
 * "this repository only".
 * @type {import('jest').Config}
 */
module.exports = {
	testEnvironment: 'node',
	rootDir: __dirname,
	testMatch: ['<rootDir>/*.test.js'],
	maxWorkers: 4,
	globalSetup: '<rootDir>/global-setup.js',
	globalTeardown: '<rootDir>/global-teardown.js',
	testTimeout: 30000,
	// This repository only: the package is its own sources here; your project installs it instead.
	moduleNameMapper: {
		'^lead-inbox-mock-server$': '<rootDir>/../../mock-server/src/api/admin-client.cts',
		'^(\\.{1,2}/.*)\\.cjs$': '$1',
	},
	transform: {
		'^.+\\.cts$': [
			'ts-jest',
			{ tsconfig: '<rootDir>/../../mock-server/tsconfig.json', diagnostics: false },
		],
	},
};
