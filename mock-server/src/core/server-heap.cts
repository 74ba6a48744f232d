/**
 * Imported second by the command line (after the Node.js check): gives the server's own process
 * the young-generation size the server is measured with, and `gc` for returning memory when idle
 * (core/idle-memory.cts), by starting the same command again with V8's flags (process.execve: the
 * same process id, stdio and arguments; one more Node.js start-up that parses the bundle again,
 * about 0.1 s, before anything is listened on or opened; measured by bench/startup.bench.cts).
 *
 * Why: since Node 24, V8 sizes the young generation from the machine's memory (semi-spaces of
 * 64 MiB on a 24 GiB machine; 16 on Node 20) and, after a burst of searches, keeps it at that
 * size until its memory reducer runs 70 to 110 s later (65 MiB measured after a burst, up to 128).
 * The flag must be given at start (V8 sizes the heap once; v8.setFlagsFromString comes too late),
 * and a shebang cannot carry it portably (`env -S` is GNU and BSD only). Measured: bench/README.md
 * ("Memory after a burst, on Node 24").
 *
 * Left as started: a flag the user gave (node's arguments or NODE_OPTIONS; the missing ones are
 * still added), a platform without execve (Windows) and Node.js before 22.15. The helper
 * processes never load this file: they run their own bundle, with the flags spawnHelper gives them.
 */
const SERVER_SEMI_SPACE_MB = 8;

/**
 * V8's flags the server runs with: the young generation's size, and `gc` for giving memory back
 * when idle (core/idle-memory.cts).
 */
const FLAGS = [`--max-semi-space-size=${SERVER_SEMI_SPACE_MB}`, '--expose-gc'];

/**
 * glibc's allocator, for the relaunched server (and so its helpers, which inherit it): two malloc
 * arenas instead of one per thread up to 8 per core, each keeping what it freed. 3 MiB less at
 * idle (80 instead of 83 once idle, bench/README.md), no change in search speed measured. Other C
 * libraries ignore it; a user's own setting wins.
 */
const ALLOCATOR = { MALLOC_ARENA_MAX: '2' };

function relaunchWithServerHeap(): void {
	if (typeof process.execve !== 'function') return;
	const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
	// A flag the user gave is theirs (a semi-space size of their own, say).
	const missing = FLAGS.filter((flag) => !given.includes(flag.split('=')[0]));
	if (missing.length === 0) return;
	process.execve(
		process.execPath,
		[process.execPath, ...missing, ...process.execArgv, ...process.argv.slice(1)],
		{ ...ALLOCATOR, ...process.env },
	);
}

relaunchWithServerHeap();
