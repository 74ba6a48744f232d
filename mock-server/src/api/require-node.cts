/**
 * Imported first by the in-process API: a Node.js too old for the server fails the import with
 * one sentence naming the Node.js needed, not with "No such built-in module: node:sqlite".
 */
import { quietSqliteWarning, unsupportedNode } from '../core/node-support.cjs';

const problem = unsupportedNode();
if (problem) throw new Error(problem);
quietSqliteWarning();
