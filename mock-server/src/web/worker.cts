import { firstMessage, parentChannel, spawnHelper } from '../core/helpers.cjs';
import { startSyntheticWebServer } from './routes.cjs';

/**
 * Serves the synthetic web from a helper process, so rendering and sending the websites runs on
 * another core than the lead search and the scanner processes that fetch them.
 */
export interface SyntheticWebWorker {
	origin: string;
	stop(): Promise<void>;
}

export async function startSyntheticWebWorker(): Promise<SyntheticWebWorker> {
	const worker = spawnHelper('synthetic-web');
	const { port } = await firstMessage<{ port: number }>(worker);
	worker.unref();
	return { origin: `http://127.0.0.1:${port}`, stop: async () => await worker.terminate() };
}

/** The work of a synthetic-web thread (thread.cts): serve, and tell the parent the port. */
export function runSyntheticWebThread(): void {
	void startSyntheticWebServer().then(({ port }) => parentChannel.postMessage({ port }));
}
