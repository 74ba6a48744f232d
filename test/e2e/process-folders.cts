import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning } from '../helpers/processes.cjs';

/**
 * Folders a test process writes in (n8n user folders, packed tarballs, installs), under the
 * e2e cache and named by the process, never by the Jest worker number: two Jest runs at once
 * (.ci/run's two lanes, and test:github's e2e job, which links the same cache) both have a
 * worker 1, and one run's set-up used to delete and rewrite the other's running n8n folder.
 * A process removes its own folders when it exits; a later process removes those of any process
 * that no longer runs (killed before it could), and the folders earlier versions of the suite
 * kept at the cache's top level (see LEGACY_FOLDER).
 */
export function processFolder(cache: string, name: string): string {
	const root = join(cache, 'per-process');
	if (!swept) {
		swept = true;
		sweep(root);
		sweepLegacy(cache);
		process.once('exit', () =>
			rmSync(join(root, String(process.pid)), { recursive: true, force: true }),
		);
	}
	const folder = join(root, String(process.pid), name);
	rmSync(folder, { recursive: true, force: true });
	mkdirSync(folder, { recursive: true });
	return folder;
}

let swept = false;

/**
 * What the suite wrote at the cache's top level before folders were kept per process (fcdb711):
 * per Jest worker (`run-<version>-w1`, `pack-w2`, ...) or shared (`run-<version>`, `pack`,
 * `scratch`, `mock-server-install`, ...). Nothing writes or reads them now, yet they stayed in a
 * developer's cache: 50-80 MB per n8n user folder, about 700 MB in all on the project's VM.
 */
const LEGACY_FOLDER =
	/^(run-\d+\.\d+\.\d+(-w\d+)?|pack(-server)?(-w\d+)?|scratch|mock-server-install(-node20)?|action-runner-temp)$/;

function sweepLegacy(cache: string): void {
	if (!existsSync(cache)) return;
	for (const name of readdirSync(cache))
		if (LEGACY_FOLDER.test(name)) rmSync(join(cache, name), { recursive: true, force: true });
}

function sweep(root: string): void {
	if (!existsSync(root)) return;
	for (const pid of readdirSync(root))
		if (!isRunning(Number(pid))) rmSync(join(root, pid), { recursive: true, force: true });
}
