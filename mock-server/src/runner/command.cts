/**
 * `lead-inbox-mock-server test [FILES|DIRS]`: runs a project's workflow tests in real n8n against
 * the reference server. Exit status: 0 all passed, 1 a case failed, 2 a test file or an option
 * is wrong (nothing run).
 */
import { parseArgs } from 'node:util';
import { N8nNotFound } from './n8n/install.cjs';
import { runWorkflowTests } from './run.cjs';

export const TEST_USAGE = `Usage: lead-inbox-mock-server test [FILES|DIRS...] [options]

Runs workflow test files (*.test.yaml, *.test.yml, *.test.json; default: those under the current
folder) in real n8n against the reference server. See docs/testing-workflows.md.

Options:
  --n8n SPEC      the n8n to run on: an installed n8n (its bin, e.g. $(which n8n), or the folder
                  holding node_modules/n8n), or a version to install into a cache the first time
                  (e.g. 2.40.7). Default: ./node_modules/.bin/n8n
  --n8n-node PATH the Node.js n8n runs on: a node binary or its folder (default: the first
                  node on PATH, as n8n's own bin would pick it)
  --nodes PATH    the nodes package: a packed .tgz or a package folder
                  (default: n8n-nodes-lead-inbox in ./node_modules)
  --junit FILE    also write a JUnit XML report
  --show          print what each case did under its line, passed or not: each node's items
                  per run (the count and the first), what stubbed nodes would have sent, the
                  Webhook's answer, sub-workflows, the requests the service got
  --report DIR    write the same per case as JSON (DIR/<test file>/<nn>-<case>.json)
  --jobs N        test files run side by side (default: one per two cores)
  --replay DIR    answer from recordings of the real services (the server's --replay)
  -h, --help      this help

Exit status: 0 all passed, 1 a case failed, 2 a test file or an option is wrong (nothing run).
A GitHub job summary is appended to $GITHUB_STEP_SUMMARY when it is set.`;

export async function testCommand(argv: string[]): Promise<number> {
	let parsed;
	try {
		parsed = parseArgs({
			args: argv,
			allowPositionals: true,
			options: {
				n8n: { type: 'string' },
				nodes: { type: 'string' },
				'n8n-node': { type: 'string' },
				junit: { type: 'string' },
				show: { type: 'boolean' },
				report: { type: 'string' },
				jobs: { type: 'string' },
				replay: { type: 'string' },
				help: { type: 'boolean', short: 'h' },
			},
		});
	} catch (error) {
		process.stderr.write(`Error: ${(error as Error).message}\n\n${TEST_USAGE}\n`);
		return 2;
	}
	const { values, positionals } = parsed;
	if (values.help) {
		process.stdout.write(`${TEST_USAGE}\n`);
		return 0;
	}
	const jobs = values.jobs === undefined ? undefined : Number(values.jobs);
	if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1)) {
		process.stderr.write(
			`Error: --jobs must be a whole number of at least 1, not ${values.jobs}\n`,
		);
		return 2;
	}
	try {
		const result = await runWorkflowTests({
			paths: positionals,
			n8n: values.n8n,
			n8nNode: values['n8n-node'],
			nodes: values.nodes,
			junit: values.junit,
			show: values.show,
			report: values.report,
			jobs,
			replay: values.replay,
		});
		return result.exitCode;
	} catch (error) {
		if (error instanceof N8nNotFound || /^no n8n to run/.test((error as Error).message)) {
			process.stderr.write(`Error: ${(error as Error).message}\n`);
			return 2;
		}
		throw error;
	}
}
