import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { startSyntheticWebServer } from './routes.cjs';

/**
 * Serves the synthetic web from a worker thread, so rendering and sending the websites runs on
 * another core than the lead search that scans them. The thread runs this file: the compiled one
 * as it is, the TypeScript source (npm start, tests) through tsx.
 */
export interface SyntheticWebWorker {
	origin: string;
	stop(): Promise<void>;
}

export async function startSyntheticWebWorker(): Promise<SyntheticWebWorker> {
	const worker = __filename.endsWith('.cts')
		? new Worker(`require('tsx/cjs/api').register(); require(${JSON.stringify(__filename)});`, {
				eval: true,
			})
		: new Worker(__filename);
	const port = await new Promise<number>((resolve, reject) => {
		worker.once('message', (message: { port: number }) => resolve(message.port));
		worker.once('error', reject);
		worker.once('exit', (code) => reject(new Error(`synthetic web worker exited with ${code}`)));
	});
	worker.unref();
	return { origin: `http://127.0.0.1:${port}`, stop: async () => void (await worker.terminate()) };
}

if (!isMainThread && parentPort) {
	void startSyntheticWebServer().then(({ port }) => parentPort!.postMessage({ port }));
}
