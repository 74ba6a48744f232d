/**
 * The GitHub Actions jobs, run as a runner runs them (npm run test:github): a fresh clone, a fresh
 * HOME, only what each workflow installs. Minutes per job: not part of npm test.
 * @type {import('jest').Config}
 */
module.exports = {
	rootDir: '../..',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/github'],
	testMatch: ['**/*.github.cts'],
	moduleFileExtensions: ['cts', 'ts', 'cjs', 'js', 'json'],
	moduleNameMapper: { '^(\\.{1,2}/.*)\\.cjs$': '$1' },
	transform: {
		'^.+\\.c?ts$': ['ts-jest', { tsconfig: 'mock-server/tsconfig.json', diagnostics: false }],
	},
	testTimeout: 60 * 60 * 1000,
	maxWorkers: 1,
};
