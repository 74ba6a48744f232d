/**
 * Answers requests from recordings: a request matches a recording with the same method and path,
 * the same query and the same body, compared as data (key order and spacing do not matter), less
 * the fields the operator chose to ignore. The same request recorded several times is answered in
 * the order recorded, the last answer repeating. A request that matches nothing is told which
 * recording came closest and what differed.
 */
import { canonical, type Recording, type RecordedRequest } from './recordings.cjs';

export interface Match {
	file: string;
	recording: Recording;
}

export interface Miss {
	closest?: { file: string; differences: string[] };
}

/** Removes the ignored fields: `query.x` from the query, `a.b` (dotted, indexes too) from the body. */
function withoutIgnored(request: RecordedRequest, ignore: string[]): RecordedRequest {
	const copy = structuredClone(request);
	for (const field of ignore) {
		const [root, steps] = field.startsWith('query.')
			? ['query', [field.slice('query.'.length)]]
			: ['body', field.split('.')];
		let holder = (copy as unknown as Record<string, unknown>)[root];
		for (const step of steps.slice(0, -1))
			holder =
				holder && typeof holder === 'object'
					? (holder as Record<string, unknown>)[step]
					: undefined;
		if (holder && typeof holder === 'object')
			delete (holder as Record<string, unknown>)[steps.at(-1)!];
	}
	return copy;
}

/** Where two values differ, as `path: recorded X, got Y` lines (the first few). */
function differences(recorded: unknown, got: unknown, at: string, out: string[]): void {
	if (out.length >= 5) return;
	if (JSON.stringify(recorded) === JSON.stringify(got)) return;
	const isObject = (v: unknown) => v !== null && typeof v === 'object';
	if (isObject(recorded) && isObject(got) && Array.isArray(recorded) === Array.isArray(got)) {
		const keys = new Set([...Object.keys(recorded), ...Object.keys(got)]);
		for (const key of [...keys].sort())
			differences(
				(recorded as Record<string, unknown>)[key],
				(got as Record<string, unknown>)[key],
				at ? `${at}.${key}` : key,
				out,
			);
		return;
	}
	const show = (v: unknown) => (v === undefined ? 'nothing' : JSON.stringify(v));
	out.push(`${at || 'the whole'}: recorded ${show(recorded)}, got ${show(got)}`);
}

export class Replayer {
	private readonly byRequest = new Map<string, Match[]>();
	private readonly served = new Map<string, number>();

	constructor(
		private readonly recordings: Match[],
		private readonly ignore: string[],
	) {
		for (const match of recordings) {
			const key = this.keyOf(match.recording.request);
			this.byRequest.set(key, [...(this.byRequest.get(key) ?? []), match]);
		}
	}

	private keyOf(request: RecordedRequest): string {
		return canonical(withoutIgnored(request, this.ignore));
	}

	answer(request: RecordedRequest): Match | Miss {
		const key = this.keyOf(request);
		const matches = this.byRequest.get(key);
		if (matches) {
			const time = this.served.get(key) ?? 0;
			this.served.set(key, time + 1);
			return matches[Math.min(time, matches.length - 1)];
		}
		return { closest: this.closest(request) };
	}

	/** The recording of the same method and path whose query and body differ least. */
	private closest(request: RecordedRequest): Miss['closest'] {
		const mine = withoutIgnored(request, this.ignore);
		let best: { file: string; differences: string[]; score: number } | undefined;
		for (const { file, recording } of this.recordings) {
			const theirs = withoutIgnored(recording.request, this.ignore);
			const found: string[] = [];
			if (theirs.method.toUpperCase() !== mine.method.toUpperCase())
				found.push(`method: recorded ${theirs.method}, got ${mine.method}`);
			if (theirs.path !== mine.path) found.push(`path: recorded ${theirs.path}, got ${mine.path}`);
			const details: string[] = [];
			differences(theirs.query, mine.query, 'query', details);
			differences(theirs.body ?? theirs.bodyText, mine.body ?? mine.bodyText, 'body', details);
			found.push(...details);
			// Method and path weigh more than any number of field differences.
			const score = (found.length - details.length) * 100 + details.length;
			if (!best || score < best.score) best = { file, differences: found, score };
		}
		return best && { file: best.file, differences: best.differences };
	}
}
