// Lint of the reference server, the tests and the benchmarks (`npm run lint:server`).
//
// The n8n package keeps n8n's own strict config (eslint.config.mjs, `n8n-node lint`), which covers
// every `*.ts` file and may not change. These files are `.cts` (CommonJS TypeScript) so that the
// n8n config leaves them alone and this one, made for a Node server and its tests, lints them.
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const LAZY_MODULES = [
	'^city-timezones$',
	'^libphonenumber-js',
	'^imapflow$',
	'^nodemailer$',
	'^undici$',
	'\\.json$',
	// The dashboard's bundler, from the sources only (the package carries the page built).
	'/ui/bundle\\.cjs$',
];

export default tseslint.config(
	{ ignores: ['**/dist/**', '**/node_modules/**', 'test-results/**'] },
	{
		files: ['mock-server/src/**/*.cts', 'n8n-testkit/src/**/*.cts', 'test/**/*.cts', 'bench/**/*.cts'],
		extends: [tseslint.configs.recommendedTypeChecked],
		plugins: { 'import-x': importX },
		languageOptions: {
			parserOptions: { project: ['mock-server/tsconfig.json'], tsconfigRootDir: import.meta.dirname },
		},
		rules: {
			// Imports grouped (node built-ins, packages, then our own) and sorted, one per module.
			'import-x/order': [
				'error',
				{
					groups: ['builtin', 'external', ['parent', 'sibling', 'index']],
					'newlines-between': 'never',
					alphabetize: { order: 'asc', caseInsensitive: true },
				},
			],
			'import-x/no-duplicates': 'error',
			// `typeof import('x')` types the modules that are required lazily (below).
			'@typescript-eslint/consistent-type-imports': [
				'error',
				{ fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
			],
			// Fastify plugins and handlers are async by contract (a plugin's promise says it is loaded,
			// a handler's value is its answer), and so are the n8n interfaces the tests stand in for;
			// many have nothing to await.
			'@typescript-eslint/require-await': 'off',
			// `void promise` marks a promise deliberately not awaited (a fire-and-forget start).
			'@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	},
	{
		// Large modules (the gazetteer, phone metadata, mail clients, the scanner's HTTP client) are
		// required on first use, not imported at start: the server answers sooner and idles smaller.
		files: ['mock-server/src/**/*.cts'],
		rules: { '@typescript-eslint/no-require-imports': ['error', { allow: LAZY_MODULES }] },
	},
	{
		// Tests read answers of any shape: asserting on them is the point, typing every one is not.
		files: ['test/**/*.cts', 'bench/**/*.cts'],
		rules: {
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-unsafe-member-access': 'off',
			'@typescript-eslint/no-unsafe-assignment': 'off',
			'@typescript-eslint/no-unsafe-argument': 'off',
			'@typescript-eslint/no-unsafe-call': 'off',
			'@typescript-eslint/no-unsafe-return': 'off',
		},
	},
);
