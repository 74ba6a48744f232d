import { spawn } from 'node:child_process';
import { childProcessesRss, processTreeRss } from '../../n8n-testkit/src/n8n/memory.cjs';

/**
 * What --n8n-memory compares with its limit: the resident size of an n8n's processes together (its
 * main process and the task runner it starts), read from the system.
 */
describe("an n8n's memory, its processes together", () => {
	it('counts a process with the processes it started, and nothing once it is gone', async () => {
		// A process holding 64 MB that starts one more process. Its own process group, killed whole
		// whatever the assertions say: a grandchild left running holds Jest's output pipe open, and
		// Jest then never exits.
		const parent = spawn(
			process.execPath,
			[
				'-e',
				"const b = Buffer.alloc(64 * 1048576, 1); require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'inherit' }); console.log('ready'); setInterval(() => b.length, 1000);",
			],
			{ stdio: ['ignore', 'pipe', 'inherit'], detached: true },
		);
		const exited = new Promise((resolve) => parent.once('exit', resolve));
		try {
			await new Promise((resolve) => parent.stdout.once('data', resolve));
			// The grandchild may still be starting: wait until it is counted.
			const alone = () => processTreeRss(parent.pid!)! - childProcessesRss(parent.pid!);
			while (childProcessesRss(parent.pid!) === 0) await new Promise((r) => setTimeout(r, 20));
			expect(alone()).toBeGreaterThan(64 * 1048576);
			expect(processTreeRss(parent.pid!)).toBeGreaterThan(alone());
			// Counted from further up too: this test's process started it. (Each reading is taken at
			// its own moment, and a live process's size moves between two of them: compared with the
			// 64 MB the process holds, not with another reading.)
			expect(childProcessesRss(process.pid)).toBeGreaterThan(64 * 1048576);
		} finally {
			process.kill(-parent.pid!, 'SIGKILL');
			await exited;
		}
		expect(processTreeRss(parent.pid!)).toBeUndefined();
	});
});
