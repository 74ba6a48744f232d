/**
 * Runs test files: every file checked first (a wrong one stops everything, exit 2), then files
 * side by side (`jobs` workers, each with an n8n of its own kept from file to file: hosts.cts),
 * each file on a server of its own, cases in a file one after another.
 * The command line (command.cts), --watch (watch.cts) and the package's API (runWorkflowTests)
 * all run here.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { CoverageCollector } from './coverage/collect.cjs';
import {
	belowThresholds,
	coverageLine,
	parseThresholds,
	type Thresholds,
	writeCoverage,
} from './coverage/report.cjs';
import {
	describeProblem,
	type FileProblem,
	loadTestFile,
	type LoadedTestFile,
	TestFileError,
} from './file/load.cjs';
import { outputNameMisfits } from './file/output-names.cjs';
import { namedOutputNodes } from './file/walk.cjs';
import { HostPool } from './hosts.cjs';
import { describedAt, describedNodes } from './n8n/descriptions.cjs';
import { type N8nInstall, resolveN8n } from './n8n/install.cjs';
import { communityPackages, nodesSources } from './nodes-source.cjs';
import { writeCaseReport } from './report/case-report.cjs';
import { caseLines, summaryLines } from './report/console.cjs';
import { detailLines } from './report/detail.cjs';
import { appendGithubSummary } from './report/github.cjs';
import { writeJunit } from './report/junit.cjs';
import type { FileResult } from './report/results.cjs';
import { type CaseResult, runCase } from './run-case.cjs';
import { Services } from './services/services.cjs';
import { type NodesSource, openSession } from './session.cjs';
import { parseShard, type Shard, shardOf } from './shard.cjs';
import type {
	WorkflowTestOptions as Options,
	WorkflowTestResult,
} from './types.cjs';

/** The runner's options: the API's, where `n8n` may also be an install already found. */
export type WorkflowTestOptions = Omit<Options, 'n8n'> & { n8n?: string | N8nInstall };

/** The test files a path names: itself, or those under a folder. */
export function findTestFiles(path: string): string[] {
	if (!existsSync(path)) return [path];
	if (!statSync(path).isDirectory()) return [path];
	return readdirSync(path, { withFileTypes: true })
		.filter((entry) => entry.name !== 'node_modules' && !entry.name.startsWith('.'))
		.sort((a, b) => a.name.localeCompare(b.name))
		.flatMap((entry) =>
			entry.isDirectory()
				? findTestFiles(join(path, entry.name))
				: /\.test\.(ya?ml|json)$/.test(entry.name)
					? [join(path, entry.name)]
					: [],
		);
}

