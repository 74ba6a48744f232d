/** Where a real service's answers differ from the specs, and what that does to the nodes. */
export type { Exchange } from './exchange.cjs';
export {
	type DivergenceClass,
	type Effect,
	type Kind,
	KINDS,
	nodeEffect,
	type Operation,
	OPERATIONS,
} from './kinds.cjs';
export { type Divergence, DivergenceReport, FAIL_ON, type FailOn } from './report.cjs';
