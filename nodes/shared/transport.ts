import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * The one way the nodes talk to the two services: base URLs from the shared credential, bearer
 * auth applied by n8n (httpRequestWithAuthentication), no automatic retries (lead searches
 * charge credits), and errors turned into NodeApiError with the server's own message.
 */
export const CREDENTIAL_TYPE = 'leadInboxApi';

export type Service = 'leads' | 'inbox';

type Context = IExecuteFunctions | ILoadOptionsFunctions;

export interface ApiResponse<T = IDataObject> {
	/** Which service answered (set by apiRequest), for messages that name it. */
	service?: Service;
	statusCode: number;
	headers: Record<string, string | string[] | undefined>;
	body: T;
}

export interface RequestOptions {
	body?: IDataObject | IDataObject[];
	qs?: IDataObject;
	timeout?: number;
	itemIndex?: number;
}

/** Trims trailing slashes; the inbox URL must carry the /api/v1 prefix (the specs' contract). */
export function normalizeBaseUrl(
	ctx: Context,
	service: Service,
	raw: unknown,
	itemIndex?: number,
): string {
	const value = String(raw ?? '')
		.trim()
		.replace(/\/+$/, '');
	const field = service === 'leads' ? 'Lead Search Base URL' : 'Inbox Base URL';
	if (!/^https?:\/\/[^/]+/i.test(value)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The credential's ${field} must be an http(s) URL, e.g. http://127.0.0.1:4010${service === 'inbox' ? '/api/v1' : ''}`,
			{ itemIndex },
		);
	}
	if (service === 'inbox' && !/\/api\/v1$/.test(value)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The credential's Inbox Base URL must end with /api/v1 (got ${value})`,
			{
				itemIndex,
				description: `Set it to ${value}/api/v1 if that is where the inbox service lives.`,
			},
		);
	}
	if (service === 'leads' && /\/api\/v1$/.test(value)) {
		return value.replace(/\/api\/v1$/, '');
	}
	return value;
}

export async function apiRequest<T = IDataObject>(
	this: Context,
	service: Service,
	method: IHttpRequestMethods,
	path: string,
	options: RequestOptions = {},
): Promise<ApiResponse<T>> {
	const credentials = await this.getCredentials(CREDENTIAL_TYPE, options.itemIndex);
	const baseUrl = normalizeBaseUrl(
		this,
		service,
		service === 'leads' ? credentials.leadsBaseUrl : credentials.inboxBaseUrl,
		options.itemIndex,
	);
	const request: IHttpRequestOptions = {
		method,
		url: `${baseUrl}${path}`,
		qs: options.qs,
		body: options.body,
		json: true,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: options.timeout,
	};
	let response: ApiResponse<T>;
	try {
		response = (await this.helpers.httpRequestWithAuthentication.call(
			this,
			CREDENTIAL_TYPE,
			request,
		)) as ApiResponse<T>;
		response.service = service;
	} catch (error) {
		// Only the reason is passed on: given the network error itself (with its code), n8n would
		// replace this message with a generic one that does not say which service or address.
		const reason = (error as Error).message;
		throw new NodeApiError(this.getNode(), { message: reason } as JsonObject, {
			itemIndex: options.itemIndex,
			message: `Could not reach the ${service === 'leads' ? 'lead search' : 'inbox'} service at ${baseUrl}`,
			description: reason,
		});
	}
	return response;
}

/** The service's error body is {"error": "...", "details"?: [{path, message}]}. */
export function errorFromResponse(
	ctx: Context,
	response: ApiResponse<unknown>,
	itemIndex?: number,
	hint?: string,
): NodeApiError {
	const body = (
		response.body && typeof response.body === 'object' ? response.body : {}
	) as IDataObject;
	const service = response.service === 'leads' ? 'lead search' : 'inbox';
	const said = typeof body.error === 'string' ? body.error : undefined;
	// A server-side failure names the service and the status: the workflow's author did nothing wrong.
	const message =
		response.statusCode >= 500 || !said
			? `The ${service} service answered HTTP ${response.statusCode}${said ? `: ${said}` : ''}`
			: said;
	const details = Array.isArray(body.details)
		? (body.details as IDataObject[]).map((d) => `${d.path}: ${d.message}`).join('; ')
		: '';
	return new NodeApiError(ctx.getNode(), body as JsonObject, {
		itemIndex,
		httpCode: String(response.statusCode),
		message,
		description: [details, hint].filter(Boolean).join(' ') || undefined,
	});
}

export function header(response: ApiResponse<unknown>, name: string): string | undefined {
	const value = response.headers[name.toLowerCase()];
	return Array.isArray(value) ? value[0] : value;
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
