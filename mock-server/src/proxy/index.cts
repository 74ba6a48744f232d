/** The reference server in front of the real services: proxy, record, replay, divergences. */
export { type Divergence, DivergenceReport } from './divergences.cjs';
export { registerProxy } from './hook.cjs';
export { Recorder, readRecordings, RecordingError } from './recordings.cjs';
export { Replayer } from './replay.cjs';
