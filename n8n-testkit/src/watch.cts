/**
 * `test --watch`: the inner loop. The workers' n8n processes stay up between passes (hosts.cts),
 * so a rerun pays only for the cases. Test files are run once, then again when a file they read
 * changes (the test file, its workflow's export, a sub-workflow's export) or appears; Enter runs
 * every file, q quits.
 *
 * A change is found by content, not by the event alone: after any event in a watched folder the
 * files are loaded again (cheap: YAML and JSON) and a file reruns when what it reads differs from
 * what it last ran with. Editors that save through a temporary file and a rename, or touch a file
 * without changing it, cause no rerun. Folders are watched one by one (Node's fs.watch, no
 * dependency), never recursively: a project folder's node_modules would cost thousands of watches.
 */
import { createHash } from 'node:crypto';
import { type FSWatcher, existsSync, readdirSync, readFileSync, statSync, watch } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describeProblem, type LoadedTestFile } from './file/load.cjs';
import { HostPool } from './hosts.cjs';
import type { N8nInstall } from './n8n/install.cjs';
import { summaryLines } from './report/console.cjs';
import { findTestFiles, loadTestFiles, runFiles, type WorkflowTestOptions } from './run.cjs';
import { Services } from './services/services.cjs';
import type { NodesSource } from './session.cjs';

export interface WatchOptions
	extends Pick<
		WorkflowTestOptions,
		'paths' | 'jobs' | 'show' | 'report' | 'services' | 'n8nMemoryMb'
	> {
	n8n: N8nInstall;
	nodes: NodesSource[];
	cwd: string;
	out: (line: string) => void;
	progress: (line: string) => void;
	/** Keys: Enter runs every file, q quits (a terminal in raw mode, or lines from a pipe). */
	input: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (raw: boolean) => unknown };
	/** Ends the watch as q does (the command aborts it on SIGINT and SIGTERM). */
	signal?: AbortSignal;
}

/** Waits between a change and its rerun, so a save's several events make one pass. */
const SETTLE_MS = 100;

/**
 * Watches until q, end of input or the signal; resolves 1 when a file failed its last run or does
 * not load, else 0.
 */
