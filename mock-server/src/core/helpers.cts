/**
 * Helper processes of the server: the synthetic web and the website scanners. Each is a child
 * process of the server running the helpers' entry, thread.cts, told its role there: from the
 * bundles (the bin, or the in-process API's bundle beside it), its own bundle beside them,
 * dist/lead-inbox-mock-server-helper, which holds the helpers' code only; from the TypeScript
 * sources (npm start, tests), thread.cts through tsx.
 *
 * Processes, not worker threads: after a burst of large searches a worker thread that ends leaves
 * its native memory behind in the C allocator's arenas, never given back, while a process that
 * ends gives the system all of it. How much, measured: bench/README.md ("Memory that comes back").
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { constants, getPriority, setPriority } from 'node:os';
import { join } from 'node:path';

export type HelperRole = 'synthetic-web' | 'scanner';

/** Set by the bundle's build (mock-server/build.cjs); absent when running from the sources. */
declare const SERVER_BUNDLE: boolean | undefined;
export const RUNS_FROM_BUNDLE = typeof SERVER_BUNDLE !== 'undefined';

/** The helpers' bundle in dist/ (mock-server/build.cjs), beside every other bundle of the package. */
const HELPER_BUNDLE = 'lead-inbox-mock-server-helper';
const HELPER_ENTRY = RUNS_FROM_BUNDLE
	? join(__dirname, HELPER_BUNDLE)
	: join(__dirname, '..', 'thread.cts');
/** Where a helper finds its role and data. */
export const ROLE_VARIABLE = 'LEAD_INBOX_MOCK_SERVER_HELPER';

/**
 * Heap limits per helper (MB). These helpers allocate fast and keep little, so their young
 * generations are bounded (V8 would grow each on its own); the old generations hold what each
 * keeps: the synthetic web a few dozen rendered pages and its open requests, a scanner its scans
 * in flight and the bodies being read. How the sizes were chosen: bench/README.md ("Thread heaps").
 */
const HEAP_MB: Record<HelperRole, { young: number; old: number }> = {
	'synthetic-web': { young: 8, old: 64 },
	scanner: { young: 8, old: 128 },
};

/**
 * How much lower than the server's a helper's CPU priority is (its nice value is the server's plus
 * this). A site's time-out counts only the site's own time, as if it were another machine, and a
 * scan waiting for its scanner costs it nothing; but the synthetic web shares this machine's cores
 * with the scanners, and a scanner busy parsing took the CPU the web needed to answer in time: in a
 * burst of searches with the API in use meanwhile, 37 to 260 sites of 10,000 timed out once pages
 * were compressed (bench/README.md, "The helpers' own bundle"). At 5, none; a scanner still gets a
 * third of the share of a process at the server's priority (CFS weights 335 and 1024).
 */
const PRIORITY_BELOW_SERVER: Record<HelperRole, number> = { 'synthetic-web': 0, scanner: 5 };

/** A running helper, as its parent talks to it. */
export interface Helper extends EventEmitter {
	postMessage(message: unknown): void;
	/** Lets the server's process end while the helper runs (ref undoes it). */
	unref(): void;
	ref(): void;
	/** Ends the helper and resolves once it has exited. */
	terminate(): Promise<void>;
}

class ChildHelper extends EventEmitter implements Helper {
	private exited = false;

	constructor(private readonly child: ChildProcess) {
		super();
		child.on('message', (message) => this.emit('message', message));
		child.on('error', (error) => this.emit('error', error));
		child.on('exit', (code, signal) => {
			this.exited = true;
			this.emit('exit', code ?? signal);
		});
	}

	postMessage(message: unknown): void {
		if (!this.exited && this.child.connected) this.child.send(message as object);
	}

	unref(): void {
		this.child.unref();
		this.child.channel?.unref();
	}

	ref(): void {
		this.child.ref();
		this.child.channel?.ref();
	}

