/**
 * The container image suite (npm run test:image): builds mock-server/Dockerfile with podman on a
 * local base (test/image/base.sh) and runs it as a user would.
 * @type {import('jest').Config}
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/image'],
	testMatch: ['**/*.image.cts'],
	moduleFileExtensions: ['cts', 'ts', 'cjs', 'js', 'json'],
	moduleNameMapper: { '^(\\.{1,2}/.*)\\.cjs$': '$1' },
	transform: {
		'^.+\\.c?ts$': ['ts-jest', { tsconfig: 'mock-server/tsconfig.json', diagnostics: false }],
	},
	testTimeout: 5 * 60 * 1000,
	maxWorkers: 1,
};
