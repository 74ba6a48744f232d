import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

/** Shared bits of the benchmarks: a reference server in its own process, memory sampling. */
export async function startServerProcess(
	extraArgs: string[] = [],
): Promise<{ url: string; devKey: string; adminToken: string; child: ChildProcess; stop(): void }> {
	const child = spawn(
		process.execPath,
		[
			require.resolve('tsx/cli'),
			join(__dirname, '../mock-server/src/cli.cts'),
			'--db',
			':memory:',
			'--port',
			'0',
			'--log',
			'off',
			...extraArgs,
		],
		{
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	let out = '';
	await new Promise<void>((resolve, reject) => {
		child.stdout!.on('data', (chunk) => {
			out += chunk;
			if (out.includes('admin token:')) resolve();
		});
		child.on('exit', (code) => reject(new Error(`server exited with ${code}`)));
	});
	const pick = (label: string) => new RegExp(`${label}:?\\s+(\\S+)`).exec(out)![1];
	return {
		url: pick('listening on'),
		devKey: pick('dev account API key'),
		adminToken: pick('admin token'),
		child,
		stop: () => child.kill('SIGTERM'),
	};
}

export class PeakMemory {
	private peak = 0;
	private readonly timer = setInterval(() => this.sample(), 20);

	sample(): void {
		this.peak = Math.max(this.peak, process.memoryUsage().rss);
	}

	stop(): string {
		clearInterval(this.timer);
		this.sample();
		return `${Math.round(this.peak / 1024 / 1024)} MB`;
	}
}

export const line = (label: string, value: string | number) =>
	console.log(`${label.padEnd(44)} ${value}`);