	async terminate(): Promise<void> {
		if (this.exited) return;
		// 'close': after the exit, once its channel and handle are closed too.
		const exited = new Promise<void>((resolve) => this.child.once('close', () => resolve()));
		// Held until it has exited: an unref'd helper would let the process end mid-close.
		this.child.ref();
		this.child.kill('SIGTERM');
		await exited;
	}
}

/**
 * glibc's allocator, for the helpers: every socket read is a 64 KiB buffer, and with thousands
 * of reads interleaved with small allocations, freed buffers left holes glibc kept (the scanner
 * held 100 MiB more after a burst than it used; malloc_trim gave it back). From 64 KiB up, an
 * allocation is its own mapping, returned when freed: 30 MiB less at a burst's peak, measured in
 * bench/README.md. Other C libraries ignore the variable; a user's own setting wins.
 */
const ALLOCATOR = { MALLOC_MMAP_THRESHOLD_: '65536' };

export function spawnHelper(role: HelperRole): Helper {
	const flags = [
		`--max-old-space-size=${HEAP_MB[role].old}`,
		`--max-semi-space-size=${HEAP_MB[role].young / 2}`,
	];
	const entry = RUNS_FROM_BUNDLE
		? [HELPER_ENTRY]
		: ['-e', `require('tsx/cjs/api').register(); require(${JSON.stringify(HELPER_ENTRY)});`];
	const child = spawn(process.execPath, [...flags, ...entry], {
		// The helper's messages go over the IPC channel; what it prints goes where the server's does.
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		serialization: 'advanced',
		env: { ...ALLOCATOR, ...process.env, [ROLE_VARIABLE]: role },
	});
	if (PRIORITY_BELOW_SERVER[role] && child.pid !== undefined) {
		try {
			setPriority(
				child.pid,
				Math.min(constants.priority.PRIORITY_LOW, getPriority() + PRIORITY_BELOW_SERVER[role]),
			);
		} catch {
			// A platform or sandbox that refuses: the helper runs at the server's priority.
		}
	}
	return new ChildHelper(child);
}

/** This process's role, when it is a helper started by spawnHelper. */
export function helperRole(): HelperRole | undefined {
	const role = process.env[ROLE_VARIABLE];
	if (!process.send || (role !== 'scanner' && role !== 'synthetic-web')) return undefined;
	return role;
}

/** The helper's side of the channel to its parent (in a helper process only). */
export const parentChannel = {
	postMessage(message: unknown): void {
		process.send?.(message as object);
	},
	on(event: 'message', listener: (message: never) => void): void {
		process.on(event, listener as (message: unknown) => void);
	},
};

/** A helper ends with its parent: when the channel closes (the server stopped, or was killed). */
export function endWithParent(): void {
	process.on('disconnect', () => process.exit(0));
	process.on('SIGTERM', () => process.exit(0));
}

/** How long a helper may take to say it is ready: it starts in well under a second. */
export const HELPER_START_MS = 30_000;

/**
 * Resolves with the helper's first message, or rejects when it fails before sending one, or sends
 * none within `withinMs` (then it is ended: a helper that lost its channel would otherwise run on,
 * and a search waiting for it would wait for ever).
 */
export function firstMessage<T>(helper: Helper, withinMs = HELPER_START_MS): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		const timer = setTimeout(() => {
			reject(new Error(`the helper process sent nothing within ${withinMs / 1000} s of its start`));
			void helper.terminate();
		}, withinMs).unref();
		const settle =
			<A extends unknown[]>(then: (...args: A) => void) =>
			(...args: A) => {
				clearTimeout(timer);
				then(...args);
			};
		helper.once('message', settle(resolve));
		helper.once('error', settle(reject));
		helper.once(
			'exit',
			settle((code) => reject(new Error(`helper process exited with ${code}`))),
		);
	});
}

/**
 * Sends items to another process in batches: what is sent in one turn of the event loop goes as
 * one message (a search asks for a thousand scans at once; one message each cost more than the
 * scans).
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
