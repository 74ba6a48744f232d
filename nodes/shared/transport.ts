import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import {
	answerOf,
	CREDENTIAL_FIELDS,
	SERVICE_NAMES,
	type Service,
	type ServiceAnswer,
} from './answer';
import {
	apiError,
	type Context,
	errorFromAnswer,
	redirectError,
	UnclearOutcomeError,
} from './errors';
import { formatWait } from './rateLimit';
import { mayHaveActed, statusClass } from './statuses';

/*
 * The one way the nodes talk to the two services: base URLs from the shared credential, bearer
 * auth applied by n8n (httpRequestWithAuthentication), a time-out on every request, no redirects
 * followed for requests that change data, no automatic retries (lead searches charge credits).
 * A 2xx answer comes back as a ServiceAnswer, and so does any answer the caller declares it reads
 * itself (`reads`); every other status throws here: the service's words, the caller's hint for
 * it (`hint`) or the status's own (statuses.ts). A redirect names where it points. An error of a
 * request the service may have carried out (no answer came, or a change answered 5xx) is an
 * UnclearOutcomeError, so a caller that must not repeat work can tell.
 */

export const CREDENTIAL_TYPE = 'leadInboxApi';

export interface RequestOptions {
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	/** The whole exchange, answer body included, must end within this many milliseconds. */
	timeoutMs: number;
	itemIndex?: number;
	/** Said when the request was sent but no answer came: what may have happened, what to check. */
	ifUnanswered?: string;
	/** How the user gives it more time ("Raise Options > Timeout (Seconds)"). */
	timeoutHint?: string;
	/** Answers outside 2xx the caller reads itself, because they carry results or meaning. */
	reads?: (answer: ServiceAnswer) => boolean;
	/** The caller's hint for an answer that fails (which key, which field), after its words. */
	hint?: (answer: ServiceAnswer) => string | undefined;
}

/**
 * Trims trailing slashes; the inbox URL must carry the /api/v1 prefix (the specs' contract). A
 * problem is returned as a sentence (with how to fix it), for the nodes and the credential test.
 */
export function checkBaseUrl(
	service: Service,
	raw: unknown,
): { url: string } | { problem: string; fix?: string } {
	const value = String(raw ?? '')
		.trim()
		.replace(/\/+$/, '');
	const field = CREDENTIAL_FIELDS[service];
	// Each URL may be left empty by a user who does not use that service.
	if (value === '')
		return {
			problem: `The credential's ${field} is empty, and this node needs the ${SERVICE_NAMES[service]} service`,
			fix: `Set the ${field} in the credential, e.g. http://127.0.0.1:4010${service === 'inbox' ? '/api/v1' : ''} for the reference server.`,
		};
	if (!/^https?:\/\/[^/\s]+/i.test(value))
		return {
			problem: `The credential's ${field} must be an http(s) URL, e.g. http://127.0.0.1:4010${service === 'inbox' ? '/api/v1' : ''}`,
		};
	if (service === 'inbox' && !/\/api\/v1$/.test(value))
		return {
			problem: `The credential's Inbox Base URL must end with /api/v1 (got ${value})`,
			fix: `Set it to ${value}/api/v1 if that is where the inbox service lives.`,
		};
	// The lead search base is given without the version; a pasted /api/v1 is forgiven.
	return { url: service === 'leads' ? value.replace(/\/api\/v1$/, '') : value };
}

export function normalizeBaseUrl(
	ctx: Context,
	service: Service,
	raw: unknown,
	itemIndex?: number,
): string {
	const checked = checkBaseUrl(service, raw);
	if ('url' in checked) return checked.url;
	throw new NodeOperationError(ctx.getNode(), checked.problem, {
		itemIndex,
		description: checked.fix,
	});
}

/** Network error codes that mean the request never reached the service. */
const NOT_SENT =
	/^(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL|ERR_INVALID_URL)$|CERT|SELF_SIGNED|ERR_TLS|ERR_SSL|EPROTO/;

/** The codes and the most specific message of an error and its causes (n8n wraps axios' error). */
export function networkFailure(error: unknown): { codes: string[]; reason: string } {
	const codes: string[] = [];
	const messages: string[] = [];
	let current: unknown = error;
	for (let depth = 0; current && depth < 6; depth++) {
		const { code, message, cause } = current as {
			code?: unknown;
			message?: unknown;
			cause?: unknown;
		};
		if (typeof code === 'string') codes.push(code);
		if (typeof message === 'string' && message) messages.push(message);
		current = cause;
	}
	return { codes, reason: messages[messages.length - 1] ?? 'no answer' };
}

function isTimeout(codes: string[], reason: string): boolean {
	return (
		codes.some(
			(c) => c === 'ETIMEDOUT' || c === 'ECONNABORTED' || c === 'UND_ERR_HEADERS_TIMEOUT',
		) || /time(d)?[ -]?out/i.test(reason)
	);
}

/** A reason as a sentence: with its full stop. */
const sentence = (reason: string) => (reason.endsWith('.') ? reason : `${reason}.`);

/** Words of a failure on the wire, for errors that carry no code (a socket closed, a reset). */
const NETWORK_WORDS = /socket|connection|network|hang ?up|aborted|reset|closed|EOF|fetch failed/i;

