/**
 * `n8n-testkit test [FILES|DIRS]` (and `lead-inbox-mock-server test`, the same command with the
 * Lead Inbox service given): runs a project's workflow tests in real n8n. Exit status: 0 all
 * passed, 1 a case failed, 2 a test file or an option is wrong (nothing run).
 */
import { join, resolve } from 'node:path';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { type ComparedN8n, checkUpgrade } from './compare/run.cjs';
import { mergeCoverage } from './coverage/model.cjs';
import { coverageLine, readCoverage, writeCoverage } from './coverage/report.cjs';
import { initTestFiles } from './init.cjs';
import { N8nNotFound } from './n8n/install.cjs';
import { nodesSources } from './nodes-source.cjs';
import {
	findTestFiles,
	loadTestFiles,
	n8nOf,
	packagesUsed,
	runWorkflowTests,
	type WorkflowTestOptions,
} from './run.cjs';
import type { WorkflowTestService } from './services/service.cjs';
import { installedServices, loadService, Services } from './services/services.cjs';
import { stopOnSignals } from './stop-on-signal.cjs';
import { watchWorkflowTests } from './watch.cjs';

const usage = (setup: CommandSetup) => `Usage: ${setup.program} [FILES|DIRS...] [options]

Runs workflow test files (*.test.yaml, *.test.yml, *.test.json; default: those under the current
folder) in real n8n: nodes of other services stubbed or answered by the test's mocks, those of a
service simulator installed (--service) run against it. See docs/testing-workflows.md.

Options:
  --n8n SPEC      the n8n to run on: an installed n8n (its bin, e.g. $(which n8n), or the folder
                  holding node_modules/n8n), or a version to install into a cache the first time
                  (e.g. 2.40.7). Default: ./node_modules/.bin/n8n
  --n8n-node PATH the Node.js n8n runs on: a node binary or its folder (default: the first
                  node on PATH, as n8n's own bin would pick it); with two --n8n, once for
                  both or once each, in the same order
  --compare       with --n8n given twice (--n8n 1.123.81 --n8n 2.40.7 --compare): the upgrade
                  check. The suite runs on each version (one pinned clock), each with its own
                  verdict, then what differs is listed case by case and node by node: items,
                  errors, a Webhook's answer, what stubs and mocks received, the services'
                  requests. --report, --coverage: a folder per version (and compare.json);
                  --junit, the GitHub summary: both versions and the check. Exit 3 when every
                  case passed on both but they differ
  --nodes PATH    a community node package to install into n8n: a packed .tgz or a package
                  folder (repeatable; default: each package the workflows use, from
                  ./node_modules)
  --service MOD   a service simulator to run those nodes against: a module exporting
                  workflowTestService() (repeatable; packages the project installed that name
                  one in their package.json join by themselves)
  --junit FILE    also write a JUnit XML report
  --show          print what each case did under its line, passed or not: each node's items
                  per run (the count and the first), what stubbed nodes would have sent, the
                  Webhook's answer, sub-workflows, the requests each service got
  --report DIR    write the same per case as JSON (DIR/<test file>/<nn>-<case>.json)
  --coverage DIR  workflow coverage: which nodes ran and which outputs items crossed, per workflow
                  and case; a line per workflow, DIR/coverage.json and DIR/index.html (a page
                  per workflow, drawn as n8n lays it out)
  --coverage-min nodes=N,branches=N,nowhere=N
                  exit 1 when all workflows together cover less (percentages), or when more
                  than N outputs connected to nothing carried items (nowhere=0: none may)
  --shard i/n     run only this share of the test files (files in path order, dealt out in
                  turn): n CI jobs with 1/n to n/n run every file once; merge their coverage
  --jobs N        test files run side by side (default: one per two cores)
  --watch         keep n8n running: rerun the test files a change touches (a test file, a
                  workflow or sub-workflow export), every file on Enter; q quits
  --n8n-memory MB start a worker's n8n afresh before a test file once it uses more than this
                  (its processes together; default 1536)
${setup.usage ?? ''}  -h, --help      this help

  ${setup.program} init WORKFLOW.json... [--out DIR] [--force] [--n8n ...]
                  writes a first test file for each exported workflow (DIR/<name>.test.yaml,
                  default the current folder) from one run in real n8n: it
                  passes as written; its comments and the lines printed say what to tighten
                  (to run the test files of a folder named init, give it as ./init)
  ${setup.program} coverage merge DIR|FILE... --out DIR
                  merges coverage of several runs (the same suite on several n8n lines, or
                  shards) into one coverage.json and its pages

Exit status: 0 all passed, 1 a case failed (or coverage below --coverage-min), 2 a test file or
an option is wrong (nothing run), 3 (--compare) every case passed on both versions but they
differ. A GitHub job summary is appended to $GITHUB_STEP_SUMMARY when
it is set.`;

