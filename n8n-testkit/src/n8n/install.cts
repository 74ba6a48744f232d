/**
 * Where the n8n a test runs on comes from (--n8n): an installed n8n (its bin, or a folder holding
 * it), or a version, installed into a cache the first time as the project's own suite installs it.
 */
import { execFile } from 'node:child_process';
import {
	existsSync,
	mkdirSync,
	readFileSync,
	realpathSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { majorOf } from './lines.cjs';

const run = promisify(execFile);

/** An installed n8n and the Node.js it runs on. */
export interface N8nInstall {
	version: string;
	/** n8n's package folder (…/node_modules/n8n). */
	packageDir: string;
	/** Its CLI script (…/node_modules/n8n/bin/n8n). */
	bin: string;
	/** The folder of the `node` binary it runs on. */
	nodeBin: string;
}

/** The n8n package in `root`/node_modules, run on the Node.js in `nodeBin`. */
export function installAt(root: string, nodeBin: string): N8nInstall {
	const packageDir = join(root, 'node_modules', 'n8n');
	const { version } = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
		version: string;
	};
	return { version, packageDir, bin: join(packageDir, 'bin', 'n8n'), nodeBin };
}

/**
 * The cache the runner installs n8n versions into: N8N_TESTKIT_CACHE (LEAD_INBOX_N8N_CACHE, its
 * name before the runner had a package of its own, is still read), or ~/.cache/n8n-testkit.
 */
export const defaultCache = (): string =>
	process.env.N8N_TESTKIT_CACHE ??
	process.env.LEAD_INBOX_N8N_CACHE ??
	join(homedir(), '.cache', 'n8n-testkit');

const VERSION = /^\d+\.\d+\.\d+$/;

/**
 * The Node.js an installed n8n runs on by default: the first `node` on PATH, as the n8n bin's
 * `#!/usr/bin/env node` would pick it.
 */
function nodeOnPath(): string | undefined {
	return (process.env.PATH ?? '')
		.split(delimiter)
		.find((dir) => dir && existsSync(join(dir, 'node')) && statSync(join(dir, 'node')).isFile());
}

/** --n8n-node: a node binary or the folder holding one. */
function nodeFolder(path: string): string {
	const full = resolve(path);
	if (existsSync(join(full, 'node'))) return full;
	if (existsSync(full) && statSync(full).isFile()) return dirname(full);
	throw new N8nNotFound(
		`--n8n-node ${path}: no node binary there (give the node binary or its folder)`,
	);
}

export class N8nNotFound extends Error {}

/**
 * Finds the n8n `spec` names: a version (1.123.81) is installed into the cache on first use; a
 * path is an installed n8n (its bin, node_modules/.bin/n8n, or a folder holding node_modules/n8n).
 */
export async function resolveN8n(
	spec: string,
	options: { cache?: string; progress?: (line: string) => void; node?: string } = {},
): Promise<N8nInstall> {
	const install = await findN8n(spec, options);
	await checkDatabaseDriver(install);
	return install;
}

/** Loads n8n's sqlite3 as n8n would, on its Node: prints the Node version and any load error. */
const LOAD_SQLITE3 = `
let error = null;
try { require(require.resolve('sqlite3', { paths: [process.argv[1]] })); }
catch (e) { error = String(e && e.message || e).split('\\n')[0]; }
process.stdout.write(JSON.stringify({ node: process.versions.node, error }));
`;

/**
 * n8n's database driver (sqlite3, a native module) loads on the Node that runs n8n: said in one
 * line before anything waits on n8n, instead of a minute's start ending in n8n's stack trace (an
 * install whose sqlite3 was never built: npm 12 runs no install script package.json has not
 * allowed; or built for another Node).
 */
async function checkDatabaseDriver(install: N8nInstall): Promise<void> {
	let outcome: { node: string; error: string | null };
	try {
		const { stdout } = await run(join(install.nodeBin, 'node'), [
			'-e',
			LOAD_SQLITE3,
			install.packageDir,
		]);
		outcome = JSON.parse(stdout) as typeof outcome;
	} catch {
		return; // n8n's own start says what is wrong with a Node that cannot run this
	}
	if (!outcome.error) return;
	const root = dirname(dirname(install.packageDir));
	throw new N8nNotFound(
		`n8n ${install.version} at ${install.packageDir} cannot open its database: sqlite3 is not built for Node ${outcome.node} (${outcome.error}). Build it with that Node: cd ${root} && npm rebuild sqlite3 (npm 12 runs no install script that package.json's "allowScripts" does not allow: add "sqlite3": true there), or give --n8n a version to install (e.g. --n8n ${install.version})`,
	);
}

