/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'mock-server/tsconfig.json', isolatedModules: true, diagnostics: false }] },
	testTimeout: 60000,
	maxWorkers: 2,
};
