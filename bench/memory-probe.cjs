'use strict';
/**
 * Loaded into the server and every helper process it starts (NODE_OPTIONS="--require <this file>",
 * set by bench/burst-memory.bench.cts with BENCH_MEMORY_PARTS=1): on SIGUSR2 the process writes
 * where its memory is, as V8 and Node see it, to <BENCH_MEMORY_PROBE_DIR>/<pid>.json. The bench
 * adds what only /proc knows (PSS, the mapped node binary, the C allocator's share).
 */
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');
const v8 = require('node:v8');

const dir = process.env.BENCH_MEMORY_PROBE_DIR;
const MiB = 1024 * 1024;
if (dir) {
	process.on('SIGUSR2', () => {
		const usage = process.memoryUsage();
		const spaces = Object.fromEntries(
			v8
				.getHeapSpaceStatistics()
				.map((space) => [space.space_name, space.physical_space_size / MiB]),
		);
		const heap = v8.getHeapStatistics();
		writeFileSync(
			join(dir, `${process.pid}.json`),
			JSON.stringify({
				role: process.env.LEAD_INBOX_MOCK_SERVER_HELPER ?? 'server',
				heapCommitted: heap.total_physical_size / MiB,
				heapUsed: usage.heapUsed / MiB,
				external: usage.external / MiB,
				arrayBuffers: usage.arrayBuffers / MiB,
				mallocedNow: heap.malloced_memory / MiB,
				spaces,
			}),
		);
	});
}