/** The subcommands of `test`. */
const SUBCOMMANDS = new Set(['init', 'coverage']);

/**
 * The subcommand the arguments name, if any: its bare name always does (`test init` with no
 * workflow says how to give one, even beside a folder named init); a folder of that name is run
 * as test files when written as a path (./init, init/).
 */
function subcommandOf(argv: string[]): string | undefined {
	return SUBCOMMANDS.has(argv[0]) ? argv[0] : undefined;
}

/** Who runs the command: how users call it, and the services it brings. */
export interface CommandSetup {
	/** The command as users type it (`n8n-testkit test`, `lead-inbox-mock-server test`). */
	program: string;
	/** The services the caller gives (the Lead Inbox server's package gives its own). */
	services?: WorkflowTestService[];
	/** Help lines for the caller's own options (parsed before the rest reaches the runner). */
	usage?: string;
}

const RUNNER: CommandSetup = { program: 'n8n-testkit test' };

export async function testCommand(argv: string[], setup: CommandSetup = RUNNER): Promise<number> {
	const subcommand = subcommandOf(argv);
	if (subcommand === 'coverage') return coverageCommand(argv.slice(1), setup);
	if (subcommand === 'init') return initCommand(argv.slice(1), setup);
	const parsed = parsedArgs(argv, setup, {
		n8n: { type: 'string', multiple: true },
		nodes: { type: 'string', multiple: true },
		service: { type: 'string', multiple: true },
		'n8n-node': { type: 'string', multiple: true },
		compare: { type: 'boolean' },
		junit: { type: 'string' },
		show: { type: 'boolean' },
		report: { type: 'string' },
		coverage: { type: 'string' },
		'coverage-min': { type: 'string' },
		shard: { type: 'string' },
		jobs: { type: 'string' },
		watch: { type: 'boolean' },
		'n8n-memory': { type: 'string' },
	});
	if (typeof parsed === 'number') return parsed;
	const { values, positionals } = parsed;
	const jobs = wholeNumber(values.jobs, '--jobs', 1);
	const n8nMemoryMb = wholeNumber(values['n8n-memory'], '--n8n-memory', 64);
	if (jobs === null || n8nMemoryMb === null) return 2;
	const services = servicesOf(setup, values.service);
	if (typeof services === 'number') return services;
	const n8ns = n8nsOf(values.n8n ?? [], values['n8n-node'] ?? [], values.compare ?? false);
	if (typeof n8ns === 'number') return n8ns;
	const options = {
		paths: positionals,
		n8n: n8ns[0].n8n,
		n8nNode: n8ns[0].n8nNode,
		nodes: values.nodes,
		show: values.show,
		report: values.report,
		jobs,
		services,
		n8nMemoryMb,
	};
	try {
		if (values.watch) {
			const whole = (['junit', 'coverage', 'coverage-min', 'shard', 'compare'] as const).filter(
				(option) => values[option] !== undefined,
			);
			if (whole.length) {
				process.stderr.write(
					`Error: ${whole.map((o) => `--${o}`).join(', ')} report on a whole run: leave them out with --watch, which reruns files as they change\n`,
				);
				return 2;
			}
			return await watchCommand(options);
		}
		const stopped = stopOnSignals((line) => process.stderr.write(`${line}\n`));
		const whole = {
			...options,
			junit: values.junit,
			coverage: values.coverage,
			coverageMin: values['coverage-min'],
			shard: values.shard,
		};
		try {
			if (n8ns.length === 2) {
				const { n8n: _n8n, n8nNode: _n8nNode, ...rest } = whole;
				const [a, b] = n8ns as ComparedN8n[];
				return (await checkUpgrade(rest, [a, b])).exitCode;
			}
			return (await runWorkflowTests(whole)).exitCode;
		} finally {
			stopped();
		}
	} catch (error) {
		return n8nProblem(error);
	}
}