export async function runWorkflowTests(options: WorkflowTestOptions): Promise<WorkflowTestResult> {
	const cwd = options.cwd ?? process.cwd();
	const out = options.out ?? ((line) => process.stdout.write(`${line}\n`));
	const progress = options.progress ?? ((line) => process.stderr.write(`${line}\n`));
	const started = Date.now();

	const paths = options.paths.length ? options.paths : ['.'];
	const problems: FileProblem[] = [];
	let shard: Shard | undefined;
	try {
		shard = options.shard === undefined ? undefined : parseShard(options.shard);
	} catch (error) {
		problems.push({ file: '--shard', path: '', message: (error as Error).message });
	}
	const found = [...new Set(paths.flatMap((p) => findTestFiles(resolve(cwd, p))))];
	const files = shard ? shardOf(found, shard, cwd) : found;
	if (shard)
		progress(
			`shard ${shard.index}/${shard.count}: ${files.length} of ${found.length} test file(s)`,
		);
	if (!found.length)
		problems.push({
			file: paths.join(' '),
			path: '',
			message: 'no test files (*.test.yaml, *.test.yml, *.test.json) there',
		});
	const services = new Services(options.services);
	const { loaded, problems: fileProblems } = loadTestFiles(files, cwd, services);
	problems.push(...fileProblems);
	let nodes: NodesSource[] | undefined;
	try {
		nodes = nodesSources(options.nodes ?? [], packagesUsed(loaded), cwd);
	} catch (error) {
		problems.push({ file: '--nodes', path: '', message: (error as Error).message });
	}
	let thresholds: Thresholds | undefined;
	try {
		thresholds = options.coverageMin ? parseThresholds(options.coverageMin) : undefined;
		if (thresholds && options.coverage === undefined)
			throw new Error('--coverage-min needs --coverage DIR (where the coverage is written)');
	} catch (error) {
		problems.push({ file: '--coverage-min', path: '', message: (error as Error).message });
	}
	const refuse = (found: FileProblem[]): WorkflowTestResult => {
		for (const p of found) out(describeProblem(p));
		out(`\n${found.length} problem(s) in the test files: nothing was run.`);
		return { exitCode: 2, problems: found, files: [] };
	};
	if (problems.length) return refuse(problems);

	const n8n = await n8nOf(options, cwd, progress);
	// Output names need n8n's node descriptions: read from its install, before n8n starts.
	const outputProblems = outputNameProblems(loaded, n8n, nodes!);
	if (outputProblems.length) return refuse(outputProblems);
	const coverage =
		options.coverage !== undefined ? new CoverageCollector(cwd, n8n.version) : undefined;
	const pool = new HostPool({
		n8n,
		nodes: nodes!,
		work: join(tmpdir(), `lead-inbox-workflow-tests-${process.pid}`),
		memoryLimitMb: options.n8nMemoryMb,
		progress,
	});
	let results: FileResult[];
	try {
		results = await runFiles(pool, loaded, { ...options, cwd, out, progress, coverage });
	} finally {
		await pool.close();
		await services.close();
	}

	for (const line of summaryLines(results, Date.now() - started)) out(line);
	const covered = await coverage?.result();
	let belowMin: string[] = [];
	if (covered) {
		const dir = resolve(cwd, options.coverage!);
		writeCoverage(dir, covered);
		const index = join(dir, 'index.html');
		out(`\nCoverage (${relative(cwd, index).startsWith('..') ? index : relative(cwd, index)}):`);
		for (const workflow of covered.workflows) out(`  ${coverageLine(workflow)}`);
		belowMin = thresholds ? belowThresholds(covered, thresholds) : [];
		for (const line of belowMin) out(line);
	}
	if (options.junit) writeJunit(resolve(cwd, options.junit), results);
	const summary = options.githubSummary ?? process.env.GITHUB_STEP_SUMMARY;
	if (summary) appendGithubSummary(summary, results, covered);
	const failed = results.some((f) => f.cases.some((c) => !c.passed)) || belowMin.length > 0;
	return {
		exitCode: failed ? 1 : 0,
		problems: [],
		files: results,
		...(covered ? { coverage: covered } : {}),
	};
}

/** The community packages the files' workflows (and their sub-workflows) use nodes of. */
export function packagesUsed(loaded: LoadedTestFile[]): string[] {
	return communityPackages(
		loaded.flatMap((f) =>
			[f.workflow, ...f.subWorkflows.map((s) => s.workflow)].flatMap((w) =>
				w.nodes.filter((n) => !n.disabled).map((n) => n.type),
			),
		),
	);
}

/** Loads test files: the ones that load, and every problem of the others (none is thrown). */
export function loadTestFiles(
	files: string[],
	cwd: string,
	services: Services,
): { loaded: LoadedTestFile[]; problems: FileProblem[] } {
	const loaded: LoadedTestFile[] = [];
	const problems: FileProblem[] = [];
	for (const file of files) {
		try {
			loaded.push(loadTestFile(file, cwd, services));
		} catch (error) {
			if (error instanceof TestFileError) problems.push(...error.problems);
			else if ((error as NodeJS.ErrnoException).code === 'ENOENT')
				problems.push({ file, path: '', message: 'no such file' });
			else throw error;
		}
	}
	return { loaded, problems };
}

/** What running files needs beside the pool: the options that shape a case's run and its report. */
interface RunContext
	extends Pick<WorkflowTestOptions, 'jobs' | 'show' | 'report' | 'detail' | 'clock'> {
	cwd: string;
	out: (line: string) => void;
	progress: (line: string) => void;
	coverage?: CoverageCollector;
}

/**
 * Runs test files on the pool's hosts, `jobs` files side by side (a worker per host), the cases of
 * a file one after another, each file on a server of its own; results in the files' order. A
 * file's cases are printed as they end.
 */
