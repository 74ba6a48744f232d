/**
 * Waits for a state, not for a duration: resolves as soon as `condition` holds, looking every
 * `everyMs`. `withinMs` only bounds a wait that would otherwise never end, and its failure names
 * what was awaited; it is not a claim about speed (none is made in tests, see bench/). The
 * workflow test runner's own wait (n8n-testkit/src/n8n/rest.cts).
 */
export { until as waitUntil } from '../../n8n-testkit/src/n8n/rest.cjs';

/**
 * The bound a test gives a wait for something that must happen (a process to start, a collection
 * to run, a port to be let go): the worst case of a 2-core machine at a load average of 10 or more,
 * under Jest's own bound (jest.config.js), so a wait that never ends fails naming what it awaited.
 */
export const WAIT_MS = 5 * 60_000;
