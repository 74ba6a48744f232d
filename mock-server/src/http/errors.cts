/**
 * The one error type the HTTP edge understands. Every status >= 400 leaves the server as
 * {"error": "...", "details"?: [...], "code"?: "..."} (docs/api.md, "Both services").
 */
export interface ErrorDetail {
	path: string;
	message: string;
}

export interface ApiErrorOptions {
	/** Per-field or per-entry problems. */
	details?: ErrorDetail[];
	/** Machine-readable outcome, sent as the body's `code`. */
	code?: string;
	/** Headers of the answer (WWW-Authenticate, Allow, Retry-After...). */
	headers?: Record<string, string>;
}

export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
		// Kept as given: Fastify writes its own `code` onto errors that pass through validation.
		readonly options: ApiErrorOptions = {},
	) {
		super(message);
	}

	toBody(): Record<string, unknown> {
		const { code, details } = this.options;
		const body: Record<string, unknown> = { error: this.message };
		if (code) body.code = code;
		if (details && details.length > 0) body.details = details;
		return body;
	}
}

export const notFound = (message: string) => new ApiError(404, message);