export async function runFiles(
	pool: HostPool,
	loaded: LoadedTestFile[],
	context: RunContext,
): Promise<FileResult[]> {
	const { cwd, out, coverage } = context;
	const jobs = Math.max(1, context.jobs ?? Math.floor(cpus().length / 2));
	const results: FileResult[] = [];
	let next = 0;
	const worker = async (w: number) => {
		while (next < loaded.length) {
			const i = next++;
			const test = loaded[i];
			const fileStarted = Date.now();
			const result: FileResult = {
				file: test.file,
				n8nVersion: pool.version,
				cases: [],
				durationMs: 0,
			};
			results[i] = result;
			let session;
			try {
				const host = await pool.hostFor(w, test);
				session = await openSession(test, host);
				for (const testCase of test.spec.cases) {
					context.progress(`[${test.file}] running "${testCase.name}"`);
					const caseStarted = Date.now();
					const outcome = await runCase(session, test, testCase, {
						detail:
							context.detail ||
							context.show ||
							context.report !== undefined ||
							coverage !== undefined,
						clock: context.clock,
					}).catch((error: Error) =>
						notRun(
							testCase.name,
							`the case could not run: ${reason(error)}`,
							Date.now() - caseStarted,
						),
					);
					if (coverage && outcome.detail)
						await coverage.addCase(test, host, testCase.name, outcome.detail);
					result.cases.push(outcome);
					for (const line of caseLines(test.file, outcome)) out(line);
					if (context.show && outcome.detail)
						for (const line of detailLines(outcome.detail)) out(line);
					if (context.report !== undefined)
						writeCaseReport(resolve(cwd, context.report), result, result.cases.length - 1);
				}
			} catch (error) {
				result.error = reason(error);
				for (const testCase of test.spec.cases.slice(result.cases.length)) {
					const outcome = notRun(testCase.name, `the test file could not run: ${result.error}`);
					result.cases.push(outcome);
					for (const line of caseLines(test.file, outcome)) out(line);
				}
			} finally {
				await session?.close().catch(() => undefined);
				result.durationMs = Date.now() - fileStarted;
			}
		}
	};
	await Promise.all(Array.from({ length: Math.min(jobs, loaded.length) }, (_, w) => worker(w)));
	return results;
}

/**
 * Why something failed, with the causes under it: fetch says only "fetch failed" and keeps the
 * reason (a refused or reset connection, which host and port) in its cause.
 */
function reason(error: unknown): string {
	const messages: string[] = [];
	for (let e = error as Error | undefined; e && messages.length < 4; e = e.cause as Error)
		messages.push(e.message ?? String(e));
	return messages.join(': ');
}

/** A case that could not run, reported failed with why. */
function notRun(name: string, message: string, durationMs = 0): CaseResult {
	return { name, passed: false, failures: [{ at: 'run', message }], durationMs, runs: 0 };
}

/** The outputs the files name that their nodes do not have, as n8n describes the nodes. */
function outputNameProblems(
	loaded: LoadedTestFile[],
	n8n: N8nInstall,
	nodes: NodesSource[],
): FileProblem[] {
	// Read only when a case names an output (n8n's descriptions take seconds to read).
	if (!loaded.some((f) => f.spec.cases.some((c) => namedOutputNodes(c).size))) return [];
	const described = describedNodes(n8n, nodes);
	return loaded.flatMap((f) =>
		outputNameMisfits(f.spec, f.workflow, f.subWorkflows, (node) =>
			describedAt(described, node.type, node.typeVersion),
		).map(({ at, message }) => f.problem(at, message)),
	);
}

/**
 * The n8n the options name: an install already found, one found or installed from `--n8n`, or
 * the project's own (node_modules/.bin/n8n).
 */
export async function n8nOf(
	options: Pick<WorkflowTestOptions, 'n8n' | 'n8nNode'>,
	cwd: string,
	progress: (line: string) => void,
): Promise<N8nInstall> {
	if (typeof options.n8n === 'object') return options.n8n;
	return await resolveN8n(options.n8n ?? defaultN8n(cwd), { progress, node: options.n8nNode });
}

/** The project's own n8n (node_modules/.bin/n8n), when --n8n is not given. */
function defaultN8n(cwd: string): string {
	const local = join(cwd, 'node_modules', '.bin', 'n8n');
	if (existsSync(local)) return local;
	throw new Error(
		'no n8n to run the workflows on: pass --n8n (an installed n8n, e.g. $(which n8n), or a version to install, e.g. 2.40.7)',
	);
}