/**
 * The error of a request that got no answer: never sent (the service was not reached, or n8n
 * failed before sending it), or sent and then timed out or cut off, when the service may have
 * acted on it (UnclearOutcomeError).
 */
function noAnswerError(
	ctx: Context,
	error: unknown,
	request: {
		service: Service;
		method: IHttpRequestMethods;
		baseUrl: string;
		url: string;
		deadline: AbortSignal;
		options: RequestOptions;
	},
): NodeApiError | NodeOperationError {
	const { service, method, baseUrl, url, options } = request;
	const serviceName = SERVICE_NAMES[service];
	const { codes, reason } = networkFailure(error);
	if (request.deadline.aborted || isTimeout(codes, reason))
		return apiError(
			ctx.getNode(),
			{
				message: `The ${serviceName} service did not answer within ${formatWait(options.timeoutMs)} (${method} ${url})`,
				description:
					[options.ifUnanswered, options.timeoutHint].filter(Boolean).join(' ') || undefined,
				itemIndex: options.itemIndex,
			},
			UnclearOutcomeError,
		);
	// No network code and no network words: n8n's own request helper failed before sending (seen
	// on n8n 2.40 when a check overlaps the next poll tick: "No bridge acquired for this context").
	// Saying "the connection broke" would send the user after a network fault that never was.
	if (codes.length === 0 && !NETWORK_WORDS.test(reason))
		return new NodeOperationError(
			ctx.getNode(),
			`n8n could not send the request to the ${serviceName} service (${method} ${url})`,
			{
				itemIndex: options.itemIndex,
				description: `${sentence(reason)} This came from n8n itself, before anything went out: the service received nothing. Run it again; the README (Compatibility) lists where n8n is known to do this.`,
			},
		);
	if (codes.some((c) => NOT_SENT.test(c)))
		// Given the network error itself, n8n would replace this message with a generic one that
		// names neither the service nor the address: only the reason is passed on.
		return apiError(ctx.getNode(), {
			message: `Could not reach the ${serviceName} service at ${baseUrl}`,
			description: `${reason}. Check the credential's ${CREDENTIAL_FIELDS[service]} and that the service is running. Nothing was sent.`,
			itemIndex: options.itemIndex,
		});
	return apiError(
		ctx.getNode(),
		{
			message: `The connection to the ${serviceName} service at ${baseUrl} broke before it answered`,
			description: [sentence(reason), options.ifUnanswered].filter(Boolean).join(' '),
			itemIndex: options.itemIndex,
		},
		UnclearOutcomeError,
	);
}

/** The signal that ends the exchange at its deadline, or when n8n cancels the execution. */
function deadlineSignal(
	ctx: Context,
	timeoutMs: number,
): { signal: AbortSignal; deadline: AbortSignal } {
	const deadline = AbortSignal.timeout(timeoutMs);
	const cancel = (ctx as Partial<IExecuteFunctions>).getExecutionCancelSignal?.();
	return { deadline, signal: cancel ? AbortSignal.any([deadline, cancel]) : deadline };
}

export async function apiRequest(
	this: Context,
	service: Service,
	method: IHttpRequestMethods,
	path: string,
	options: RequestOptions,
): Promise<ServiceAnswer> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE, options.itemIndex);
	const baseUrl = normalizeBaseUrl(
		this,
		service,
		service === 'leads' ? credentials.leadsBaseUrl : credentials.inboxBaseUrl,
		options.itemIndex,
	);
	const url = `${baseUrl}${path}`;
	const { signal, deadline } = deadlineSignal(this, options.timeoutMs);
	const request: IHttpRequestOptions = {
		method,
		url,
		qs: options.qs,
		headers: {
			Accept: 'application/json',
			...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
		},
		body: options.body === undefined ? undefined : JSON.stringify(options.body),
		// The body is read as text and parsed here: a page where JSON should be is then reported
		// for what it is, not silently turned into an empty result.
		encoding: 'text',
		json: false,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// A redirected POST would be re-sent as a GET by the HTTP client, losing its body.
		disableFollowRedirect: method !== 'GET',
		timeout: options.timeoutMs,
		abortSignal: signal,
	};
	let raw: Parameters<typeof answerOf>[1];
	try {
		raw = await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, request);
	} catch (error) {
		// n8n cancelled the execution: nothing to explain.
		if (signal.aborted && !deadline.aborted)
			throw new NodeApiError(this.getNode(), error as JsonObject, { itemIndex: options.itemIndex });
		throw noAnswerError(this, error, { service, method, baseUrl, url, deadline, options });
	}
	const answer = answerOf({ service, method, url }, raw, String(credentials.apiKey ?? ''));
	const kind = statusClass(answer.statusCode);
	if (kind === 'redirect') throw redirectError(this, answer, path, options.itemIndex);
	if (kind === 'success' || options.reads?.(answer)) return answer;
	throw errorFromAnswer(
		this,
		answer,
		options.itemIndex,
		options.hint?.(answer),
		mayHaveActed(method, answer.statusCode) ? UnclearOutcomeError : NodeApiError,
	);
}
