/**
 * What a helper process of the server runs: the work of the role its parent gave it
 * (core/helpers). The helpers' entry: built into its own bundle (dist/lead-inbox-mock-server-helper),
 * from the sources loaded through tsx. Only the synthetic web's and the scanner's code: the
 * server's (fastify, zod, the store) cost each helper about 30 MiB when helpers ran the bin.
 */
import { endWithParent, helperRole } from './core/helpers.cjs';
import { runScannerThread } from './scan/index.cjs';
import { runSyntheticWebThread } from './web/index.cjs';

function runThread(): void {
	const role = helperRole();
	if (!role) {
		process.stderr.write(
			'This is a helper process of the Lead Inbox reference server, which starts it: run lead-inbox-mock-server instead.\n',
		);
		process.exitCode = 2;
		return;
	}
	endWithParent();
	if (role === 'scanner') runScannerThread();
	else runSyntheticWebThread();
}

runThread();
