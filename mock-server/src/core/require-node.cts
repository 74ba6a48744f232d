/**
 * Imported first by the command line: stops with one line on a Node.js too old for the server,
 * before any module that needs a newer one is loaded.
 */
import { quietSqliteWarning, unsupportedNode } from './node-support.cjs';

const problem = unsupportedNode();
if (problem) {
	process.stderr.write(`Error: ${problem}\n`);
	process.exit(1);
}
quietSqliteWarning();
