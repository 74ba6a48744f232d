import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { CACHE as E2E_CACHE } from '../e2e/n8n-app.cjs';
import { PODMAN_LIMITS, podman } from '../helpers/podman.cjs';
import { type JobOptions, jobMatrix, runWorkflowJob } from '../helpers/workflow-job.cjs';

/*
 * The CI and publish workflows' jobs, each run as a GitHub-hosted runner runs it (see
 * test/helpers/workflow-job.cts): a fresh clone of the commit under test, a fresh HOME,
 * setup-node's npm cache as a repeat run restores it, and only what the workflow itself installs.
 * What stands in for the runner's machine: `sudo`, and this machine's Node headers (a runner's
 * node-gyp downloads them).
 */

const ROOT = join(__dirname, '..', '..');
const WORKFLOWS = join(ROOT, '.github', 'workflows');
const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;

/** A stand-in's line that finds the real command behind it (PATH without the stand-ins' folder). */
const findReal = (command: string) =>
	`real="$(PATH="$(tr ':' '\\n' <<<"$PATH" | grep -vx "$RUNNER_STAND_INS" | paste -sd:)" command -v ${command})"`;

/** npm with `publish` made a dry run (nothing leaves this machine); the real npm for the rest. */
const DRY_RUN_NPM = [
	findReal('npm'),
	'if [ "$1" = publish ]; then shift; exec "$real" publish --dry-run "$@"; fi',
	'exec "$real" "$@"',
].join('\n');

/** The Node line publish.yml's jobs run on (its setup-node step). */
const PUBLISH_NODE = String(
	parse(readFileSync(join(WORKFLOWS, 'publish.yml'), 'utf8')).jobs.publish.steps.find(
		(step: { uses?: string }) => step.uses?.startsWith('actions/setup-node'),
	).with['node-version'],
);

/**
 * npx with the release jobs' own test runs skipped where .ci/run ran the whole suite on the same
 * Node line already (CI_RUN_NODE): those steps would repeat files of it. Everything else the jobs
 * do (install, build, lint, pack, publish) runs.
 */
const npxSkippingTestsAlreadyRun = (): Record<string, string> =>
	process.env.CI_RUN_NODE === PUBLISH_NODE
		? {
				npx: [
					`if [ "$1" = jest ]; then echo "jest $2: skipped, .ci/run ran it on Node ${PUBLISH_NODE} already"; exit 0; fi`,
					findReal('npx'),
					'exec "$real" "$@"',
				].join('\n'),
			}
		: {};

/** A job of publish.yml as a push of this version's tag starts it. */
const publishJob = (name: string, options: Partial<JobOptions> = {}) =>
	runWorkflowJob(join(WORKFLOWS, 'publish.yml'), name, {
		repository: ROOT,
		root,
		npmCache,
		github: {
			GITHUB_REF_NAME: `v${version}`,
			GITHUB_REF_TYPE: 'tag',
			GITHUB_ACTOR: 'lead-inbox-maintainer',
			GITHUB_REPOSITORY_OWNER: 'n8n-nodes-lead-inbox',
		},
		...options,
	});

let root: string;
/**
 * setup-node's npm cache (`cache: npm`, keyed on the lockfile): on every run after a lockfile's
 * first, the runner restores the cache its first run saved. This machine's own npm cache stands in
 * for it (npm run exports it as npm_config_cache), filled by the install of the same lockfile that
 * ran before this suite; an install from an empty cache is what .ci/run's own install does, cold.
 * Run outside npm, the jobs share a new, empty one.
 */
