/**
 * The one error type the HTTP edge understands. Every status >= 400 leaves the server as
 * {"error": "...", "details"?: [...], "code"?: "..."} (docs/api.md, "Both services").
 */
export interface ErrorDetail {
	path: string;
	message: string;
}

export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly details?: ErrorDetail[],
		readonly code?: string,
		readonly headers?: Record<string, string>,
	) {
		super(message);
	}

	toBody(): Record<string, unknown> {
		const body: Record<string, unknown> = { error: this.message };
		if (this.code) body.code = this.code;
		if (this.details && this.details.length > 0) body.details = this.details;
		return body;
	}
}

export const notFound = (message: string) => new ApiError(404, message);
