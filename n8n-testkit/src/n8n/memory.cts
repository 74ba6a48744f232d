/**
 * How much memory an n8n uses: the resident size of its main process and of every process it
 * started (2.x runs Code nodes in a task runner process of its own). Read from /proc on Linux; on
 * other systems from `ps`, for the main process only.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

/** Resident memory in bytes of the process and its descendants; undefined once it is gone. */
export function processTreeRss(pid: number): number | undefined {
	if (!existsSync('/proc/self/status')) return psRss(pid);
	const own = procRss(pid);
	return own === undefined ? undefined : own + childProcessesRss(pid);
}

/** Resident memory in bytes of the processes the process started, and theirs (Linux; else 0). */
export function childProcessesRss(pid: number): number {
	return childrenOf(pid).reduce((sum, child) => sum + (processTreeRss(child) ?? 0), 0);
}

function procRss(pid: number): number | undefined {
	try {
		const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
		return kb === undefined ? undefined : Number(kb) * 1024;
	} catch {
		return undefined;
	}
}

/** Children of every thread of the process (a child belongs to the thread that started it; Linux). */
export function childrenOf(pid: number): number[] {
	try {
		return readdirSync(`/proc/${pid}/task`).flatMap((thread) =>
			readFileSync(`/proc/${pid}/task/${thread}/children`, 'utf8')
				.split(/\s+/)
				.filter(Boolean)
				.map(Number),
		);
	} catch {
		return [];
	}
}

function psRss(pid: number): number | undefined {
	try {
		const kb = Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }));
		return Number.isFinite(kb) && kb > 0 ? kb * 1024 : undefined;
	} catch {
		return undefined;
	}
}
