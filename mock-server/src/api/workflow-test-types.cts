/**
 * The workflow test runner's options and results (docs/testing-workflows.md), written out here so
 * the package's declarations stand on their own; the runner (src/runner/) uses the same types.
 */

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
	/** The nodes package: a packed .tgz or a package folder (default: the project's node_modules). */
	nodes?: string;
	/** Also writes a JUnit XML report there. */
	junit?: string;
	/** Appends a Markdown summary there (default $GITHUB_STEP_SUMMARY when set). */
	githubSummary?: string;
	/** Test files run side by side (default: one per two cores). */
	jobs?: number;
	/** Answers from recordings of the real services (the server's --replay). */
	replay?: string;
	/** Where paths are taken from (default the process's working folder). */
	cwd?: string;
	/** Each result line (default: stdout). */
	out?: (line: string) => void;
	/** Each progress line (default: stderr). */
	progress?: (line: string) => void;
}

export interface WorkflowTestFailure {
	/** Where in the case: expect.nodes.HubSpot.every.email */
	at: string;
	/** What was expected, what came, and the nearest item or request. */
	message: string;
}

export interface WorkflowTestCaseResult {
	name: string;
	passed: boolean;
	failures: WorkflowTestFailure[];
	durationMs: number;
	runs: number;
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
	/** 0 all passed, 1 a case failed, 2 a test file is wrong (nothing ran). */
	exitCode: 0 | 1 | 2;
	problems: WorkflowTestProblem[];
	files: WorkflowTestFileResult[];
}
