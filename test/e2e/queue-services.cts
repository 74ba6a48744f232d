import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Redis and PostgreSQL from Debian's packages, started for a test on their own ports and folders
 * (n8n's queue mode needs both) and removed again. `.ci/run` installs the packages.
 */
export interface Service {
	port: number;
	stop(): Promise<void>;
}

function started(child: ChildProcess, name: string, readyText: string): Promise<void> {
	let log = '';
	return new Promise((resolve, reject) => {
		const watch = (chunk: Buffer) => {
			log += chunk.toString();
			if (log.includes(readyText)) resolve();
		};
		child.stdout!.on('data', watch);
		child.stderr!.on('data', watch);
		child.once('exit', (code) =>
			reject(new Error(`${name} exited (${code}):\n${log.slice(-2000)}`)),
		);
	});
}

function stopper(child: ChildProcess, folder: string) {
	return async () => {
		if (child.exitCode === null && child.signalCode === null) {
			const exited = new Promise((resolve) => child.once('exit', resolve));
			child.kill('SIGTERM');
			await exited;
		}
		rmSync(folder, { recursive: true, force: true });
	};
}

export async function startRedis(port: number): Promise<Service> {
	if (!existsSync('/usr/bin/redis-server'))
		throw new Error(
			'redis-server is missing: sudo apt-get install -y redis-server (bash .ci/run does)',
		);
	const folder = mkdtempSync(join(tmpdir(), 'lead-inbox-redis-'));
	const child = spawn(
		'/usr/bin/redis-server',
		[
			'--port',
			String(port),
			'--bind',
			'127.0.0.1',
			'--save',
			'',
			'--appendonly',
			'no',
			'--dir',
			folder,
		],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	await started(child, 'redis-server', 'Ready to accept connections');
	return { port, stop: stopper(child, folder) };
}

/** PostgreSQL with one trusted user (`n8n`) and its database; as root, run as the postgres user. */
export async function startPostgres(
	port: number,
): Promise<Service & { user: string; database: string }> {
	const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : [];
	const bin = versions
		.map((v) => join('/usr/lib/postgresql', v, 'bin'))
		.find((b) => existsSync(join(b, 'postgres')));
	if (!bin)
		throw new Error(
			'PostgreSQL is missing: sudo apt-get install -y postgresql (bash .ci/run does)',
		);
	const folder = mkdtempSync(join(tmpdir(), 'lead-inbox-postgres-'));
	// PostgreSQL refuses to run as root: the server runs as the package's postgres user.
	const asRoot = process.getuid?.() === 0;
	const as = (command: string, args: string[]) =>
		asRoot
			? { command: 'runuser', args: ['-u', 'postgres', '--', command, ...args] }
			: { command, args };
	if (asRoot) {
		const id = (flag: string) =>
			Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
		chownSync(folder, id('-u'), id('-g'));
	}
	const data = join(folder, 'data');
	const init = as(join(bin, 'initdb'), ['-D', data, '-U', 'n8n', '--auth=trust', '-E', 'UTF8']);
	execFileSync(init.command, init.args, { stdio: 'ignore' });
	const server = as(join(bin, 'postgres'), [
		'-D',
		data,
		'-p',
		String(port),
		'-k',
		folder,
		'-c',
		'listen_addresses=127.0.0.1',
		'-c',
		'fsync=off',
		'-c',
		'max_connections=100',
	]);
	const child = spawn(server.command, server.args, { stdio: ['ignore', 'pipe', 'pipe'] });
	await started(child, 'postgres', 'database system is ready to accept connections');
	return { port, user: 'n8n', database: 'postgres', stop: stopper(child, folder) };
}
