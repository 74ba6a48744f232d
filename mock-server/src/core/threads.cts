/**
 * Worker threads of the server. Every thread runs one entry file and is told its role there
 * (thread.cts starts the role's work): from the bundles (the bin, or the in-process API's
 * bundle beside it), the bin; from the TypeScript sources (npm start, tests), thread.cts through
 * tsx.
 */
import { join } from 'node:path';
import { isMainThread, Worker, workerData } from 'node:worker_threads';

export type ThreadRole = 'synthetic-web' | 'scanner';

/** Set by the bundle's build (mock-server/build.cjs); absent when running from the sources. */
declare const SERVER_BUNDLE: boolean | undefined;
export const RUNS_FROM_BUNDLE = typeof SERVER_BUNDLE !== 'undefined';

/** The bin's file name in dist/ (mock-server/build.cjs): every bundle of the package sits beside it. */
const BIN_FILE = 'lead-inbox-mock-server';
const THREAD_ENTRY = RUNS_FROM_BUNDLE
	? join(__dirname, BIN_FILE)
	: join(__dirname, '..', 'thread.cts');

/**
 * Heap limits per thread (MB). These threads allocate fast and keep little, so their young
 * generations are bounded (V8 would grow each on its own); the old generations hold what each
 * keeps: the synthetic web a few dozen rendered pages and its open requests, a scanner its scans
 * in flight and the bodies being read. How the sizes were chosen: bench/README.md ("Thread heaps").
 */
const HEAP_MB: Record<ThreadRole, { young: number; old: number }> = {
	'synthetic-web': { young: 8, old: 64 },
	scanner: { young: 8, old: 128 },
};

export function spawnThread(role: ThreadRole, data: object = {}): Worker {
	const options = {
		workerData: { role, ...data },
		resourceLimits: {
			maxYoungGenerationSizeMb: HEAP_MB[role].young,
			maxOldGenerationSizeMb: HEAP_MB[role].old,
		},
	};
	return RUNS_FROM_BUNDLE
		? new Worker(THREAD_ENTRY, options)
		: new Worker(
				`require('tsx/cjs/api').register(); require(${JSON.stringify(THREAD_ENTRY)}).runThread();`,
				{
					...options,
					eval: true,
				},
			);
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

/**
 * Sends items to another thread in batches: what is sent in one turn of the event loop goes as one
 * message (a search asks for a thousand scans at once; one message each cost more than the scans).
 */
export function batched<T>(send: (items: T[]) => void): (item: T) => void {
	let batch: T[] | undefined;
	return (item) => {
		if (batch) return void batch.push(item);
		batch = [item];
		setImmediate(() => {
			const items = batch!;
			batch = undefined;
			send(items);
		});
	};
}
