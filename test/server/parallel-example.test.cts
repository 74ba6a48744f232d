import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');

/*
 * examples/parallel-tests, the suite users copy: 4 Jest workers x 25 tests on one server started
 * from the command line (--ready-file), each test on an account of its own. Run as a user runs it.
 */
it('runs green: 100 tests in 4 workers sharing one reference server', async () => {
	const { stdout, stderr } = await run(
		join(ROOT, 'node_modules', '.bin', 'jest'),
		['-c', join(ROOT, 'examples', 'parallel-tests', 'jest.config.js'), '--ci'],
		{
			cwd: ROOT,
			env: {
				...process.env,
				LEAD_INBOX_MOCK_SERVER_CMD: `${join(ROOT, 'node_modules', '.bin', 'tsx')} ${join(ROOT, 'mock-server', 'src', 'cli.cts')}`,
			},
		},
	).catch((error: Error & { stdout?: string; stderr?: string }) => {
		throw new Error(`${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
	});
	expect(`${stdout}${stderr}`).toMatch(/Tests:\s+100 passed, 100 total/);
});
