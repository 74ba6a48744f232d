import { isMainThread, Worker, workerData } from 'node:worker_threads';

/**
 * Worker threads of the server. In the bundle every thread runs the same file, so each thread is
 * told its role and a module starts its thread's work only for its own role. From the TypeScript
 * sources (npm start, tests) the thread loads the module through tsx.
 */
export type ThreadRole = 'synthetic-web' | 'scanner';

export function spawnThread(filename: string, role: ThreadRole, data: object = {}): Worker {
	const options = {
		workerData: { role, ...data },
		execArgv: process.env.MEMDBG ? ['-r', '/tmp/memdbg.cjs'] : undefined,
		// A small young generation: these threads allocate fast and keep little, and V8 would
		// otherwise grow it to tens of MB per thread.
		resourceLimits: {
			maxYoungGenerationSizeMb: 4,
			maxOldGenerationSizeMb: Number(
				role === 'scanner' ? (process.env.OGS ?? 64) : (process.env.OGW ?? 48),
			),
		},
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
