import { header, readNumber, type ServiceAnswer } from './answer';

/** Used when a 429 says nothing about when to come back. */
export const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;

export interface RetryDelay {
	ms: number;
	/** Which header the wait came from, for the hint ("Retry-After: 30"). */
	source: string;
}

/**
 * A reset value: seconds from now, or a moment in Unix seconds or milliseconds (the headers are
 * used both ways in the wild; a delta is never anywhere near 1e9 seconds).
 */
function resetMs(value: number, now: number): number {
	if (value > 1e12) return value - now;
	if (value > 1e9) return value * 1000 - now;
	return value * 1000;
}

/**
 * How long the service asks a client to wait: `Retry-After` (seconds or an HTTP date), else
 * `X-RateLimit-Reset` / `RateLimit-Reset` (delta or epoch), else the `t=` of a structured
 * `RateLimit` header. undefined when none of them can be read.
 */
export function retryDelay(
	answer: Pick<ServiceAnswer, 'headers'>,
	now = Date.now(),
): RetryDelay | undefined {
	const retryAfter = header(answer, 'retry-after')?.trim();
	if (retryAfter) {
		const seconds = readNumber(retryAfter);
		if (seconds !== undefined)
			return { ms: Math.max(0, seconds * 1000), source: `Retry-After: ${retryAfter}` };
		const date = Date.parse(retryAfter);
		if (!Number.isNaN(date))
			return { ms: Math.max(0, date - now), source: `Retry-After: ${retryAfter}` };
	}
	for (const name of ['x-ratelimit-reset', 'ratelimit-reset', 'x-rate-limit-reset']) {
		const raw = header(answer, name)?.trim();
		const value = readNumber(raw);
		if (raw && value !== undefined)
			return { ms: Math.max(0, resetMs(value, now)), source: `${name}: ${raw}` };
	}
	const structured = header(answer, 'ratelimit');
	const t = structured ? /(?:^|[;,\s])t=(\d+)/.exec(structured) : null;
	if (t) return { ms: Number(t[1]) * 1000, source: `RateLimit: ${structured}` };
	return undefined;
}

/** "30 s", "12 min", "2 h 5 min": a wait as a person reads it. */
export function formatWait(ms: number): string {
	const seconds = Math.ceil(ms / 1000);
	if (seconds < 120) return `${seconds} s`;
	const minutes = Math.ceil(seconds / 60);
	if (minutes < 120) return `${minutes} min`;
	return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** The hint of a 429: how long the service asks to wait and where that came from. */
export function rateLimitHint(answer: Pick<ServiceAnswer, 'headers'>): string {
	const delay = retryDelay(answer);
	return delay
		? `The service asks to wait ${formatWait(delay.ms)} (${delay.source}) before trying again.`
		: 'The service did not say how long to wait (no Retry-After or rate-limit reset header).';
}
