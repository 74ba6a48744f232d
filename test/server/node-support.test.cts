import { unsupportedNode } from '../../mock-server/src/core/node-support.cjs';

describe('the Node.js the server needs', () => {
	it.each(['22.13.0', '22.23.3', '24.0.0', '26.12.1'])('runs on Node.js %s', (version) => {
		expect(unsupportedNode(version)).toBeUndefined();
	});

	it.each(['20.20.2', '22.12.0', '18.20.8'])(
		'on Node.js %s, says in one line which Node.js it needs and which it found',
		(version) => {
			const problem = unsupportedNode(version)!;
			expect(problem).toMatch(/needs Node\.js 22\.13 or newer/);
			expect(problem).toContain(`this is Node.js ${version}`);
			expect(problem).not.toContain('\n');
		},
	);
});
