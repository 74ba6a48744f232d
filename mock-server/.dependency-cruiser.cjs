// The server's layers, checked in CI (`npm run check:layers`). Lower layers never import higher
// ones; features reach each other only through a feature's index.cts; only the composition root
// (app.cts) and the command line (cli.cts) wire features together. mock-server/README.md
// ("Architecture") draws the same map.
'use strict';
const SRC = '^mock-server/src/';
const FEATURES = '(leads|inboxes|scan|web|admin|docs|proxy|dashboard)';

const layer = (name, from, allowed, comment) => ({
	name,
	comment,
	severity: 'error',
	from: { path: `${SRC}${from}/` },
	to: { path: SRC, pathNot: allowed.map((folder) => `${SRC}${folder}/`) },
});

module.exports = {
	forbidden: [
		layer('core-is-the-bottom', 'core', ['core'], 'core/ (clock, config, ids, logger, secrets, cache, helpers) imports nothing of ours'),
		layer('contract-over-core', 'contract', ['core', 'contract'], 'the zod schemas know nothing of storage or HTTP'),
		layer('store-over-contract', 'store', ['core', 'contract', 'store'], 'the store knows no HTTP and no feature'),
		layer('http-over-store', 'http', ['core', 'contract', 'store', 'http'], 'HTTP plumbing (errors, auth, parsing, the route contract) imports no feature'),
		{
			name: 'features-meet-through-their-index',
			comment: "a feature may use another feature only through that feature's index.cts",
			severity: 'error',
			from: { path: `${SRC}${FEATURES}/` },
			to: { path: `${SRC}${FEATURES}/`, pathNot: [`${SRC}$1/`, `${SRC}${FEATURES}/index\\.cts$`] },
		},
		{
			name: 'only-the-root-wires',
			comment: 'the root (app.cts wires the server) is imported only by the ways in: cli.cts and the in-process api/',
			severity: 'error',
			from: { path: SRC, pathNot: [`${SRC}cli\\.cts$`, `${SRC}api/`] },
			to: { path: `${SRC}(app|cli)\\.cts$` },
		},
		{
			name: 'the-helper-entry-is-its-own',
			comment: "thread.cts is a helper process's entry, bundled on its own (it starts the helper's work when loaded): nothing imports it",
			severity: 'error',
			from: { path: SRC },
			to: { path: `${SRC}thread\\.cts$` },
		},
		{
			name: 'nothing-imports-the-api',
			comment: 'api/ (startMockServer) is a way in, like cli.cts: the server does not depend on it (the workflow test service is its client)',
			severity: 'error',
			from: { path: SRC, pathNot: [`${SRC}api/`, `${SRC}workflow-tests/`] },
			to: { path: `${SRC}api/` },
		},
		layer('the-test-service-is-a-client', 'workflow-tests', ['workflow-tests', 'api', 'contract', 'core'], 'workflow-tests/ (the Lead Inbox service of the workflow test runner) starts the server through api/ and checks files with the contract: it reaches into no feature'),
		{
			name: 'only-the-ways-in-run-tests',
			comment: 'workflow-tests/ is used by the command line (cli.cts) and the package API (api/) only',
			severity: 'error',
			from: { path: SRC, pathNot: [`${SRC}cli\\.cts$`, `${SRC}api/`, `${SRC}workflow-tests/`] },
			to: { path: `${SRC}workflow-tests/` },
		},
		{
			name: 'the-runner-through-its-entry',
			comment: "the server uses the workflow test runner (n8n-testkit) through its package entry only (src/index.cts): the bundle requires the package there",
			severity: 'error',
			from: { path: SRC },
			to: { path: '^n8n-testkit/', pathNot: ['^n8n-testkit/src/index\\.cts$'] },
		},
		{
			name: 'no-circular',
			comment: 'modules do not import each other in a circle',
			severity: 'error',
			from: { path: SRC },
			to: { circular: true },
		},
	],
	options: {
		doNotFollow: { path: 'node_modules' },
		exclude: { path: 'node_modules' },
		tsConfig: { fileName: require('node:path').join(__dirname, 'tsconfig.json') },
		tsPreCompilationDeps: true,
		enhancedResolveOptions: { extensions: ['.cts', '.ts', '.cjs', '.js'] },
	},
};
