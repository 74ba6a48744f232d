import { isMainThread, Worker, workerData } from 'node:worker_threads';

/**
 * Worker threads of the server. In the bundle every thread runs the same file, so each thread is
 * told its role and a module starts its thread's work only for its own role. From the TypeScript
 * sources (npm start, tests) the thread loads the module through tsx.
 */
export type ThreadRole = 'synthetic-web' | 'scanner';

/**
 * Old-generation limits. The synthetic web keeps a few dozen rendered pages; a scanner keeps up
 * to ~1,000 scans in flight (~35 KB each) and 16 bodies being read, so 128 MB leaves it room.
 */
const HEAP_MB: Record<ThreadRole, number> = { 'synthetic-web': 32, scanner: 128 };

export function spawnThread(filename: string, role: ThreadRole, data: object = {}): Worker {
	const options = {
		workerData: { role, ...data },
		// Bounded heaps: a small young generation (these threads allocate fast and keep little;
		// V8 would grow it to tens of MB per thread) and an old generation sized to the thread's
		// work, so garbage is collected early instead of growing the server's memory.
		resourceLimits: { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: HEAP_MB[role] },
	};
	return filename.endsWith('.cts')
		? new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(filename)});`, {
				...options,
				eval: true,
			})
		: new Worker(filename, options);
}

/** This thread's role and data, when it is a worker thread started by spawnThread. */
export function threadRole(): (Record<string, unknown> & { role: ThreadRole }) | undefined {
	return isMainThread ? undefined : (workerData as { role: ThreadRole } | undefined);
}

/** Resolves with the thread's first message, or rejects when it fails before sending one. */
export function firstMessage<T>(worker: Worker): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		worker.once('message', resolve);
		worker.once('error', reject);
		worker.once('exit', (code) => reject(new Error(`worker thread exited with ${code}`)));
	});
}
