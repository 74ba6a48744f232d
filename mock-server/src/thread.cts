/**
 * What a worker thread of the server runs: the work of the role its parent gave it (core/threads).
 * From the bundle, the command line's file is every thread's entry and calls this off the main
 * thread; from the sources, a thread loads this file through tsx and calls it.
 */
import { threadRole } from './core/threads.cjs';
import { runScannerThread } from './scan/index.cjs';
import { runSyntheticWebThread } from './web/index.cjs';

export function runThread(): void {
	const role = threadRole();
	if (role?.role === 'scanner') runScannerThread(role);
	else if (role?.role === 'synthetic-web') runSyntheticWebThread();
}
