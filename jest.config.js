/**
 * Tests, the reference server and the benchmarks are CommonJS TypeScript (.cts): n8n's community
 * node lint (strict, template config) covers every *.ts file, and it is meant for the published
 * nodes and credentials only, not for code that legitimately uses node:fs, processes and timers.
 * TEST_ONLY=<name> or TEST_ONLY='{a,b}' runs only those files (test/github's run of the CI job:
 * the whole suite runs in .ci/run already).
 * @type {import('jest').Config}
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: [`**/${process.env.TEST_ONLY ?? '*'}.test.cts`],
	moduleFileExtensions: ['cts', 'ts', 'cjs', 'js', 'json'],
	moduleNameMapper: { '^(\\.{1,2}/.*)\\.cjs$': '$1' },
	transform: { '^.+\\.c?ts$': ['ts-jest', { tsconfig: 'mock-server/tsconfig.json', diagnostics: false }] },
	// The bound on a test that hangs, not a claim about speed (that is bench/'s): the heaviest tests
	// (servers and their helper processes started and killed, crash cycles, the fuzz) on a 2-core
	// machine at a load average of 10 or more, as a cold CI run with its two lanes makes it.
	testTimeout: 10 * 60_000,
	maxWorkers: 2,
};
