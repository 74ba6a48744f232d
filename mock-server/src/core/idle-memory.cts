import type { FastifyInstance } from 'fastify';

/** How long without a request counts as idle: V8's own memory reducer waits 8 s. */
export const IDLE_MEMORY_QUIET_MS = 5000;

/**
 * Gives the server's memory back once it has had no request for `quietMs`: one full,
 * memory-reducing garbage collection (V8's "last resort" kind, which also shrinks the young
 * generation), then nothing until the next request.
 *
 * Why V8 does not do it alone: its memory reducer decides from the allocation rate it measured at
 * the last collections, and an idle server makes none, so the rate of the start-up or of the last
 * burst stands (`--trace-memory-reducer` prints "high alloc" every 8 s at idle) and the grown young
 * generation stays committed. Measured: the bin idles at 91 MiB RSS without this and 80 with it
 * (bench/README.md, "The server gives its memory back when idle").
 *
 * The collection takes 0.1-0.2 s, during which a request that arrives waits. It runs only after a
 * quiet period with nothing in flight, at most once per quiet period. It needs `gc` exposed: the
 * command line starts itself with --expose-gc (core/server-heap.cts); in a process that did not,
 * such as the in-process API's host, this does nothing: that memory is its host's to manage.
 */
export function returnMemoryWhenIdle(app: FastifyInstance, quietMs: number): void {
	const gc = (globalThis as { gc?: (options: object) => void }).gc;
	if (typeof gc !== 'function') return;
	let inFlight = 0;
	// Start-up left garbage too: the first quiet period after it counts.
	let used = true;
	const timer = setTimeout(function collect() {
		if (inFlight > 0 || !used) return;
		used = false;
		gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
	}, quietMs).unref();
	app.addHook('onRequest', (_request, reply, done) => {
		inFlight++;
		used = true;
		// 'close' comes once per answer, sent or abandoned.
		reply.raw.once('close', () => {
			if (--inFlight === 0) timer.refresh();
		});
		done();
	});
	app.addHook('onClose', (_app, done) => {
		clearTimeout(timer);
		done();
	});
}
