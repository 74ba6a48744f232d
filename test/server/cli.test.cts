import { spawn } from 'node:child_process';
import net from 'node:net';
import { join } from 'node:path';

/** The `npm start` program itself: bad options, a port in use, graceful shutdown. */
const CLI = join(__dirname, '../../mock-server/src/cli.cts');

function run(
	args: string[],
	onStdout?: (text: string, kill: (signal: NodeJS.Signals) => void) => void,
) {
	return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
		const child = spawn(
			process.execPath,
			[require.resolve('tsx/cli'), CLI, '--db', ':memory:', '--log', 'off', ...args],
			{ stdio: ['ignore', 'pipe', 'pipe'] },
		);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (chunk) => {
			stdout += chunk;
			onStdout?.(stdout, (signal) => child.kill(signal));
		});
		child.stderr.on('data', (chunk) => (stderr += chunk));
		child.on('exit', (code) => resolve({ code, stdout, stderr }));
	});
}

describe('reference server CLI', () => {
	it('rejects a bad option with a clear message and exit code 2', async () => {
		const result = await run(['--latency', 'slow']);
		expect(result.code).toBe(2);
		expect(result.stderr).toContain('--latency must be one of none, realistic (got "slow")');
		expect(result.stderr).toContain('Usage: npm start -- [options]');
	});

	it('says so when the port is in use, and exits 1', async () => {
		const blocker = net.createServer();
		await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
		const port = (blocker.address() as net.AddressInfo).port;
		try {
			const result = await run(['--port', String(port)]);
			expect(result.code).toBe(1);
			expect(result.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use`);
		} finally {
			blocker.close();
		}
	});

	it('prints the URLs, the dev key and the admin token, then stops cleanly on SIGTERM', async () => {
		let signalled = false;
		const result = await run(['--port', '0'], (text, kill) => {
			if (!signalled && text.includes('admin token:')) {
				signalled = true;
				kill('SIGTERM');
			}
		});
		expect(result.stdout).toMatch(/inbox base URL:\s+http:\/\/127\.0\.0\.1:\d+\/api\/v1/);
		expect(result.stdout).toMatch(/dev account API key:\s+lik_/);
		expect(result.stdout).toContain('closing the database');
		expect(result.code).toBe(0);
	});
});
