/** The reference server in front of the real services: proxy, record, replay, divergences. */
export {
	type Divergence,
	DivergenceReport,
	type Exchange,
	FAIL_ON,
	type FailOn,
	KINDS,
	type Kind,
	nodeEffect,
	type Operation,
	OPERATIONS,
} from './divergences/index.cjs';
export { registerProxy } from './hook.cjs';
export { Recorder, readRecordings, RecordingError } from './recordings.cjs';
export { Replayer } from './replay.cjs';
export { probeCommand } from './probe/command.cjs';
export { type ProbeOptions, type ProbeResult, runProbe } from './probe/probe.cjs';
export {
	assertHarmless,
	NO_SUCH_POOL,
	type ProbeRequest,
	UnsafeProbeRequest,
} from './probe/requests.cjs';