/**
 * The n8n versions to run on, each with its Node.js: one --n8n, or two with --compare (the upgrade
 * check). --n8n-node is given once (for every version) or once per --n8n, in the same order.
 */
function n8nsOf(
	n8n: string[],
	nodes: string[],
	compare: boolean,
): { n8n?: string; n8nNode?: string }[] | number {
	const fail = (message: string) => {
		process.stderr.write(`Error: ${message}\n`);
		return 2;
	};
	if (compare && n8n.length !== 2)
		return fail(
			`--compare checks an upgrade between two n8n versions: give --n8n twice (e.g. --n8n 1.123.81 --n8n 2.40.7 --compare), not ${n8n.length}`,
		);
	if (!compare && n8n.length > 1)
		return fail(
			'--n8n is given more than once: add --compare to run the suite on both and see what differs (two versions), or run once per version',
		);
	if (nodes.length > 1 && nodes.length !== n8n.length)
		return fail(
			`--n8n-node is given ${nodes.length} times for ${n8n.length} --n8n: give it once (every version runs on it) or once per --n8n, in the same order`,
		);
	if (!n8n.length) return [{ n8nNode: nodes[0] }];
	return n8n.map((one, i) => ({ n8n: one, n8nNode: nodes[nodes.length > 1 ? i : 0] }));
}

/** An option's whole number (undefined when not given), or null once its error is said. */
function wholeNumber(value: string | undefined, option: string, least: number) {
	if (value === undefined) return undefined;
	const number = Number(value);
	if (Number.isInteger(number) && number >= least) return number;
	process.stderr.write(
		`Error: ${option} must be a whole number of at least ${least}, not ${value}\n`,
	);
	return null;
}

/** `test --watch`: the same checks as a run's options, then the watch until q or Ctrl-C. */
async function watchCommand(
	options: Omit<WorkflowTestOptions, 'n8n'> & { n8n?: string },
): Promise<number> {
	const cwd = process.cwd();
	let nodes;
	try {
		const { loaded } = loadTestFiles(
			[...new Set(options.paths.flatMap((p) => findTestFiles(resolve(cwd, p))))],
			cwd,
			new Services(options.services),
		);
		nodes = nodesSources(options.nodes ?? [], packagesUsed(loaded), cwd);
	} catch (error) {
		process.stderr.write(`Error: --nodes: ${(error as Error).message}\n`);
		return 2;
	}
	const progress = (line: string) => process.stderr.write(`${line}\n`);
	const n8n = await n8nOf(options, cwd, progress);
	const abort = new AbortController();
	const stop = () => abort.abort();
	process.once('SIGINT', stop);
	process.once('SIGTERM', stop);
	try {
		return await watchWorkflowTests({
			...options,
			n8n,
			nodes,
			cwd,
			out: (line) => process.stdout.write(`${line}\n`),
			progress,
			input: process.stdin,
			signal: abort.signal,
		});
	} finally {
		process.off('SIGINT', stop);
		process.off('SIGTERM', stop);
	}
}

/** `test coverage merge A B ... --out DIR`: the union of coverage runs, with its pages. */
function coverageCommand(argv: string[], setup: CommandSetup): number {
	const parsed = parsedArgs(argv, setup, { out: { type: 'string' } });
	if (typeof parsed === 'number') return parsed;
	const [verb, ...inputs] = parsed.positionals;
	if (verb !== 'merge' || !inputs.length || !parsed.values.out) {
		process.stderr.write(
			`Error: usage: ${setup.program} coverage merge DIR|FILE... --out DIR (coverage folders or coverage.json files written by --coverage); to run the test files of a folder named coverage, give it as ./coverage\n`,
		);
		return 2;
	}
	let merged;
	try {
		merged = mergeCoverage(inputs.map((input) => readCoverage(input)));
	} catch (error) {
		process.stderr.write(`Error: ${(error as Error).message}\n`);
		return 2;
	}
	writeCoverage(parsed.values.out, merged);
	process.stdout.write(
		`Coverage of ${inputs.length} run(s) (${join(parsed.values.out, 'index.html')}):\n${merged.workflows.map((w) => `  ${coverageLine(w)}\n`).join('')}`,
	);
	return 0;
}

