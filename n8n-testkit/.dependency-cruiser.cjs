// The runner's boundaries, checked in CI (`npm run check:layers`): it stands alone (its package
// installs without the Lead Inbox packages), and its modules import each other in no circle.
'use strict';
const SRC = '^n8n-testkit/src/';

module.exports = {
	forbidden: [
		{
			name: 'the-runner-stands-alone',
			comment:
				'n8n-testkit knows no service of its own: the Lead Inbox server and the nodes join through the service interface (services/service.cts), never by import',
			severity: 'error',
			from: { path: SRC },
			to: { path: '^(mock-server|nodes|credentials)/' },
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
		tsConfig: {
			fileName: require('node:path').join(__dirname, '..', 'mock-server', 'tsconfig.json'),
		},
		tsPreCompilationDeps: true,
		enhancedResolveOptions: { extensions: ['.cts', '.ts', '.cjs', '.js'] },
	},
};
