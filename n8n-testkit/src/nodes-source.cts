/**
 * The community node packages a test run installs into n8n: the paths given (--nodes: a packed .tgz
 * or a folder), and every other package the workflows' nodes come from, as the project installed
 * it; each refused before anything starts when it lacks the built files its package.json points n8n
 * at (a pack or a clone without `npm run build`: n8n would load nothing and say only
 * "Unrecognized credential type").
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { NodesSource } from './session.cjs';

interface Manifest {
	name?: string;
	n8n?: { nodes?: string[]; credentials?: string[] };
}

/** The files n8n loads, as the package names them (dist/...). */
const loadedFiles = (manifest: Manifest) => [
	...(manifest.n8n?.credentials ?? []),
	...(manifest.n8n?.nodes ?? []),
];

/** A tarball's package.json and file list, as npm packs them (under package/). */
function readTarball(tarball: string): { manifest: Manifest; files: Set<string> } {
	const tar = (...args: string[]) =>
		execFileSync('tar', ['-f', tarball, ...args], {
			encoding: 'utf8',
			maxBuffer: 64 * 1024 * 1024,
			stdio: ['ignore', 'pipe', 'pipe'],
		});
	try {
		const files = new Set(
			tar('-tz')
				.split('\n')
				.filter(Boolean)
				.map((path) => path.replace(/^package\//, '')),
		);
		return { manifest: JSON.parse(tar('-xzO', 'package/package.json')) as Manifest, files };
	} catch (error) {
		throw new Error(
			`${tarball} is not a packed npm package (tar could not read it: ${(error as Error).message.split('\n')[0]})`,
		);
	}
}

/** Refuses a package whose built files are missing, saying how to build it. */
function checkBuilt(source: NodesSource): void {
	const where = 'tarball' in source ? source.tarball : source.folder;
	let missing: string[];
	if ('tarball' in source) {
		const { manifest, files } = readTarball(source.tarball);
		missing = loadedFiles(manifest).filter((file) => !files.has(file));
	} else {
		const manifest = JSON.parse(
			readFileSync(join(source.folder, 'package.json'), 'utf8'),
		) as Manifest;
		missing = loadedFiles(manifest).filter((file) => !existsSync(join(source.folder, file)));
	}
	if (missing.length === 0) return;
	const fix =
		'tarball' in source
			? 'run npm run build in the package, then npm pack again'
			: 'run npm run build in it';
	throw new Error(
		`${where} has no ${missing.every((file) => file.startsWith('dist/')) ? 'dist/' : 'built nodes'} (n8n would load nothing from it: ${missing[0]} is missing${missing.length > 1 ? `, and ${missing.length - 1} more` : ''}): ${fix}`,
	);
}

/** n8n's own node packages, in every n8n: never installed by the runner. */
const N8N_OWN = new Set(['n8n-nodes-base', '@n8n/n8n-nodes-langchain']);

/** The community packages nodes come from (a type is "<package>.<node>"), n8n's own left out. */
export function communityPackages(types: Iterable<string>): string[] {
	const packages = new Set<string>();
	for (const type of types) {
		const at = type.lastIndexOf('.');
		if (at > 0 && !N8N_OWN.has(type.slice(0, at))) packages.add(type.slice(0, at));
	}
	return [...packages].sort();
}

/** A package's name, from its tarball or folder. */
function nameOf(source: NodesSource): string | undefined {
	if ('tarball' in source) return readTarball(source.tarball).manifest.name;
	return (JSON.parse(readFileSync(join(source.folder, 'package.json'), 'utf8')) as Manifest).name;
}

/**
 * The packages to install: each path given, then each package `used` that none of them is, from
 * the project's node_modules (said how to install when it is not there).
 */
export function nodesSources(paths: string[], used: string[], cwd: string): NodesSource[] {
	const given = paths.map((path) => {
		const full = resolve(cwd, path);
		if (!existsSync(full)) throw new Error(`no such file or folder: ${full}`);
		return statSync(full).isDirectory() ? { folder: full } : { tarball: full };
	});
	const names = new Set(given.map(nameOf));
	const installed = used
		.filter((name) => !names.has(name))
		.map((name) => {
			try {
				const manifest = createRequire(join(cwd, 'package.json')).resolve(`${name}/package.json`);
				return { folder: dirname(manifest) };
			} catch {
				throw new Error(
					`the workflows use nodes of ${name}, which is not installed in this project: npm install --save-dev ${name}, or pass --nodes (a packed .tgz or the package folder)`,
				);
			}
		});
	const sources = [...given, ...installed];
	sources.forEach(checkBuilt);
	return sources;
}
