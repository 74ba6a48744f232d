/*
 * What an HTTP status from either service means, decided here once for every node and the
 * credential test: whether the request worked, whether the service may have acted on it, and
 * what a user can do about it. The transport throws for every status a caller does not read
 * itself; the credential test words the same classes for a check of the credential.
 */

export type StatusClass =
	/** 2xx: the operation's answer. */
	| 'success'
	/** 3xx: the URL leads elsewhere (never followed for requests that change data). */
	| 'redirect'
	/** 401: the API key was refused. */
	| 'keyRefused'
	/** 403: the key is valid but lacks a permission. */
	| 'forbidden'
	/** 404, 405: a thing that does not exist, or a URL that leads to no endpoint. */
	| 'notFound'
	/** 429: a rate limit; the request was not carried out. */
	| 'rateLimited'
	/** Any other 4xx: the request was refused as it is; nothing was done. */
	| 'refused'
	/** 5xx (and anything else): the service or a gateway failed. */
	| 'serviceFailed';

export function statusClass(status: number): StatusClass {
	if (status >= 200 && status < 300) return 'success';
	if (status >= 300 && status < 400) return 'redirect';
	if (status === 401) return 'keyRefused';
	if (status === 403) return 'forbidden';
	if (status === 404 || status === 405) return 'notFound';
	if (status === 429) return 'rateLimited';
	if (status >= 400 && status < 500) return 'refused';
	return 'serviceFailed';
}

/**
 * Whether a request that changes data may have been carried out although it got this answer: a
 * server or gateway error can come after the work was done (the service failed while answering,
 * a gateway gave up waiting). A 4xx is a refusal: nothing was done.
 */
export function mayHaveActed(method: string, status: number): boolean {
	return method !== 'GET' && statusClass(status) === 'serviceFailed';
}

/**
 * What to do about a refused key (401) in a run. The credential test, where the credential is the
 * one open, says "Check the API key." instead.
 */
export const API_KEY_HINT = 'Check the API key in the Lead Inbox API credential.';

/** Said after the service's words when the caller has no hint of its own for the status. */
export function statusHint(status: number): string | undefined {
	switch (status) {
		case 401:
			return API_KEY_HINT;
		case 403:
			return 'The API key lacks a permission this operation needs: ask the service operator for it.';
		case 500:
			return 'The service failed, not the request: try again later.';
		case 502:
			return 'A gateway in front of the service failed: try again later.';
		case 503:
			return 'The service is unavailable: try again later.';
		case 504:
			return 'A gateway in front of the service timed out: try again later.';
		default:
			return undefined;
	}
}
