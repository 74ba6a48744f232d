import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Podman as this project's machines need it (../shared/notes/environment.md): runc (crun fails on
 * their hybrid cgroups), and limits given explicitly (the defaults cannot be set there; a build's
 * npm install opens more files than the default allows).
 */
export const PODMAN_LIMITS = ['--ulimit', 'nofile=20000:20000', '--ulimit', 'nproc=4096:4096'];

/** Runs podman with runc; resolves with what it printed, trimmed. */
export async function podman(...args: string[]): Promise<string> {
	const { stdout } = await run('podman', ['--runtime', 'runc', ...args], {
		maxBuffer: 256 * 1024 * 1024,
	});
	return stdout.trim();
}
