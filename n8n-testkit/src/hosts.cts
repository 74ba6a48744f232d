/**
 * The n8n hosts of a run's workers, kept from one test file to the next (and under --watch from
 * one pass to the next): starting an n8n costs seconds, a file on a started one a fraction of a
 * second. Before each file a worker's host is looked at: one that stopped is started again; one
 * grown past the memory limit is restarted (an n8n grows with every workflow it runs); otherwise
 * n8n's own state the previous file left (Data Tables, variables) is emptied, unless the file keeps
 * it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadedTestFile } from './file/load.cjs';
import type { N8nInstall } from './n8n/install.cjs';
import { processTreeRss } from './n8n/memory.cjs';
import { emptyN8nState } from './n8n/state.cjs';
import { type N8nHost, type NodesSource, startHost } from './session.cjs';

/** The default memory limit of a worker's n8n, in MB (see docs/testing-workflows.md, "Speed"). */
export const DEFAULT_N8N_MEMORY_MB = 1536;

export interface HostPoolOptions {
	n8n: N8nInstall;
	nodes: NodesSource[];
	/** Where each host's user folder goes (removed with the pool). */
	work: string;
	/** Restart a worker's n8n before a file once it is past this size (MB, its processes together). */
	memoryLimitMb?: number;
	progress: (line: string) => void;
}

interface Slot {
	host: N8nHost;
	/** Whether a file has run on it since it started (a fresh n8n has nothing to empty). */
	used: boolean;
}

export class HostPool {
	private readonly slots = new Map<number, Slot>();
	private started = 0;
	constructor(private readonly options: HostPoolOptions) {}

	/** The version of the n8n the hosts run. */
	get version(): string {
		return this.options.n8n.version;
	}

	/** Worker `worker`'s host, ready for `test`: started, restarted or emptied as needed. */
	async hostFor(worker: number, test: LoadedTestFile): Promise<N8nHost> {
		const progress = (line: string) => this.options.progress(`[${test.file}] ${line}`);
		let slot = this.slots.get(worker);
		if (slot?.host.app.exited) await this.drop(worker);
		else if (slot) {
			const rss = rssOf(slot.host);
			const limit = (this.options.memoryLimitMb ?? DEFAULT_N8N_MEMORY_MB) * 1024 * 1024;
			if (rss !== undefined && rss > limit) {
				progress(
					`n8n uses ${mb(rss)} MB, past the limit of ${mb(limit)} MB (--n8n-memory): starting a fresh one`,
				);
				await this.drop(worker);
			} else if (slot.used && !test.spec.keepN8nState) {
				const emptied = await emptyN8nState(slot.host.rest);
				if (emptied.dataTables || emptied.variables)
					progress(
						`emptied what the files before left in n8n: ${emptied.dataTables} Data Table(s), ${emptied.variables} variable(s) (keepN8nState: true keeps them)`,
					);
			}
		}
		slot = this.slots.get(worker);
		if (!slot) {
			const host = await startHost({
				n8n: this.options.n8n,
				nodes: this.options.nodes,
				dir: join(this.options.work, `n8n-${worker}-${this.started++}`),
				progress,
			});
			slot = { host, used: false };
			this.slots.set(worker, slot);
		}
		slot.used = true;
		return slot.host;
	}

	/** The resident size of each worker's n8n now, in bytes. */
	memory(): number[] {
		return [...this.slots.values()].flatMap(({ host }) => rssOf(host) ?? []);
	}

	async close(): Promise<void> {
		await Promise.all([...this.slots.keys()].map((worker) => this.drop(worker)));
		rmSync(this.options.work, { recursive: true, force: true });
	}

	private async drop(worker: number): Promise<void> {
		const slot = this.slots.get(worker);
		this.slots.delete(worker);
		await slot?.host.close().catch(() => undefined);
	}
}

/** The resident size of a host's n8n processes together, in bytes; undefined once gone. */
const rssOf = (host: N8nHost) =>
	host.app.pid === undefined ? undefined : processTreeRss(host.app.pid);

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);
