import {
	batched,
	firstMessage,
	type Helper,
	parentChannel,
	spawnHelper,
} from '../core/helpers.cjs';
import { HostMap } from './fetcher.cjs';
import { notScanned, Scanner, type ScanSummary, summarize } from './scanner.cjs';

/**
 * Website scans spread over helper processes (a "thread" here; the option is --scan-threads):
 * parsing pages and containers is CPU work, and in the server's own thread it would stall every
 * other request while a large search scans. Each runs its own Scanner (its share of the
 * concurrency, its own keep-alive sockets); a scan goes to the one with the fewest in flight.
 */
export interface ScanPoolOptions {
	threads: number;
	timeoutMs: number;
	/**
	 * The scanner's host mapping, as "HOST=http://127.0.0.1:PORT" entries; may still be coming
	 * (the synthetic web starting meanwhile): the processes start at once and are told it later.
	 */
	hosts: string[] | Promise<string[]>;
	/**
	 * Scans in flight in all threads together, at most (and at least one per thread). More at once
	 * lets more slow sites' time-outs run at the same time, and costs memory (answers received and
	 * not read yet); each thread's ScanWindow keeps fewer in flight while answers slow down or wait
	 * to be read. The measured trade-offs are in bench/README.md ("Fourth round", "Flow control").
	 */
	concurrency?: number;
	/** How long each thread keeps an idle connection (Scanner's keepAliveMs). */
	keepAliveMs?: number | Promise<number | undefined>;
}

interface Thread {
	worker: Helper;
	ask: (request: Request) => void;
	/** Scans sent to this thread and not answered yet. */
	waiting: Map<number, { url: string; resolve: (result: ScanSummary) => void }>;
}

type Request = { id: number; url: string };
type ScannerSettings = {
	timeoutMs: number;
	hosts: string[];
	keepAliveMs: number | undefined;
	concurrency: number;
};
type Reply = { id: number; result: ScanSummary };

export class ScanPool {
	private threads: Thread[] = [];
	private nextId = 0;
	private stopping = false;

	/** What each scanner process is told first, once the host mapping is known. */
	private constructor(private readonly settings: Promise<ScannerSettings>) {}

	static async start(options: ScanPoolOptions): Promise<ScanPool> {
		const pool = new ScanPool(
			Promise.all([options.hosts, options.keepAliveMs]).then(([hosts, keepAliveMs]) => ({
				timeoutMs: options.timeoutMs,
				hosts,
				keepAliveMs,
				concurrency: Math.max(1, Math.floor((options.concurrency ?? 1024) / options.threads)),
			})),
		);
		try {
			await Promise.all(Array.from({ length: options.threads }, () => pool.spawn()));
		} catch (error) {
			await pool.stop();
			throw error;
		}
		return pool;
	}

	private async spawn(): Promise<void> {
		const worker = spawnHelper('scanner');
		// The process starts while the settings are still coming; it waits for them. Its failing
		// meanwhile is awaited below, not left unhandled (that would end the server).
		const ready = firstMessage(worker);
		ready.catch(() => undefined);
		worker.postMessage({ settings: await this.settings });
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
		await ready;
		// A thread that dies (out of its heap limit, say) is replaced, and its unanswered scans are
		// asked again once of the threads still running; only then would they count as failed. Only
		// a thread that had started: one that cannot start fails the start, not a loop of restarts.
		worker.on('exit', () => {
			this.threads = this.threads.filter((t) => t !== thread);
			if (this.stopping) return;
			const replaced = this.spawn().catch(() => undefined);
			for (const { url, resolve } of thread.waiting.values())
				void replaced.then(() =>
					this.threads.length > 0
						? this.scan(url).then(resolve)
						: resolve(summarize(notScanned(url, 'scan failed: the scanner process stopped'))),
				);
		});
		worker.unref();
		this.threads.push(thread);
	}

	scan(url: string): Promise<ScanSummary> {
		if (this.threads.length === 0)
			return Promise.resolve(summarize(notScanned(url, 'scan failed: no scanner process running')));
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

/** The work of a scanner process (thread.cts): scan what the parent asks, in batches. */
export function runScannerThread(): void {
	let scanner: Scanner | undefined;
	const reply = batched<Reply>((replies) => parentChannel.postMessage(replies));
	parentChannel.on('message', (message: Request[] | { settings: ScannerSettings }) => {
		if (!Array.isArray(message)) {
			const { settings } = message;
			scanner = new Scanner({ ...settings, hostMap: HostMap.parse(settings.hosts) });
			return parentChannel.postMessage({ ready: true });
		}
		for (const { id, url } of message)
			void scanner!.scan(url).then((result) => reply({ id, result: summarize(result) }));
	});
}