async function findN8n(
	spec: string,
	options: { cache?: string; progress?: (line: string) => void; node?: string },
): Promise<N8nInstall> {
	const nodeBin = options.node
		? nodeFolder(options.node)
		: (nodeOnPath() ?? dirname(process.execPath));
	if (VERSION.test(spec)) {
		const root = join(options.cache ?? defaultCache(), `n8n-${spec}`);
		if (!existsSync(join(root, '.installed'))) {
			options.progress?.(`installing n8n ${spec} into ${root} (a few minutes, once)`);
			await installVersion(spec, root);
		}
		return installAt(root, nodeBin);
	}
	if (/^(docker|podman):/.test(spec))
		throw new N8nNotFound(
			`--n8n ${spec}: container images are not supported yet; give an installed n8n (its bin or folder) or a version to install (e.g. --n8n 2.40.7)`,
		);
	const path = resolve(spec);
	if (!existsSync(path))
		throw new N8nNotFound(
			`--n8n ${spec}: no such file or folder; give an installed n8n (node_modules/.bin/n8n, or the folder holding node_modules/n8n) or a version to install (e.g. --n8n 2.40.7)`,
		);
	let dir = statSync(path).isDirectory() ? path : dirname(realpathSync(path));
	if (existsSync(join(dir, 'node_modules', 'n8n', 'package.json'))) return installAt(dir, nodeBin);
	for (; dir !== dirname(dir); dir = dirname(dir)) {
		const manifest = join(dir, 'package.json');
		if (
			existsSync(manifest) &&
			(JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === 'n8n'
		)
			return installAt(dirname(dirname(dir)), nodeBin);
	}
	throw new N8nNotFound(`--n8n ${spec}: found no n8n package there`);
}

/**
 * Installs n8n `version` into `root` with the npm on PATH. n8n-nodes-base depends on xlsx through
 * a tarball URL outside the registry: pinned from the registry. Install scripts are skipped (the
 * kafka client's downloads sources from the internet); then only the native modules n8n needs are
 * built: sqlite3, and on 2.x isolated-vm (its expression engine; 1.x runs its legacy one). npm 12
 * runs no dependency install script allowScripts does not approve.
 */
export async function installVersion(
	version: string,
	root: string,
	/**
	 * The tools to install with, first on PATH (folders, the node's last): that Node's npm, and its
	 * headers for the native builds. Default the running Node and the npm on PATH.
	 */
	tools: string[] = [],
): Promise<void> {
	const nodeBin = tools.at(-1);
	rmSync(root, { recursive: true, force: true });
	mkdirSync(root, { recursive: true });
	const native = majorOf(version) < 2 ? ['sqlite3'] : ['sqlite3', 'isolated-vm'];
	writeFileSync(
		join(root, 'package.json'),
		JSON.stringify({
			name: `n8n-app-${version}`,
			private: true,
			dependencies: { n8n: version },
			overrides: { xlsx: '0.18.5' },
			allowScripts: Object.fromEntries(native.map((name) => [name, true])),
		}),
	);
	// Addresses kept in the lockfile: an allowScripts approval needs them (this machine's npm config
	// may leave them out).
	const npmEnv: NodeJS.ProcessEnv = {
		// The native builds (node-gyp) on every core, unless the caller says otherwise.
		JOBS: 'max',
		...process.env,
		npm_config_omit_lockfile_registry_resolved: 'false',
	};
	if (nodeBin) {
		npmEnv.PATH = [...tools, process.env.PATH ?? ''].join(delimiter);
		npmEnv.npm_config_nodedir = dirname(nodeBin);
	}
	await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: root,
		env: npmEnv,
		maxBuffer: 64 * 1024 * 1024,
	});
	await run('npm', ['rebuild', ...native], { cwd: root, env: npmEnv, maxBuffer: 64 * 1024 * 1024 });
	// The native module loads on that Node, or the install is not done.
	await run(join(nodeBin ?? dirname(process.execPath), 'node'), [
		'-e',
		`require(${JSON.stringify(join(root, 'node_modules', 'sqlite3'))})`,
	]);
	writeFileSync(join(root, '.installed'), `${new Date().toISOString()}\n`);
}

/** `tsx install.cts VERSION ROOT [TOOLS]` (PATH-style list): what test/e2e/install-n8n.sh runs. */
if (require.main === module) {
	const [version, root, tools] = process.argv.slice(2);
	installVersion(version, root, tools ? tools.split(delimiter) : []).catch((error: Error) => {
		process.stderr.write(`${error.message}\n`);
		process.exit(1);
	});
}
