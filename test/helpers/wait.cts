/**
 * Waits for a state, not for a duration: resolves as soon as `condition` holds, looking every
 * `everyMs`. `withinMs` only bounds a wait that would otherwise never end, and its failure names
 * what was awaited; it is not a claim about speed (none is made in tests, see bench/). The
 * workflow test runner's own wait (mock-server/src/runner/n8n/rest.cts).
 */
export { until as waitUntil } from '../../mock-server/src/runner/n8n/rest.cjs';
