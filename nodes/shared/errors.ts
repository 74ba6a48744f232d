import type {
	IExecuteFunctions,
	ILoadOptionsFunctions,
	INode,
	IPollFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';
import {
	CREDENTIAL_FIELDS,
	describeBody,
	header,
	isObject,
	SERVICE_NAMES,
	serviceWords,
	type ServiceAnswer,
} from './answer';
import { rateLimitHint } from './rateLimit';
import { statusHint } from './statuses';

/*
 * How the nodes report what a service answered: the service's own words first, then what we know
 * (which service, which HTTP status), then our hint on how to fix it. Nothing is guessed.
 */

/** What a node calls the services from: a run, the editor's lists, a polling trigger. */
export type Context = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

interface ErrorParts {
	message: string;
	description?: string;
	httpCode?: string;
	itemIndex?: number;
	/** What the service sent, shown by n8n as the error's details. */
	response?: JsonObject;
}

/**
 * The error of a request the service may have carried out although it did not say so: it was
 * sent and no answer came (a time-out, a broken connection), or a change was answered by a server
 * or gateway error. Whoever sent it checks what happened before sending it again.
 */
export class UnclearOutcomeError extends NodeApiError {
	constructor(...args: ConstructorParameters<typeof NodeApiError>) {
		super(...args);
		// n8n shows and stores errors by their name: this is a NodeApiError to it.
		this.name = 'NodeApiError';
	}
}

/**
 * A NodeApiError whose message and description are exactly ours: given a message, n8n still
 * replaces it when it contains a network error code (a service message quoting "ETIMEDOUT"
 * would become n8n's generic text), so both are set after construction.
 */
export function apiError(
	node: INode,
	parts: ErrorParts,
	Kind: typeof NodeApiError = NodeApiError,
): NodeApiError {
	const error = new Kind(node, parts.response ?? ({} as JsonObject), {
		message: parts.message,
		description: parts.description,
		httpCode: parts.httpCode,
		itemIndex: parts.itemIndex,
	});
	error.message = parts.message;
	error.description = parts.description ?? null;
	return error;
}

/** What came back, kept short, for the error's details (JSON as is; a page or text clipped). */
function responseOf(answer: ServiceAnswer): JsonObject {
	if (answer.kind === 'json' && isObject(answer.body)) return answer.body as JsonObject;
	return {
		status: answer.statusCode,
		body: answer.kind === 'json' ? (answer.body as JsonObject) : answer.text.slice(0, 1000),
	};
}

export function joinSentences(...parts: Array<string | undefined>): string | undefined {
	const text = parts.filter((p) => p && p.trim()).join(' ');
	return text || undefined;
}

/**
 * The error of an answer the operation cannot use: "<the service's words> (the inbox service
 * answered HTTP 404)", details and our hint (else the status's) in the description. A 429 says
 * how long to wait.
 */
export function errorFromAnswer(
	ctx: Context,
	answer: ServiceAnswer,
	itemIndex?: number,
	hint?: string,
	Kind: typeof NodeApiError = NodeApiError,
): NodeApiError {
	const words = serviceWords(answer);
	const service = SERVICE_NAMES[answer.service];
	const message = words.message
		? `${words.message} (HTTP ${answer.statusCode} from the ${service} service)`
		: `The ${service} service answered HTTP ${answer.statusCode} with ${describeBody(answer)} (${answer.method} ${answer.url})`;
	const details = words.details.filter((d) => d !== words.message).join('; ');
	return apiError(
		ctx.getNode(),
		{
			message,
			description: joinSentences(
				details ? `${details}.`.replace(/\.\.$/, '.') : undefined,
				answer.statusCode === 429 ? rateLimitHint(answer) : undefined,
				hint ?? statusHint(answer.statusCode),
			),
			httpCode: String(answer.statusCode),
			itemIndex,
			response: responseOf(answer),
		},
		Kind,
	);
}

/** A 2xx whose body is not what the operation returns: never read as "nothing". */
export function unexpectedAnswer(
	ctx: Context,
	answer: ServiceAnswer,
	expected: string,
	itemIndex?: number,
	consequence?: string,
): NodeApiError {
	return apiError(ctx.getNode(), {
		message: `The ${SERVICE_NAMES[answer.service]} service answered HTTP ${answer.statusCode} with ${describeBody(answer)}, not ${expected}`,
		description: joinSentences(
			`${answer.method} ${answer.url} did not return what the API specifies.`,
			answer.kind === 'html' || answer.kind === 'text'
				? `A web page or text where the API should answer usually means the credential's ${CREDENTIAL_FIELDS[answer.service]} points at a website or a proxy, not at the service.`
				: undefined,
			consequence,
		),
		httpCode: String(answer.statusCode),
		itemIndex,
		response: responseOf(answer),
	});
}

/**
 * Where a redirect points, and the base URL that would reach `path` there directly (when the
 * target ends with the path asked, e.g. "/inboxes").
 */
export function redirectTarget(
	answer: ServiceAnswer,
	path: string,
): { target?: string; base?: string } {
	const location = header(answer, 'location');
	let target: string | undefined;
	try {
		target = location ? new URL(location, answer.url).href : undefined;
	} catch {
		target = location;
	}
	const bare = target?.replace(/[?#].*$/, '').replace(/\/+$/, '');
	return { target, base: bare?.endsWith(path) ? bare.slice(0, -path.length) : undefined };
}

/** A redirect answered to `path` (relative to the service's base URL, e.g. "/inboxes"). */
export function redirectError(
	ctx: Context,
	answer: ServiceAnswer,
	path: string,
	itemIndex?: number,
): NodeApiError {
	const field = CREDENTIAL_FIELDS[answer.service];
	const { target, base } = redirectTarget(answer, path);
	return apiError(ctx.getNode(), {
		message: target
			? `The ${SERVICE_NAMES[answer.service]} service redirected ${answer.method} ${answer.url} to ${target} (HTTP ${answer.statusCode})`
			: `The ${SERVICE_NAMES[answer.service]} service answered HTTP ${answer.statusCode} (a redirect) without saying where to`,
		description: joinSentences(
			answer.method === 'GET'
				? 'The redirect could not be followed.'
				: `The node does not follow redirects for ${answer.method} requests: a redirect may turn them into a GET and lose the body.`,
			base
				? `Set the credential's ${field} to ${base}.`
				: `Check the credential's ${field}${target ? `: the service points to ${target}` : ''}.`,
		),
		httpCode: String(answer.statusCode),
		itemIndex,
	});
}

/** Errors leave a node as NodeApiError/NodeOperationError, tied to the item that caused them. */
export function asNodeError(
	ctx: Context,
	error: unknown,
	itemIndex: number,
): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(ctx.getNode(), error as Error, { itemIndex });
}
