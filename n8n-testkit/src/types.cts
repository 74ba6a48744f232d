/**
 * The workflow test runner's options and results (docs/testing-workflows.md), written out here so
 * the package's declarations stand on their own; the runner uses the same types.
 */
import type {
	WorkflowTestFailure,
	WorkflowTestService,
	WorkflowTestServiceDetail,
} from './services/service.cjs';

export type { WorkflowTestFailure, WorkflowTestServiceDetail };

export interface WorkflowTestOptions {
	/** Test files, or folders searched for *.test.yaml, *.test.yml and *.test.json (default: the working folder). */
	paths: string[];
	/**
	 * The n8n to run on: an installed n8n (its bin, or the folder holding node_modules/n8n), or a
	 * version installed into a cache the first time (e.g. '2.40.7'). Default ./node_modules/.bin/n8n.
	 */
	n8n?: string;
	/** The Node.js n8n runs on: a node binary or its folder (default: the first node on PATH). */
	n8nNode?: string;
	/**
	 * Community node packages to install into n8n: packed .tgz files or package folders. Every other
	 * package the workflows use nodes of is taken from the project's node_modules.
	 */
	nodes?: string[];
	/** Also writes a JUnit XML report there. */
	junit?: string;
	/** Appends a Markdown summary there (default $GITHUB_STEP_SUMMARY when set). */
	githubSummary?: string;
	/** Test files run side by side (default: one per two cores). */
	jobs?: number;
	/**
	 * The services workflows' nodes run against (besides the HTTP mocks): their simulators, given by
	 * the caller (lead-inbox-mock-server gives its own). The command adds --service and those the
	 * project installed (services/services.cts).
	 */
	services?: WorkflowTestService[];
	/** Where paths are taken from (default the process's working folder). */
	cwd?: string;
	/** Each result line (default: stdout). */
	out?: (line: string) => void;
	/** Each progress line (default: stderr). */
	progress?: (line: string) => void;
	/** Keeps what each case did in the result (`detail`), as show, report and coverage do. */
	detail?: boolean;
	/**
	 * The instant a case's clock starts at when neither the case nor its file gives one (ISO 8601):
	 * the upgrade check pins one for both versions. Default: the machine's time as each case starts.
	 */
	clock?: string;
	/** Prints what each case did under its line, passed or not (`detail` is kept either way). */
	show?: boolean;
	/** Writes what each case did as JSON there: one file per case, under a folder per test file. */
	report?: string;
	/** Writes workflow coverage there: coverage.json, index.html and a page per workflow. */
	coverage?: string;
	/** Fails the run (exit 1) below these percentages: "nodes=100,branches=80". Needs `coverage`. */
	coverageMin?: string;
	/** "i/n": runs only this share of the test files (a CI matrix of n jobs runs each file once). */
	shard?: string;
	/**
	 * A worker's n8n is started afresh before a test file once it uses more memory than this (MB,
	 * its processes together; default 1536).
	 */
	n8nMemoryMb?: number;
}

/** A node in one run (or over a sub-workflow's executions): every run of it together. */
export interface WorkflowTestNodeDetail {
	/** How many times it ran. */
	runs: number;
	/** Items per output (index 0 the first output). */
	items: number[];
	/** The first few items per output (json). */
	first: Record<string, unknown>[][];
	/** Its error message, when it failed. */
	error?: string;
}

/** What one run did. */
/** A wait on time the runner moved past: the case's clock jumped from `from` to `to`. */
export interface WorkflowTestWaitSkip {
	/** The waiting node. */
	node: string;
	/** The execution's ID in n8n. */
	execution: string;
	/** ISO times: the case's clock before, and the wait's end, where it resumed (the clock moved there, or had passed it). */
	from: string;
	to: string;
	/** A wait for a request whose time limit passed with no request (a move of the clock past it, or a run's `resume: { timeout: true }`). */
	timeLimit?: true;
}

export interface WorkflowTestRunClock {
	/** ISO 8601, UTC. */
	start: string;
	end: string;
	/** The workflow's timezone (its settings, else UTC, the runner's n8n default). */
	timezone: string;
	/** The same instants in that zone, with its offset. */
	startLocal: string;
	endLocal: string;
}

export interface WorkflowTestRunDetail {
	/** waiting: an execution of the run waits for a request (a later run's resume sends it). */
	status: 'success' | 'error' | 'waiting';
	error?: { node?: string; message: string };
	/** The node an execution of the run waits at, for a run that ends waiting. */
	waiting?: { node: string; execution: string };
	/** Waits on time moved past during the run, in order. */
	skips?: WorkflowTestWaitSkip[];
	/** The case's clock as the run started and once it had ended: UTC, and in the workflow's zone. */
	clock?: WorkflowTestRunClock;
	/** For a run that resumed a waiting execution by a request: the node that waited. */
	resumed?: { node: string };
	nodes: Record<string, WorkflowTestNodeDetail>;
	/** What stubbed nodes a case reads `sent` of would have sent: how many, the first few. */
	sent?: Record<
		string,
		{
			items: number;
			first: Record<string, unknown>[];
			errors?: { item: number; parameter: string; message: string }[];
		}
	>;
	/** What the caller of the Webhook got, for a run started by a request. */
	response?: { status: number; headers: Record<string, string>; body: unknown };
}

