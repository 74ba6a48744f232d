import { spawn } from 'node:child_process';
import { childProcessesRss, processTreeRss } from '../../mock-server/src/runner/n8n/memory.cjs';

/**
 * What --n8n-memory compares with its limit: the resident size of an n8n's processes together (its
 * main process and the task runner it starts), read from the system.
 */
describe("an n8n's memory, its processes together", () => {
	it('counts a process with the processes it started, and nothing once it is gone', async () => {
		// A process holding 64 MB that starts one more process.
		const parent = spawn(
			process.execPath,
			[
				'-e',
				"const b = Buffer.alloc(64 * 1048576, 1); require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' }); console.log('ready'); setInterval(() => b.length, 1000);",
			],
			{ stdio: ['ignore', 'pipe', 'inherit'], detached: true },
		);
		await new Promise((resolve) => parent.stdout.once('data', resolve));
		// The grandchild may still be starting: wait until it is counted.
		const alone = () => processTreeRss(parent.pid!)! - childProcessesRss(parent.pid!);
		while (childProcessesRss(parent.pid!) === 0) await new Promise((r) => setTimeout(r, 20));
		expect(alone()).toBeGreaterThan(64 * 1048576);
		expect(processTreeRss(parent.pid!)).toBeGreaterThan(alone());
		expect(childProcessesRss(process.pid)).toBeGreaterThanOrEqual(processTreeRss(parent.pid!)!);
		const exited = new Promise((resolve) => parent.once('exit', resolve));
		process.kill(-parent.pid!, 'SIGKILL');
		await exited;
		expect(processTreeRss(parent.pid!)).toBeUndefined();
	});
});
