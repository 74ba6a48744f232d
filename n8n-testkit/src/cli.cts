/**
 * The `n8n-testkit` bin: `n8n-testkit test [FILES|DIRS]` (with `test init` and `test coverage
 * merge`), --help and --version. The runner's work is the `test` command's (command.cts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { testCommand } from './command.cjs';

const USAGE = `Usage: n8n-testkit test [FILES|DIRS...] [options]
       n8n-testkit test init WORKFLOW.json...
       n8n-testkit test coverage merge DIR|FILE... --out DIR

Tests exported n8n workflows in real n8n: Webhook and form requests and their answers, nodes of
other services stubbed or answered by HTTP mocks, a scripted AI model, sub-workflows, error
workflows, and a clock that passes a Wait of days at once. \`n8n-testkit test --help\` lists the
options; docs: https://github.com/n8n-nodes-lead-inbox/n8n-nodes-lead-inbox/tree/main/n8n-testkit#readme`;

/** The package's version: package.json beside dist/ (bundled) or beside src/ (from the sources). */
function version(): string {
	return (
		JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
	).version;
}

export async function main(argv: string[]): Promise<number> {
	// A closed stdout (piped into `head`) must not crash the run.
	process.stdout.on('error', () => undefined);
	const [command, ...rest] = argv;
	if (command === 'test') return await testCommand(rest);
	if (command === '--version' || command === '-v') {
		process.stdout.write(`${version()}\n`);
		return 0;
	}
	if (command === undefined || command === '--help' || command === '-h') {
		process.stdout.write(`${USAGE}\n`);
		return 0;
	}
	process.stderr.write(`Error: unknown command ${JSON.stringify(command)}\n\n${USAGE}\n`);
	return 2;
}

if (require.main === module)
	void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