/** What a case did, passed or not (with `show` or `report`). */
export interface WorkflowTestCaseDetail {
	runs: WorkflowTestRunDetail[];
	/** Per sub-workflow (by name): its executions in the case, together. */
	workflows?: Record<string, WorkflowTestRunDetail & { executions: number }>;
	/** What each service of the file got in the case (by its name): its requests and facts. */
	services?: Record<string, WorkflowTestServiceDetail>;
	/** The requests real nodes sent to other services, in order, with their answers (credentials masked). */
	http?: string[];
}



export interface WorkflowTestCaseResult {
	name: string;
	passed: boolean;
	failures: WorkflowTestFailure[];
	durationMs: number;
	runs: number;
	/** What the case did that production would not, though nothing it expects failed (a Schedule's run at a time it never fires). */
	warnings?: WorkflowTestFailure[];
	/** What the case did (with `show` or `report`). */
	detail?: WorkflowTestCaseDetail;
}

export interface WorkflowTestFileResult {
	file: string;
	n8nVersion: string;
	cases: WorkflowTestCaseResult[];
	durationMs: number;
	/** Why the file could not run at all (n8n did not start, say). */
	error?: string;
}

/** A problem in a test file: nothing runs while one is left. */
export interface WorkflowTestProblem {
	file: string;
	line?: number;
	path: string;
	message: string;
}

export interface WorkflowTestResult {
	/** 0 all passed, 1 a case failed (or coverage fell below coverageMin), 2 a test file is wrong (nothing ran). */
	exitCode: 0 | 1 | 2;
	problems: WorkflowTestProblem[];
	files: WorkflowTestFileResult[];
	/** With `coverage`: what coverage.json holds (docs/testing-workflows.md, Coverage). */
	coverage?: WorkflowTestCoverage;
}

/** An output of a node: the items that crossed it, all cases together and per case. */
export interface WorkflowTestOutputCoverage {
	index: number;
	/** As n8n shows it (true, Failed, done), or the index where n8n names none. */
	name: string;
	/** Items that crossed it, all cases together. */
	items: number;
	/** Per case (by its id, "file › case"): items that crossed it, for the cases where any did. */
	cases: Record<string, number>;
}

/** A node of a covered workflow, where the export draws it, and the cases it ran in. */
export interface WorkflowTestNodeCoverage {
	name: string;
	type: string;
	position: [number, number];
	/** Not counted: a disabled node never runs. */
	disabled?: boolean;
	/** A sub-node (a tool, a model, a memory) connected to its root node, not through main. */
	subNode?: boolean;
	/** The cases it ran in. */
	cases: string[];
	outputs: WorkflowTestOutputCoverage[];
	/**
	 * The names n8n shows for outputs the node may have beyond those known before a run (an
	 * outputs expression: Fetch Leads' Spend), for the outputs a run shows.
	 */
	outputNames?: string[];
	/** On Error is "Continue (using error output)": a run's last output is the error output. */
	errorOutput?: true;
	/**
	 * A node waiting for a request with a time limit (a Wait, a Form, a send-and-wait): its two
	 * outcomes, each a branch: resumed by a request, and timed out with none.
	 */
	outcomes?: WorkflowTestOutcomeCoverage[];
}

/** An outcome of a limited wait, and the cases it came about in (how many times in each). */
export interface WorkflowTestOutcomeCoverage {
	name: 'resumed by a request' | 'timed out';
	cases: Record<string, number>;
}

/** One workflow's (or sub-workflow's) coverage, with its drawing. */
export interface WorkflowTestWorkflowCoverage {
	name: string;
	/** The export, relative to the working folder. */
	file: string;
	nodes: { total: number; covered: number; missed: string[] };
	/**
	 * Outputs of a node with more than one: a branch when something is connected to it; an output
	 * connected to nothing is not a branch, and is listed in `nowhere` when items went into it.
	 */
	branches: { total: number; covered: number; missed: { node: string; output: string }[] };
	/** Outputs connected to nothing that items went into (an error output left unwired, say). */
	nowhere: { node: string; output: string; items: number }[];
	/** Every case that ran the workflow (for a sub-workflow: the cases that called it). */
	cases: string[];
	graph: {
		nodes: WorkflowTestNodeCoverage[];
		/** type: main, or the sub-node's kind (ai_tool, ai_languageModel...). */
		connections: { from: string; output: number; to: string; type: string }[];
	};
}

/** Workflow coverage (coverage.json): per workflow, its nodes and branches run, and its drawing. */
export interface WorkflowTestCoverage {
	format: number;
	/** The n8n lines the runs were on (several after a merge). */
	n8nVersions: string[];
	workflows: WorkflowTestWorkflowCoverage[];
}
