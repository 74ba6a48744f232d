import { execFile } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ALL_LINES, CACHE, NEWEST_LINE } from './n8n-app.cjs';
import { processFolder } from './process-folders.cjs';
import { n8nArgs, outcomeOf, packedRunner, ROOT } from './support.cjs';

const run = promisify(execFile);

/**
 * n8n-testkit as an n8n user with no Lead Inbox node installs it: a project whose only package is
 * the packed runner (neither Lead Inbox package comes with it) tests a Webhook intake into a
 * stubbed Google Sheets (n8n-testkit/examples/lead-intake, the README's five-minute start): the
 * right workflow passes, a broken copy fails naming the expectation, and the upgrade check of
 * n8n 1.123.81 and 2.40.7 names the one difference in a failed Webhook run's answer and nothing for
 * the case the two agree on.
 */
const EXAMPLE = join(ROOT, 'n8n-testkit', 'examples', 'lead-intake');
const MINUTE = 60_000;
const RIGHT = 'a lead from the form lands in the sheet and is thanked';
const REJECTED = 'a lead without an email is rejected and never reaches the sheet';

describe('n8n-testkit alone, in a project with no Lead Inbox node', () => {
	let project: string;
	const testkit = (args: string[]) =>
		outcomeOf(join(project, 'node_modules', '.bin', 'n8n-testkit'), ['test', ...args], {
			cwd: project,
		});
	const on = n8nArgs;

	beforeAll(async () => {
		const runner = packedRunner();
		project = processFolder(CACHE, 'testkit-project');
		cpSync(EXAMPLE, project, { recursive: true });
		writeFileSync(join(project, 'package.json'), '{"name":"my-n8n-workflows","private":true}\n');
		// The user's install, offline from npm's cache (tests reach only loopback).
		await run(
			'npm',
			['install', '--no-audit', '--no-fund', '--prefer-offline', '--save-dev', runner],
			{ cwd: project },
		);
		// The same workflow broken as workflows break: the email no longer lower-cased.
		const workflow = JSON.parse(
			readFileSync(join(EXAMPLE, 'workflows', 'lead-intake.json'), 'utf8'),
		);
		const email = workflow.nodes
			.find((n: { name: string }) => n.name === 'Clean up')
			.parameters.assignments.assignments.find((a: { name: string }) => a.name === 'email');
		email.value = email.value.replace('.toLowerCase()', '');
		writeFileSync(join(project, 'workflows', 'lead-intake-broken.json'), JSON.stringify(workflow));
		writeFileSync(
			join(project, 'broken.test.yaml'),
			readFileSync(join(EXAMPLE, 'tests', 'lead-intake.test.yaml'), 'utf8').replace(
				/^workflow: .*$/m,
				'workflow: workflows/lead-intake-broken.json',
			),
		);
	}, 10 * MINUTE);

	test('installs alone: no Lead Inbox package comes with it', () => {
		const modules = join(project, 'node_modules');
		expect(existsSync(join(modules, 'n8n-testkit', 'package.json'))).toBe(true);
		expect([
			existsSync(join(modules, 'n8n-nodes-lead-inbox')),
			existsSync(join(modules, 'lead-inbox-mock-server')),
		]).toEqual([false, false]);
	});

	test(
		'the Webhook intake into a stubbed Google Sheets passes; a broken copy fails naming the expectation',
		async () => {
			const right = await testkit(['tests', ...on(NEWEST_LINE), '--junit', 'reports/right.xml']);
			expect({ code: right.code, out: right.stdout }).toEqual({ code: 0, out: right.stdout });
			expect(right.stdout).toContain(`\u2713 tests/lead-intake.test.yaml \u203a ${RIGHT}`);
			expect(right.stdout).toContain('2 passed, 0 failed');
			expect(readFileSync(join(project, 'reports', 'right.xml'), 'utf8')).toContain(
				'tests="2" failures="0"',
			);

			const broken = await testkit(['broken.test.yaml', ...on(NEWEST_LINE)]);
			expect(broken.code).toBe(1);
			expect(broken.stdout).toContain(`\u2717 broken.test.yaml \u203a ${RIGHT}`);
			expect(broken.stdout).toContain('expect.nodes.Clean up.every.email');
			expect(broken.stdout).toContain(`\u2713 broken.test.yaml \u203a ${REJECTED}`);
		},
		15 * MINUTE,
	);

	// The upgrade check needs n8n 1.123.81 beside 2.40.7: in the runs (.ci/run's turns) that install it.
	const old = ALL_LINES.find((line) => line.version === '1.123.81');
	(old ? test : test.skip)(
		'the upgrade check of n8n 1.123.81 and 2.40.7 names the difference in a failed Webhook run, and nothing for the case they agree on',
		async () => {
			const outcome = await testkit([
				'tests',
				...on(old!),
				...on(NEWEST_LINE),
				'--compare',
				'--junit',
				'reports/upgrade.xml',
				'--report',
				'reports/upgrade',
			]);
			// Every case passed on both versions, but they differ: the check's own exit status.
			expect({ code: outcome.code, out: outcome.stdout }).toEqual({ code: 3, out: outcome.stdout });
			expect(outcome.stdout).toContain('Upgrade check: n8n 1.123.81 \u2192 2.40.7');
			expect(outcome.stdout).toContain(
				`\u2260 tests/lead-intake.test.yaml \u203a ${REJECTED} (1.123.81: passed, 2.40.7: passed)`,
			);
			expect(outcome.stdout).toMatch(/run 1 › response\.status: 200 → 500/);
			expect(outcome.stdout).not.toContain(`\u2260 tests/lead-intake.test.yaml \u203a ${RIGHT}`);
			expect(outcome.stdout).toContain(
				'1 case(s) differ between n8n 1.123.81 and 2.40.7, 1 agree.',
			);
			const report = JSON.parse(
				readFileSync(join(project, 'reports', 'upgrade', 'compare.json'), 'utf8'),
			);
			expect(report.cases.find((c: { case: string }) => c.case === RIGHT).differences).toEqual([]);
			// Each version's own reports, in a folder of its own.
			expect(existsSync(join(project, 'reports', 'upgrade', '1.123.81'))).toBe(true);
			expect(existsSync(join(project, 'reports', 'upgrade', '2.40.7'))).toBe(true);
			const junit = readFileSync(join(project, 'reports', 'upgrade.xml'), 'utf8');
			expect(junit).toContain('<testsuite name="n8n 1.123.81 \u203a tests/lead-intake.test.yaml"');
			expect(junit).toContain(
				'<testsuite name="upgrade check: n8n 1.123.81 \u2192 2.40.7" tests="2" failures="1"',
			);
		},
		15 * MINUTE,
	);
});
