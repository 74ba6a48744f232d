import { parentPort, type Worker } from 'node:worker_threads';
import { batched, firstMessage, spawnThread } from '../core/threads.cjs';
import { HostMap } from './fetcher.cjs';
import { notScanned, Scanner, type ScanSummary, summarize } from './scanner.cjs';

/**
 * Website scans spread over worker threads: parsing pages and containers is CPU work, and on the
 * main thread it would stall every other request while a large search scans. Each thread runs its
 * own Scanner (its share of the concurrency, its own keep-alive sockets); a scan goes to the
 * thread with the fewest in flight.
 */
export interface ScanPoolOptions {
	threads: number;
	timeoutMs: number;
	/** The scanner's host mapping, as "HOST=http://127.0.0.1:PORT" entries. */
	hosts: string[];
	/**
	 * Scans in flight in all threads together, at most (and at least one per thread). More at once
	 * lets more slow sites' time-outs run at the same time, and costs memory (answers received and
	 * not read yet); each thread's ScanWindow keeps fewer in flight while answers slow down under
	 * sustained load. The measured trade-off is in bench/README.md ("Fourth round").
	 */
	concurrency?: number;
	/** How long each thread keeps an idle connection (Scanner's keepAliveMs). */
	keepAliveMs?: number;
}

interface Thread {
	worker: Worker;
	ask: (request: Request) => void;
	/** Scans sent to this thread and not answered yet. */
	waiting: Map<number, { url: string; resolve: (result: ScanSummary) => void }>;
}

type Request = { id: number; url: string };
type Reply = { id: number; result: ScanSummary };

export class ScanPool {
	private threads: Thread[] = [];
	private nextId = 0;
	private stopping = false;

	private constructor(private readonly data: object) {}

	static async start(options: ScanPoolOptions): Promise<ScanPool> {
		const pool = new ScanPool({
			timeoutMs: options.timeoutMs,
			hosts: options.hosts,
			keepAliveMs: options.keepAliveMs,
			concurrency: Math.max(1, Math.floor((options.concurrency ?? 1024) / options.threads)),
		});
		try {
			await Promise.all(Array.from({ length: options.threads }, () => pool.spawn()));
		} catch (error) {
			await pool.stop();
			throw error;
		}
		return pool;
	}

	private async spawn(): Promise<void> {
		const worker = spawnThread('scanner', this.data);
		const thread: Thread = {
			worker,
			ask: batched((requests) => worker.postMessage(requests)),
			waiting: new Map(),
		};
		worker.on('message', (replies: Reply[] | { ready: true }) => {
			if (!Array.isArray(replies)) return;
			for (const reply of replies) {
				thread.waiting.get(reply.id)?.resolve(reply.result);
				thread.waiting.delete(reply.id);
			}
			// An idle thread does not keep the process alive; one with scans to answer does.
			if (thread.waiting.size === 0) worker.unref();
		});
		// A thread that dies (out of its heap limit, say) is replaced, and its unanswered scans are
		// asked again once of the threads still running; only then would they count as failed.
		worker.on('exit', () => {
			this.threads = this.threads.filter((t) => t !== thread);
			if (this.stopping) return;
			const replaced = this.spawn().catch(() => undefined);
			for (const { url, resolve } of thread.waiting.values())
				void replaced.then(() =>
					this.threads.length > 0
						? this.scan(url).then(resolve)
						: resolve(summarize(notScanned(url, 'scan failed: the scanner thread stopped'))),
				);
		});
		await firstMessage(worker);
		worker.unref();
		this.threads.push(thread);
	}

	scan(url: string): Promise<ScanSummary> {
		if (this.threads.length === 0)
			return Promise.resolve(summarize(notScanned(url, 'scan failed: no scanner thread running')));
		const thread = this.threads.reduce((a, b) => (b.waiting.size < a.waiting.size ? b : a));
		const id = this.nextId++;
		return new Promise((resolve) => {
			if (thread.waiting.size === 0) thread.worker.ref();
			thread.waiting.set(id, { url, resolve });
			thread.ask({ id, url });
		});
	}

	async stop(): Promise<void> {
		this.stopping = true;
		await Promise.all(this.threads.map(({ worker }) => worker.terminate()));
	}
}

/** The work of a scanner thread (thread.cts): scan what the parent asks, in batches. */
export function runScannerThread(role: Record<string, unknown>): void {
	const scanner = new Scanner({
		timeoutMs: role.timeoutMs as number,
		hostMap: HostMap.parse(role.hosts as string[]),
		concurrency: role.concurrency as number,
		keepAliveMs: role.keepAliveMs as number | undefined,
	});
	const reply = batched<Reply>((replies) => parentPort!.postMessage(replies));
	parentPort!.on('message', (requests: Request[]) => {
		for (const { id, url } of requests)
			void scanner.scan(url).then((result) => reply({ id, result: summarize(result) }));
	});
	parentPort!.postMessage({ ready: true });
}
