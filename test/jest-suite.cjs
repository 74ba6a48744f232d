/**
 * Jest's own reporter, with its "Summary of all failing tests" printed after any failure: by
 * default only past 20 files, and these suites have fewer. It is what .ci/run shows again at the
 * end of a run, where a CI log's tail is read, when a suite fails.
 * @type {import('jest').Config['reporters']}
 */
const FAILURES_AGAIN_AT_THE_END = [['default', { summaryThreshold: 0 }]];

/**
 * The shape of the suites that run outside `npm test`, one folder each (test/e2e, test/image,
 * test/github): CommonJS TypeScript through ts-jest, as the main suite, one file at a time (they
 * start real programs and ports), with their own file suffix so `npm test` never picks them up.
 * @param {string} folder the folder under test/
 * @param {string} testMatch the glob of its files
 * @param {import('jest').Config} rest what the suite adds (time-outs, forceExit)
 * @returns {import('jest').Config}
 */
module.exports = (folder, testMatch, rest) => ({
	rootDir: require('node:path').join(__dirname, '..'),
	testEnvironment: 'node',
	roots: [`<rootDir>/test/${folder}`],
	testMatch: [testMatch],
	moduleFileExtensions: ['cts', 'ts', 'cjs', 'js', 'json'],
	moduleNameMapper: { '^(\\.{1,2}/.*)\\.cjs$': '$1' },
	transform: {
		'^.+\\.c?ts$': ['ts-jest', { tsconfig: 'mock-server/tsconfig.json', diagnostics: false }],
	},
	maxWorkers: 1,
	reporters: FAILURES_AGAIN_AT_THE_END,
	...rest,
});
