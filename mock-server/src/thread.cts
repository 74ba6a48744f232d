/**
 * What a helper process of the server runs: the work of the role its parent gave it
 * (core/helpers). From the bundle, the command line's file is every helper's entry and calls this
 * when it finds a role; from the sources, a helper loads this file through tsx and calls it.
 */
import { endWithParent, helperRole } from './core/helpers.cjs';
import { runScannerThread } from './scan/index.cjs';
import { runSyntheticWebThread } from './web/index.cjs';

export function runThread(): void {
	const role = helperRole();
	if (!role) return;
	endWithParent();
	if (role === 'scanner') runScannerThread();
	else runSyntheticWebThread();
}