export async function watchWorkflowTests(options: WatchOptions): Promise<number> {
	const { cwd, out } = options;
	const paths = options.paths.length ? options.paths : ['.'];
	const services = new Services(options.services);
	const pool = new HostPool({
		n8n: options.n8n,
		nodes: options.nodes,
		work: join(tmpdir(), `lead-inbox-workflow-tests-${process.pid}`),
		memoryLimitMb: options.n8nMemoryMb,
		progress: options.progress,
	});
	/** What each file read when it last ran (or its problems, when it did not load). */
	const ran = new Map<string, string>();
	/** Files whose last run failed, or that do not load: the exit status when the watch ends. */
	const failing = new Set<string>();
	const watchers = new Map<string, FSWatcher>();
	let running: Promise<void> | undefined;
	let queued: 'changed' | 'all' | undefined;
	let settle: NodeJS.Timeout | undefined;
	let stop: () => void = () => undefined;
	const stopped = new Promise<void>((resolve) => (stop = resolve));
	let quitting = false;

	const pass = async (which: 'changed' | 'all') => {
		const started = Date.now();
		const found = [...new Set(paths.flatMap((p) => findTestFiles(resolve(cwd, p))))].filter(
			existsSync,
		);
		const { loaded, problems } = loadTestFiles(found, cwd, services);
		// Fingerprints taken before the run: a change saved while it runs reruns the file after it.
		const prints = new Map(loaded.map((t) => [t.file, fingerprint(t, cwd)]));
		const due = loaded.filter((t) => which === 'all' || ran.get(t.file) !== prints.get(t.file));
		// A file with problems is told once per version of it; it runs once they are fixed.
		const problemPrints = new Map(
			[...new Set(problems.map((p) => p.file))].map((file) => [
				file,
				problemPrint(file, problems, cwd),
			]),
		);
		const wrong = [...problemPrints.keys()].filter(
			(file) => which === 'all' || ran.get(file) !== problemPrints.get(file),
		);
		for (const file of wrong) ran.set(file, problemPrints.get(file)!);
		if (!due.length && !wrong.length) {
			if (which === 'all' && !found.length)
				out(
					`\nNo test files (*.test.yaml, *.test.yml, *.test.json) under ${paths.join(' ')} yet: watching for them. q: quit.`,
				);
			watchFolders(loaded, found);
			return;
		}
		out('');
		out(
			which === 'all'
				? `Running all ${loaded.length} test file(s)${wrong.length ? ` that load, of ${found.length} found` : ''}`
				: `Running ${due.length} changed test file(s): ${due.map((t) => t.file).join(', ') || 'none'}`,
		);
		for (const problem of problems.filter((p) => wrong.includes(p.file)))
			out(describeProblem(problem));
		if (wrong.length)
			out(`${wrong.length} test file(s) with problems: not run until they are fixed.`);
		const results = await runFiles(pool, due, options);
		for (const test of due) ran.set(test.file, prints.get(test.file)!);
		for (const file of failing) if (!found.includes(resolve(cwd, file))) failing.delete(file);
		for (const result of results)
			if (result.cases.some((c) => !c.passed)) failing.add(result.file);
			else failing.delete(result.file);
		for (const file of problems.map((p) => p.file)) failing.add(file);
		if (results.length) for (const line of summaryLines(results, Date.now() - started)) out(line);
		const memory = pool.memory();
		out(
			`\nWatching ${found.length} test file(s) and the workflows they run${memory.length ? ` (n8n: ${memory.map((b) => `${Math.round(b / 1048576)} MB`).join(', ')})` : ''}. Enter: run all, q: quit.`,
		);
		watchFolders(loaded, found);
	};

	/** Runs a pass, or queues one (at most one waits: a wider one wins) while one runs. */
	const schedule = (which: 'changed' | 'all') => {
		if (quitting) return;
		if (running) {
			queued = queued === 'all' || which === 'all' ? 'all' : 'changed';
			return;
		}
		running = pass(which)
			.catch((error: Error) => out(`The run failed: ${error.message}`))
			.finally(() => {
				running = undefined;
				const next = queued;
				queued = undefined;
				if (next) schedule(next);
			});
	};
	const changed = () => {
		clearTimeout(settle);
		settle = setTimeout(() => schedule('changed'), SETTLE_MS);
	};

	/** Watches the folders the test files and the workflows they read are in, and the roots. */
	const watchFolders = (loaded: LoadedTestFile[], found: string[]) => {
		const folders = new Set<string>();
		for (const path of paths.map((p) => resolve(cwd, p)))
			for (const folder of foldersUnder(path)) folders.add(folder);
		for (const file of [...found, ...loaded.flatMap((t) => readsOf(t))])
			folders.add(dirname(resolve(cwd, file)));
		for (const [folder, watcher] of watchers)
			if (!folders.has(folder)) {
				watcher.close();
				watchers.delete(folder);
			}
		for (const folder of folders) {
			if (watchers.has(folder) || !existsSync(folder)) continue;
			const watcher = watch(folder, changed);
			// A folder removed while watched ends its watch; the next pass watches what is there.
			watcher.on('error', () => {
				watcher.close();
				watchers.delete(folder);
			});
			watchers.set(folder, watcher);
		}
	};

	const quit = () => {
		if (quitting) return;
		quitting = true;
		if (running) out('Quitting once the files running now end.');
		stop();
	};
	const keys = (chunk: Buffer | string) => {
		const text = chunk.toString();
		// q (or Ctrl-C / Ctrl-D in a raw terminal) quits; Enter runs every file.
		if (/[q\u0003\u0004]/i.test(text)) quit();
		else if (/[\r\n]/.test(text)) schedule('all');
	};
	const raw = options.input.isTTY && options.input.setRawMode;
	if (raw) options.input.setRawMode?.(true);
	options.input.on('data', keys);
	options.input.on('end', quit);
	options.input.resume?.();
	options.signal?.addEventListener('abort', quit);

	schedule('all');
	await stopped;
	clearTimeout(settle);
	options.input.off('data', keys);
	options.input.off('end', quit);
	options.input.pause?.();
	if (raw) options.input.setRawMode?.(false);
	for (const watcher of watchers.values()) watcher.close();
	await running;
	await pool.close();
	await services.close();
	return failing.size ? 1 : 0;
}

/** The files a test file reads: itself, its workflow's export and its sub-workflows' exports. */
const readsOf = (test: LoadedTestFile): string[] => [
	test.file,
	test.workflowPath,
	...test.subWorkflows.map((s) => s.file),
];

/** What a test file read, by content: it reruns when this changes. */
function fingerprint(test: LoadedTestFile, cwd: string): string {
	const hash = createHash('sha256');
	for (const file of readsOf(test)) {
		hash.update(`${file}\0`);
		try {
			hash.update(readFileSync(resolve(cwd, file)));
		} catch {
			hash.update('(gone)');
		}
	}
	return hash.digest('hex');
}

/** A file with problems, by its problems: told again only when they change. */
const problemPrint = (file: string, problems: { file: string }[], cwd: string): string =>
	`problems:${createHash('sha256')
		.update(JSON.stringify(problems.filter((p) => p.file === file)))
		.update(existsSync(resolve(cwd, file)) ? readFileSync(resolve(cwd, file)) : '')
		.digest('hex')}`;

/** A root and its folders, as findTestFiles walks them (no node_modules, no dot folders). */
function foldersUnder(path: string): string[] {
	if (!existsSync(path) || !statSync(path).isDirectory()) return [dirname(path)];
	return [
		path,
		...readdirSync(path, { withFileTypes: true })
			.filter((e) => e.isDirectory() && e.name !== 'node_modules' && !e.name.startsWith('.'))
			.flatMap((e) => foldersUnder(join(path, e.name))),
	];
}