/** `test init WORKFLOW.json`: a first test file, from one run of the workflow. */
async function initCommand(argv: string[], setup: CommandSetup): Promise<number> {
	const parsed = parsedArgs(argv, setup, {
		out: { type: 'string' },
		force: { type: 'boolean' },
		n8n: { type: 'string' },
		'n8n-node': { type: 'string' },
		nodes: { type: 'string', multiple: true },
		service: { type: 'string', multiple: true },
	});
	if (typeof parsed === 'number') return parsed;
	if (!parsed.positionals.length) {
		process.stderr.write(
			`Error: usage: ${setup.program} init WORKFLOW.json... [--out DIR] [--force] (exported workflows); to run the test files of a folder named init, give it as ./init\n`,
		);
		return 2;
	}
	const services = servicesOf(setup, parsed.values.service);
	if (typeof services === 'number') return services;
	const stopped = stopOnSignals((line) => process.stderr.write(`${line}\n`));
	try {
		const { exitCode, results } = await initTestFiles({
			program: setup.program,
			services,
			workflows: parsed.positionals,
			out: parsed.values.out,
			force: parsed.values.force,
			n8n: parsed.values.n8n,
			n8nNode: parsed.values['n8n-node'],
			nodes: parsed.values.nodes,
			progress: (line) => process.stderr.write(`${line}\n`),
		}).finally(stopped);
		for (const result of results) {
			if (result.error) process.stderr.write(`Error: ${result.workflow}: ${result.error}\n`);
			if (!result.file) continue;
			process.stdout.write(`Wrote ${result.file}: it passes as written.\n`);
			if (result.notes.length)
				process.stdout.write(
					`  What it could not infer (also at the top of the file):\n${result.notes.map((n) => `  - ${n}\n`).join('')}`,
				);
		}
		if (exitCode === 2) process.stderr.write('Nothing was written.\n');
		return exitCode;
	} catch (error) {
		return n8nProblem(error);
	}
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * The arguments of a `test` subcommand with its options and -h: the values and positionals, or
 * the exit status when it should stop (help printed: 0; an unknown option, said with the usage: 2).
 */
function parsedArgs<T extends Options>(
	argv: string[],
	setup: CommandSetup,
	options: T,
): ReturnType<typeof parseArgs<{ args: string[]; allowPositionals: true; options: T }>> | number {
	let parsed;
	try {
		parsed = parseArgs({
			args: argv,
			allowPositionals: true,
			options: { ...options, help: { type: 'boolean', short: 'h' } },
		});
	} catch (error) {
		process.stderr.write(`Error: ${(error as Error).message}\n\n${usage(setup)}\n`);
		return 2;
	}
	if ((parsed.values as { help?: boolean }).help) {
		process.stdout.write(`${usage(setup)}\n`);
		return 0;
	}
	return parsed as never;
}

/**
 * The run's services: the caller's, each --service, then each the project installed (one of a
 * name already given is left out: lead-inbox-mock-server's own, say). A module that does not load
 * is a wrong option (exit 2).
 */
function servicesOf(setup: CommandSetup, modules: string[] = []): WorkflowTestService[] | number {
	const cwd = process.cwd();
	const services = [...(setup.services ?? [])];
	try {
		for (const module of modules) services.push(loadService(module, cwd));
		for (const module of installedServices(cwd)) {
			const service = loadService(module, cwd);
			if (!services.some((s) => s.name === service.name)) services.push(service);
		}
		new Services(services);
	} catch (error) {
		process.stderr.write(`Error: --service: ${(error as Error).message}\n`);
		return 2;
	}
	return services;
}

/** An n8n that cannot be found or installed is a wrong option (exit 2); anything else is thrown. */
function n8nProblem(error: unknown): number {
	if (error instanceof N8nNotFound || /^no n8n to run/.test((error as Error).message)) {
		process.stderr.write(`Error: ${(error as Error).message}\n`);
		return 2;
	}
	throw error;
}
