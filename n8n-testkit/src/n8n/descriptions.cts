/**
 * n8n's node descriptions, read from disk before n8n starts: n8n's own nodes from the JSON files
 * its packages ship (dist/types/nodes.json, the files the editor is served), and the nodes package
 * under test by loading its node classes with the n8n install's Node.js and n8n-workflow, as n8n
 * itself would. Only what the runner checks is kept (names, versions, outputs).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { NodesSource } from '../session.cjs';
import type { N8nInstall } from './install.cjs';
import { atVersion } from './versions.cjs';

export interface DescribedNode {
	/** The type as a workflow names it (n8n-nodes-base.if). */
	type: string;
	version: number | number[];
	outputs?: unknown;
	outputNames?: string[];
}

/** n8n's packages of nodes, by the prefix their types carry in a workflow. */
const BUILT_IN = [
	{ prefix: 'n8n-nodes-base', dir: 'n8n-nodes-base' },
	{ prefix: '@n8n/n8n-nodes-langchain', dir: '@n8n/n8n-nodes-langchain' },
];

function builtIn(n8n: N8nInstall): DescribedNode[] {
	const modules = dirname(n8n.packageDir);
	return BUILT_IN.flatMap(({ prefix, dir }) => {
		const file = join(modules, dir, 'dist', 'types', 'nodes.json');
		if (!existsSync(file)) return [];
		const all = JSON.parse(readFileSync(file, 'utf8')) as {
			name: string;
			version: number | number[];
			outputs?: unknown;
			outputNames?: string[];
		}[];
		return all.map(({ name, version, outputs, outputNames }) => ({
			type: `${prefix}.${name}`,
			version,
			outputs,
			outputNames,
		}));
	});
}

/** Prints the package's node descriptions as JSON: run by the n8n install's node. */
const DESCRIBE = `
const { join } = require('node:path');
const dir = process.argv[1];
const manifest = require(join(dir, 'package.json'));
const out = [];
for (const file of (manifest.n8n && manifest.n8n.nodes) || []) {
	for (const Type of Object.values(require(join(dir, file)))) {
		if (typeof Type !== 'function') continue;
		const node = new Type();
		const versions = node.nodeVersions ? Object.values(node.nodeVersions) : [node];
		for (const { description: d } of versions)
			if (d && d.name)
				out.push({ type: manifest.name + '.' + d.name, version: d.version, outputs: d.outputs, outputNames: d.outputNames });
	}
}
process.stdout.write(JSON.stringify(out));
`;

function ofPackage(n8n: N8nInstall, nodes: NodesSource): DescribedNode[] {
	let dir = 'folder' in nodes ? nodes.folder : undefined;
	let unpacked: string | undefined;
	if ('tarball' in nodes) {
		unpacked = mkdtempSync(join(tmpdir(), 'lead-inbox-describe-'));
		execFileSync('tar', ['-xzf', nodes.tarball, '-C', unpacked], { stdio: 'ignore' });
		dir = join(unpacked, 'package');
	}
	try {
		const json = execFileSync(join(n8n.nodeBin, 'node'), ['-e', DESCRIBE, dir!], {
			encoding: 'utf8',
			maxBuffer: 16 * 1024 * 1024,
			stdio: ['ignore', 'pipe', 'pipe'],
			// The package's peer dependency, n8n-workflow, as n8n resolves it: from n8n's own modules.
			env: { ...process.env, NODE_PATH: dirname(n8n.packageDir) },
		});
		const described = JSON.parse(json) as DescribedNode[];
		// A node used as an AI tool is the same node under the type n8n gives it.
		return described.flatMap((d) => [d, { ...d, type: `${d.type}Tool` }]);
	} finally {
		if (unpacked) rmSync(unpacked, { recursive: true, force: true });
	}
}

/**
 * Every node description found on disk: n8n's own nodes and the community packages'. What cannot be read
 * (a package whose classes do not load outside n8n) is left out: its nodes are checked once n8n runs.
 */
export function describedNodes(n8n: N8nInstall, nodes: NodesSource[]): DescribedNode[] {
	const community = nodes.flatMap((source) => {
		try {
			return ofPackage(n8n, source);
		} catch {
			return [];
		}
	});
	return [...builtIn(n8n), ...community];
}

/** The description of a node's type at its version (else its type's first). */
export function describedAt(
	all: DescribedNode[],
	type: string,
	version: number | undefined,
): DescribedNode | undefined {
	return atVersion(
		all.filter((d) => d.type === type),
		version,
	);
}
