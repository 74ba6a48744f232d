import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parseDocument, type YAMLSeq } from 'yaml';
import { leadInboxService } from '../mock-server/src/workflow-tests/service.cjs';
import { DEFAULT_N8N_MEMORY_MB } from '../n8n-testkit/src/hosts.cjs';
import { childProcessesRss } from '../n8n-testkit/src/n8n/memory.cjs';
import { runWorkflowTests } from '../n8n-testkit/src/run.cjs';
import { watchWorkflowTests } from '../n8n-testkit/src/watch.cjs';
import { ALL_LINES, installOf } from '../test/e2e/n8n-app.cjs';
import { median } from './support.cjs';

/**
 * The inner loop of `test --watch`, and a worker's n8n over many files.
 *
 * Rerun: two one-case test files watched on one warm n8n (the inbox inventory: two list calls; the
 * dentists to HubSpot: a lead search whose ten websites the first pass scanned); each change to one of them is
 * timed from the save to the end of its pass (the "Watching" line), median and slowest of RUNS per
 * file.
 *
 * Memory: 20 test files (the examples' and the project's, in turn) run by one worker with the
 * default --n8n-memory; the n8n processes' resident size sampled every 200 ms: its peak, and how
 * many times the worker started a fresh n8n past the limit.
 */
const ROOT = join(__dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const LINES = (process.env.BENCH_N8N_LINES ?? '2.40.7').split(',');
const PROJECT = join(ROOT, 'test', 'workflow-tests', 'project');
const EXAMPLES = join(ROOT, 'examples', 'workflow-tests');

/** A copy of a test file in `dir`, its workflow path made absolute, only its first case kept. */
function copyTest(from: string, dir: string, name: string, firstCaseOnly: boolean): string {
	const doc = parseDocument(readFileSync(from, 'utf8'));
	doc.set('workflow', join(from, '..', String(doc.get('workflow'))));
	if (firstCaseOnly) (doc.get('cases') as YAMLSeq).items.splice(1);
	const file = join(dir, name);
	writeFileSync(file, doc.toString());
	return file;
}

async function benchRerun(version: string): Promise<void> {
	const line = ALL_LINES.find((l) => l.version === version)!;
	const dir = mkdtempSync(join(tmpdir(), 'bench-watch-'));
	const files = {
		'inbox inventory (two list calls)': copyTest(
			join(EXAMPLES, 'inbox-inventory.test.yaml'),
			dir,
			'inventory.test.yaml',
			true,
		),
		'dentists to HubSpot (a search, 10 websites scanned)': copyTest(
			join(PROJECT, 'tests', 'dentists-to-hubspot.test.yaml'),
			dir,
			'hubspot.test.yaml',
			true,
		),
	};
	let passes = 0;
	let lastMemory = '';
	const passEnded: (() => void)[] = [];
	const input = new PassThrough();
	const watching = watchWorkflowTests({
		services: [leadInboxService()],
		paths: [dir],
		n8n: installOf(line),
		nodes: [{ folder: ROOT }],
		cwd: dir,
		out: (text) => {
			if (text.includes('\u2717')) console.log(`    ${text}`);
			if (!text.startsWith('\nWatching ')) return;
			passes++;
			lastMemory = /\(n8n: ([^)]*)\)/.exec(text)?.[1] ?? '';
			passEnded.shift()?.();
		},
		progress: () => undefined,
		input,
	});
	const nextPass = () => new Promise<void>((resolve) => passEnded.push(resolve));
	try {
		await nextPass();
		const times: Record<string, number[]> = {};
		for (let i = 0; i < RUNS; i++)
			for (const [label, file] of Object.entries(files)) {
				const ended = nextPass();
				const started = performance.now();
				writeFileSync(file, `${readFileSync(file, 'utf8')}# change ${i}\n`);
				await ended;
				(times[label] ??= []).push(performance.now() - started);
			}
		for (const [label, values] of Object.entries(times))
			console.log(
				`  n8n ${version}, ${label}: rerun after a save ${(median(values) / 1000).toFixed(2)} s median, ${(Math.max(...values) / 1000).toFixed(2)} s slowest (${values.length} saves: ${values.map((v) => (v / 1000).toFixed(2)).join(', ')})`,
			);
		console.log(`  n8n ${version}: after ${passes} passes, n8n ${lastMemory}`);
	} finally {
		input.write('q');
		await watching;
		rmSync(dir, { recursive: true, force: true });
	}
}

async function benchMemory(version: string): Promise<void> {
	const line = ALL_LINES.find((l) => l.version === version)!;
	const dir = mkdtempSync(join(tmpdir(), 'bench-watch-memory-'));
	const sources = [
		...readdirSync(join(PROJECT, 'tests')).map((f) => join(PROJECT, 'tests', f)),
		...readdirSync(EXAMPLES).map((f) => join(EXAMPLES, f)),
	]
		.filter((f) => f.endsWith('.test.yaml'))
		// The Data Table lead pulls need n8n 2.x.
		.filter((f) => !(version.startsWith('1.') && f.includes('scheduled-lead-pull')))
		.sort();
	for (let i = 0; i < 20; i++)
		copyTest(
			sources[i % sources.length],
			dir,
			`${String(i + 1).padStart(2, '0')}.test.yaml`,
			false,
		);
	let peak = 0;
	// This process's children are the worker's n8n (and its task runner).
	const sample = setInterval(() => {
		peak = Math.max(peak, childProcessesRss(process.pid));
	}, 200);
	let fresh = 0;
	try {
		const result = await runWorkflowTests({
			services: [leadInboxService()],
			paths: [dir],
			n8n: installOf(line),
			nodes: [ROOT],
			cwd: dir,
			jobs: 1,
			out: () => undefined,
			progress: (text) => {
				if (text.includes('starting a fresh one')) fresh++;
			},
		});
		const cases = result.files.flatMap((f) => f.cases);
		console.log(
			`  n8n ${version}, 20 files (${cases.length} cases, ${cases.filter((c) => !c.passed).length} failed) on one worker, limit ${DEFAULT_N8N_MEMORY_MB} MB: n8n peak ${mb(peak)} MB, started afresh ${fresh} time(s)`,
		);
	} finally {
		clearInterval(sample);
		rmSync(dir, { recursive: true, force: true });
	}
}

const mb = (bytes: number) => Math.round(bytes / 1048576);

export async function benchWatch(): Promise<void> {
	console.log(
		`\n--watch: a one-case file's rerun after a save (${RUNS} saves each), and one worker's n8n over 20 files`,
	);
	for (const version of LINES) {
		await benchRerun(version);
		await benchMemory(version);
	}
}

if (require.main === module)
	void benchWatch().then(
		() => process.exit(0),
		(error: unknown) => {
			console.error(error);
			process.exit(1);
		},
	);
