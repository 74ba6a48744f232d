import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { loadTestFile, TestFileError } from '../../n8n-testkit/src/file/load.cjs';
import type { WorkflowTestService } from '../../n8n-testkit/src/services/service.cjs';
import {
	installedServices,
	loadService,
	Services,
} from '../../n8n-testkit/src/services/services.cjs';

/**
 * Service simulators join a run through one interface: found in the project's installed packages
 * (their package.json names the module) or given as a module, their fields composed into the test
 * file's format, opened only for the files that use them; a wrong module or two services claiming
 * one field is said plainly.
 */

/** A service of a made-up CRM: its nodes claimed, a `crmSeed` file field, a `crm` expectation. */
const crm = (over: Partial<WorkflowTestService> = {}): WorkflowTestService => ({
	name: 'Acme CRM',
	claims: (type) => type.startsWith('n8n-nodes-acme.'),
	schema: {
		file: { crmSeed: z.strictObject({ contacts: z.int().min(0) }).optional() },
		changes: [z.strictObject({ crmDown: z.literal(true) })],
		expect: { crm: z.strictObject({ contacts: z.int() }).optional() },
	},
	open: () => Promise.reject(new Error('not opened in these tests')),
	...over,
});

/** A project folder with a workflow of a Webhook and a node of the given type, and files. */
function project(nodeType: string, files: Record<string, string>): string {
	const dir = mkdtempSync(join(tmpdir(), 'services-'));
	writeFileSync(
		join(dir, 'flow.json'),
		JSON.stringify({
			name: 'Flow',
			nodes: [
				{
					id: '1',
					name: 'Hook',
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					position: [0, 0],
					parameters: { path: 'x', httpMethod: 'POST' },
				},
				{
					id: '2',
					name: 'CRM',
					type: nodeType,
					typeVersion: 1,
					position: [200, 0],
					parameters: {},
				},
			],
			connections: { Hook: { main: [[{ node: 'CRM', type: 'main', index: 0 }]] } },
		}),
	);
	for (const [name, text] of Object.entries(files)) {
		mkdirSync(join(dir, name, '..'), { recursive: true });
		writeFileSync(join(dir, name), text);
	}
	return dir;
}

const problems = (dir: string, services: WorkflowTestService[]) => {
	try {
		loadTestFile('t.test.yaml', dir, new Services(services));
		return [];
	} catch (error) {
		if (!(error instanceof TestFileError)) throw error;
		return error.problems.map((p) => `${p.line}: ${p.path}: ${p.message}`);
	}
};

describe('services', () => {
	const FILE = [
		'workflow: flow.json', // 1
		'crmSeed: { contacts: 3 }', // 2
		'cases:', // 3
		'  - name: a lead reaches the CRM', // 4
		'    runs: [{ before: [{ crmDown: true }] }]', // 5
		'    expect: { crm: { contacts: 4 } }', // 6
	].join('\n');

	it("composes a service's fields into the format: a file using them loads, the service is opened for it, its node needs no stub", () => {
		const dir = project('n8n-nodes-acme.contact', { 't.test.yaml': FILE });
		const service = crm();
		const loaded = loadTestFile('t.test.yaml', dir, new Services([service]));
		expect(loaded.services).toEqual([service]);
		expect(loaded.claims('n8n-nodes-acme.contact')).toBe(true);
		expect((loaded.spec as Record<string, unknown>).crmSeed).toEqual({ contacts: 3 });
	});

	it('without the service, its fields and changes are refused, saying a simulator may be missing, and its node needs a stub', () => {
		const dir = project('n8n-nodes-acme.contact', { 't.test.yaml': FILE });
		expect(problems(dir, [])).toEqual([
			expect.stringMatching(
				/^5: cases\.0\.runs\.0\.before\.0: not a change this run knows: give one of advanceClock, mock \(a service simulator's field\?/,
			),
			expect.stringMatching(
				/^6: cases\.0\.expect: unknown field "crm" \(a service simulator's field\?/,
			),
			expect.stringMatching(/^2: : unknown field "crmSeed" \(a service simulator's field\?/),
		]);
		const plain = project('n8n-nodes-acme.contact', {
			't.test.yaml': 'workflow: flow.json\ncases: [{ name: a lead }]\n',
		});
		expect(problems(plain, [])).toEqual([
			expect.stringContaining(
				'node "CRM" (n8n-nodes-acme.contact) would call another service: stub it',
			),
		]);
	});

	it("a file that neither uses a service's node nor its fields does not open it", () => {
		const dir = project('n8n-nodes-base.noOp', {
			't.test.yaml': 'workflow: flow.json\ncases: [{ name: a lead }]\n',
		});
		expect(loadTestFile('t.test.yaml', dir, new Services([crm()])).services).toEqual([]);
	});

	it('two services of one name, or two defining one field, are refused', () => {
		expect(() => new Services([crm(), crm()])).toThrow('the service Acme CRM is given twice');
		const other = crm({ name: 'Other CRM' });
		expect(() => new Services([crm(), other]).fileSchema()).toThrow(
			'two services define the test file\'s file field "crmSeed"',
		);
	});

	it('finds the services the project installed (their package.json names the module) and loads them; a module that is no service is said', () => {
		const dir = project('n8n-nodes-acme.contact', {
			'package.json': JSON.stringify({
				name: 'my-workflows',
				devDependencies: { 'acme-crm-simulator': '1.0.0', 'left-pad': '1.0.0' },
			}),
			'node_modules/acme-crm-simulator/package.json': JSON.stringify({
				name: 'acme-crm-simulator',
				version: '1.0.0',
				'n8n-testkit': { service: './service.js' },
			}),
			'node_modules/acme-crm-simulator/service.js':
				"exports.workflowTestService = () => ({ name: 'Acme CRM', claims: (t) => t.startsWith('n8n-nodes-acme.'), open: async () => ({}) });",
			'node_modules/left-pad/package.json': JSON.stringify({ name: 'left-pad', version: '1.0.0' }),
			'not-a-service.js': 'exports.something = 1;',
		});
		expect(installedServices(dir)).toEqual(['acme-crm-simulator/service.js']);
		const service = loadService('acme-crm-simulator/service.js', dir);
		expect([service.name, service.claims('n8n-nodes-acme.deal')]).toEqual(['Acme CRM', true]);
		expect(() => loadService('./not-a-service.js', dir)).toThrow(
			'./not-a-service.js is no workflow test service: it must export workflowTestService()',
		);
		expect(() => loadService('./missing.js', dir)).toThrow(
			'the service module ./missing.js could not be loaded',
		);
	});
});
