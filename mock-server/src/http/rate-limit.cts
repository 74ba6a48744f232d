/**
 * The answer of the inbox service's hourly limit, one place for its text and headers: the real
 * limit (inboxes/rate-limit.cts) and an injected 429 fault (admin/traffic.cts) look the same.
 */
import { HOURLY_LIMIT } from '../contract/inboxes.cjs';
import { ApiError } from './errors.cjs';

export function rateLimitHeaders(remaining: number, resetSeconds: number): Record<string, string> {
	return {
		'X-RateLimit-Limit': String(HOURLY_LIMIT),
		'X-RateLimit-Remaining': String(remaining),
		'X-RateLimit-Reset': String(resetSeconds),
	};
}

export function hourlyLimitReached(input: {
	wanted: number;
	remaining: number;
	retryAfter: number;
	resetSeconds: number;
}): ApiError {
	return new ApiError(
		429,
		`Hourly limit reached: this request would create ${input.wanted} inbox(es) but only ${input.remaining} of ${HOURLY_LIMIT} remain for this API key in the current hour; retry in ${input.retryAfter} s. Nothing was created.`,
		{
			headers: {
				'Retry-After': String(input.retryAfter),
				...rateLimitHeaders(input.remaining, input.resetSeconds),
			},
		},
	);
}