let npmCache: string;
const sharedNpmCache = process.env.npm_config_cache;
beforeAll(() => {
	npmCache = sharedNpmCache ?? mkdtempSync(join(tmpdir(), 'runner-npm-cache-'));
});
afterAll(() => {
	if (!sharedNpmCache) rmSync(npmCache, { recursive: true, force: true });
});
beforeEach(() => {
	root = mkdtempSync(join(tmpdir(), 'runner-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** The Node.js lines ci.yml's check job runs on: each supported line, from the server's floor. */
const CHECK_LINES = jobMatrix(
	parse(readFileSync(join(WORKFLOWS, 'ci.yml'), 'utf8')).jobs.check,
).node;

it('ci.yml, job "check", runs on every supported Node.js line, from the floor the packages declare', () => {
	const floor = (file: string) =>
		Number(JSON.parse(readFileSync(join(ROOT, file), 'utf8')).engines.node.match(/\d+/)[0]);
	const devFloor = Number(
		JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devEngines.runtime.version.match(
			/\d+/,
		)[0],
	);
	expect(floor('mock-server/package.json')).toBe(22);
	expect(devFloor).toBe(22);
	// 22 (the floor: node:sqlite without a flag since 22.13), 24 and 26, the LTS lines of today.
	expect(CHECK_LINES).toEqual(['22', '24', '26']);
});

/**
 * The Node line .ci/run itself runs everything on (CI_RUN_NODE, set by .ci/run): there the check
 * job would repeat, step for step, what .ci/run just did on the same line (npm 12, lints, build,
 * type-check, npm test), so it is skipped, saying why. Run alone (npm run test:github), every line runs.
 */
const ALREADY_RUN = process.env.CI_RUN_NODE;
const checkLine = (node: string) => (node === ALREADY_RUN ? it.skip : it);
if (ALREADY_RUN && CHECK_LINES.includes(ALREADY_RUN))
	console.log(
		`ci.yml, job "check" on Node ${ALREADY_RUN}: skipped, .ci/run ran the same steps on Node ${ALREADY_RUN} (npm 12) already`,
	);

describe.each(CHECK_LINES)('ci.yml, job "check" on Node %s', (node) => {
	checkLine(node)(
		'with npm 12: lints, layering, build, type-check and npm test pass (the files that need its system packages here)',
		async () => {
			const job = await runWorkflowJob(join(WORKFLOWS, 'ci.yml'), 'check', {
				repository: ROOT,
				root,
				npmCache,
				matrix: { node },
				github: { GITHUB_REF_NAME: 'main', GITHUB_EVENT_NAME: 'pull_request' },
				// The files that need what the job installs (Dovecot, openssl, the browser) and one
				// that holds a database on disk: the whole suite runs in .ci/run already, and a second
				// full run per line would cost many minutes of CI.
				env: { TEST_ONLY: '{connection-test,docs-page,inboxes}' },
			});
			expect(job.ran).toEqual([
				'actions/checkout@v4',
				'actions/setup-node@v4',
				"npm 12 (today's npm)",
				"System packages (Ubuntu's names)",
				'A browser for the docs page test',
				'npm install --no-audit --no-fund',
				'npm run lint',
				'npm run lint:server',
				'npm run check:layers',
				'npm run build',
				'npm run typecheck',
				'npm test',
			]);
			// The job's own Node and npm ran the suite, and npm 12 blocked no install script.
			expect(job.log).toMatch(new RegExp(`node v${node}\\.\\d+\\.\\d+, npm 12\\.`));
			expect(job.log).not.toMatch(/install scripts blocked|not covered by allowScripts/);
			expect(job.log).toMatch(/Test Suites:\s+3 passed, 3 total/);
			expect(job.log).not.toMatch(/Tests:.*failed/);
		},
	);
});

it('publish.yml, job "publish": on a version tag, checks and publishes with provenance (a dry run here)', async () => {
	// The one change: npm publish is a dry run (nothing leaves this machine).
	const job = await publishJob('publish', {
		standIns: { npm: DRY_RUN_NPM, ...npxSkippingTestsAlreadyRun() },
	});
	expect(job.ran).toEqual([
		'actions/checkout@v4',
		'Set up Node.js',
		'Install dependencies',
		"The tag is the package's version",
		"The nodes' own tests",
		'Release',
	]);
	// n8n-node release took its CI path: lint, build, then npm publish with provenance asked.
	expect(job.log).toContain('n8n-node lint');
	expect(job.log).toContain('n8n-node build');
	expect(job.log).toContain(`+ n8n-nodes-lead-inbox@${version}`);
	expect(job.log).toMatch(/dry-run/);
	expect(job.log).toMatch(/dist\/nodes\/FetchLeads\/FetchLeads\.node\.js/);
});

it('publish.yml, job "server-package": publishes the reference server from the same tag with provenance (a dry run here)', async () => {
	const job = await publishJob('server-package', {
		standIns: { npm: DRY_RUN_NPM, ...npxSkippingTestsAlreadyRun() },
	});
	expect(job.ran).toEqual([
		'actions/checkout@v4',
		'Set up Node.js',
		'Install dependencies',
		"The tag is the server package's version",
		"The in-process API's own tests",
		'Publish',
	]);
	const server = JSON.parse(readFileSync(join(ROOT, 'mock-server', 'package.json'), 'utf8'));
	expect(job.log).toContain(`+ lead-inbox-mock-server@${server.version}`);
	expect(job.log).toMatch(/dry-run/);
	// The bundle its bin and in-process API run from, built by prepack.
	expect(job.log).toMatch(/dist\/lead-inbox-mock-server-api/);
	expect(job.log).toMatch(/dist\/index\.d\.cts/);
});

it('publish.yml, job "runner-package": publishes the workflow test runner from the same tag with provenance (a dry run here)', async () => {
	const job = await publishJob('runner-package', {
		standIns: { npm: DRY_RUN_NPM, ...npxSkippingTestsAlreadyRun() },
	});
	expect(job.ran).toEqual([
		'actions/checkout@v4',
		'Set up Node.js',
		'Install dependencies',
		"The tag is the runner package's version",
		"The runner's own tests",
		'Publish',
	]);
	const runner = JSON.parse(readFileSync(join(ROOT, 'n8n-testkit', 'package.json'), 'utf8'));
	expect(job.log).toContain(`+ n8n-testkit@${runner.version}`);
	expect(job.log).toMatch(/dry-run/);
	// The bundle, its bin and the n8n clock, built by prepack; the schema editors load.
	expect(job.log).toMatch(/dist\/n8n-testkit-api/);
	expect(job.log).toMatch(/dist\/n8n-clock\.cjs/);
	expect(job.log).toMatch(/workflow-test\.schema\.json/);
});

/** What the image jobs' builds need from this machine: its limits, and the local Node base. */
const imageJob = (name: string) => {
	const base = process.env.IMAGE_TEST_BASE;
	if (!base) throw new Error('IMAGE_TEST_BASE is not set: run through npm run test:github');
	return publishJob(name, {
		imageBuildArgs: ['--network', 'host', ...PODMAN_LIMITS, '--build-arg', `NODE_IMAGE=${base}`],
	});
};
/** An image's configuration: the command it starts with, and its user. */
const inspect = async (image: string) =>
	JSON.parse(await podman('image', 'inspect', image, '--format', '{{json .Config}}')) as {
		Entrypoint: string[];
		User: string;
	};

it('publish.yml, job "image": builds the reference server image from the tag\'s sources, tagged with its version', async () => {
	const job = await imageJob('image');
	const tag = `ghcr.io/n8n-nodes-lead-inbox/lead-inbox-mock-server:${version}`;
	expect(job.log).toContain('would sign in to ghcr.io as lead-inbox-maintainer');
	expect(job.log).toContain(
		`would push ${tag}, ghcr.io/n8n-nodes-lead-inbox/lead-inbox-mock-server:latest`,
	);
	const config = await inspect(tag);
	expect([config.Entrypoint, config.User]).toEqual([
		['node', '/app/dist/lead-inbox-mock-server'],
		'1000:1000',
	]);
});

it('publish.yml, job "n8n-image": builds n8n with the tag\'s nodes, tagged with its version and n8n\'s', async () => {
	const job = await imageJob('n8n-image');
	const tags = [
		`ghcr.io/n8n-nodes-lead-inbox/n8n-lead-inbox:${version}`,
		`ghcr.io/n8n-nodes-lead-inbox/n8n-lead-inbox:${version}-n8n-2.40.7`,
		'ghcr.io/n8n-nodes-lead-inbox/n8n-lead-inbox:latest',
	];
	expect(job.log).toContain(`would push ${tags.join(', ')}`);
	const config = await inspect(tags[1]);
	expect([config.Entrypoint, config.User]).toEqual([
		['tini', '--', '/opt/lead-inbox/n8n-entrypoint.sh'],
		'node',
	]);
	// The nodes of this version, where n8n loads community packages from.
	const installed = await podman(
		'run',
		'--rm',
		...PODMAN_LIMITS,
		'--entrypoint',
		'node',
		tags[1],
		'-p',
		'require("/home/node/.n8n/nodes/node_modules/n8n-nodes-lead-inbox/package.json").version',
	);
	expect(installed).toBe(version);
});

it('publish.yml refuses a tag that is not the package version', async () => {
	await expect(
		runWorkflowJob(join(WORKFLOWS, 'publish.yml'), 'publish', {
			repository: ROOT,
			root,
			npmCache,
			github: { GITHUB_REF_NAME: 'v99.0.0', GITHUB_REF_TYPE: 'tag' },
			standIns: { npm: 'if [ "$1" = install ]; then exit 0; fi; exit 1' },
		}),
	).rejects.toThrow(/The tag v99\.0\.0 does not match package\.json's version/);
});

it('ci.yml, job "e2e": with the n8n apps restored from the cache, the suites run (one file of them here)', async () => {
	const job = await runWorkflowJob(join(WORKFLOWS, 'ci.yml'), 'e2e', {
		repository: ROOT,
		root,
		npmCache,
		github: { GITHUB_REF_NAME: 'main' },
		// A cache hit, as the second run of the job finds (the first installs them: the same
		// script .ci/run runs cold). Without one here, the apps are installed as on a first run.
		// The suite's cache is shared, not copied: test folders are per process (test/e2e/process-folders.cts).
		cacheHits: existsSync(E2E_CACHE) ? { '~/.cache/n8n-nodes-lead-inbox': E2E_CACHE } : {},
		// One file of the suite: the whole suite runs in .ci/run already.
		env: { E2E_ONLY: 'credential-test' },
	});
	// test:workflows runs last; E2E_ONLY leaves none of its file here.
	expect(job.ran.slice(-2)).toEqual(['npm run test:e2e', 'npm run test:workflows']);
	expect(job.log).toMatch(/credential-test\.e2e\.cts/);
	expect(job.log).toMatch(/Tests:\s+\d+ passed, \d+ total/);
});
