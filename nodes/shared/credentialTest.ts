import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	INodeCredentialTestResult,
} from 'n8n-workflow';
import {
	answerOf,
	CREDENTIAL_FIELDS,
	describeBody,
	listIn,
	SERVICE_NAMES,
	serviceWords,
	type Service,
	type ServiceAnswer,
} from './answer';
import { redirectTarget } from './errors';
import { statusClass } from './statuses';
import { checkBaseUrl, networkFailure } from './transport';

/*
 * The credential test: both base URLs and the key's permissions, checked with requests that
 * change nothing and charge nothing. The lead search gets an empty body, which its endpoint must
 * refuse with 400 (after checking the key) while a wrong URL answers 404. Each problem is said in
 * the service's own words, with which URL or permission it concerns.
 */

const PROBE_TIMEOUT_MS = 15_000;

interface Probe {
	service: Service;
	method: 'GET' | 'POST';
	path: string;
	query?: IDataObject;
	body?: IDataObject | IDataObject[];
	/** What the request needs the key to be allowed: "list pools (pools:read)". */
	permission: string;
}

const PROBES: Probe[] = [
	{ service: 'inbox', method: 'GET', path: '/pools', permission: 'list pools (pools:read)' },
	{
		service: 'inbox',
		method: 'GET',
		path: '/inboxes',
		query: { limit: 1 },
		permission: 'list inboxes (inboxes:read)',
	},
	// An empty batch creates nothing; the service checks the permission before the body.
	{
		service: 'inbox',
		method: 'POST',
		path: '/inboxes',
		body: [],
		permission: 'create inboxes (inboxes:write)',
	},
	{
		service: 'leads',
		method: 'POST',
		path: '/api/v1/niche-finder-leads',
		body: {},
		permission: 'search leads',
	},
];

function quoted(answer: ServiceAnswer): string {
	const said = serviceWords(answer).message;
	return said ? `: "${said}"` : ` with ${describeBody(answer)}`;
}

/** The problem an answer shows, or undefined when it shows the URL, key and permission work. */
export function problemOf(probe: Probe, answer: ServiceAnswer): string | undefined {
	const field = CREDENTIAL_FIELDS[probe.service];
	const name = SERVICE_NAMES[probe.service];
	const status = answer.statusCode;
	const request = `${probe.method} ${answer.url}`;
	const example =
		probe.service === 'leads' ? 'http://127.0.0.1:4010' : 'http://127.0.0.1:4010/api/v1';
	const wrongUrl = `${field}: ${request} answered HTTP ${status}${quoted(answer)}, so it does not lead to the ${name} service. It should be the service's base URL${probe.service === 'leads' ? ' without /api/v1' : ', ending with /api/v1'}, e.g. ${example}.`;
	const kind = statusClass(status);
	switch (kind) {
		case 'redirect': {
			const { target, base } = redirectTarget(answer, probe.path);
			return `${field}: ${request} is redirected${target ? ` to ${target}` : ''}; ${base ? `set the ${field} to ${base}` : `check the ${field}`}.`;
		}
		case 'keyRefused':
			return `The ${name} service refused the API key (HTTP 401${quoted(answer)}). Check the API key.`;
		case 'forbidden':
			return `The API key may not ${probe.permission} (HTTP 403 from the ${name} service${quoted(answer)}). Ask the service operator for this permission.`;
		case 'serviceFailed':
			return `The ${name} service is failing (HTTP ${status}${quoted(answer)}): this says nothing about the API key; try again later.`;
	}
	// A page where the API should be is whatever else sits at that URL.
	if (answer.kind === 'html' || kind === 'notFound') return wrongUrl;
	if (probe.method === 'GET' && kind === 'success') {
		const key = probe.path === '/pools' ? 'pools' : 'inboxes';
		return listIn(answer.body, key) ? undefined : wrongUrl;
	}
	// POSTs of nothing: a refusal of the body (400/422), a credit (402) or rate (429) limit all
	// come after the key was accepted.
	if (probe.method === 'POST') return undefined;
	return `The ${name} service answered ${request} with HTTP ${status}${quoted(answer)}.`;
}

async function send(
	ctx: ICredentialTestFunctions,
	apiKey: string,
	baseUrl: string,
	probe: Probe,
): Promise<ServiceAnswer | string> {
	const url = `${baseUrl}${probe.path}`;
	try {
		// The credential test context offers only `request` (n8n-core's CredentialTestContext), and
		// applies no credential: the header is set here as n8n's own credential tests do.
		const raw = (await ctx.helpers.request({
			uri: url,
			qs: probe.query,
			method: probe.method,
			headers: {
				Authorization: `Bearer ${apiKey}`,
				Accept: 'application/json',
				...(probe.body === undefined ? {} : { 'Content-Type': 'application/json' }),
			},
			body: probe.body === undefined ? undefined : JSON.stringify(probe.body),
			json: false,
			simple: false,
			resolveWithFullResponse: true,
			followRedirect: false,
			timeout: PROBE_TIMEOUT_MS,
		})) as { statusCode: number; headers: ServiceAnswer['headers']; body?: unknown };
		return answerOf({ service: probe.service, method: probe.method, url }, raw, apiKey);
	} catch (error) {
		const { reason } = networkFailure(error);
		return `Could not reach the ${SERVICE_NAMES[probe.service]} service at ${baseUrl} (${reason}): check the credential's ${CREDENTIAL_FIELDS[probe.service]} and that the service is running.`;
	}
}

export async function leadInboxApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const apiKey = String(data.apiKey ?? '').trim();
	if (!apiKey) return { status: 'Error', message: 'The API key is empty.' };
	const problems: string[] = [];
	const bases: Partial<Record<Service, string>> = {};
	for (const service of ['inbox', 'leads'] as const) {
		const checked = checkBaseUrl(
			service,
			service === 'leads' ? data.leadsBaseUrl : data.inboxBaseUrl,
		);
		if ('url' in checked) bases[service] = checked.url;
		else problems.push([checked.problem, checked.fix].filter(Boolean).join('. '));
	}
	const unreachable = new Set<Service>();
	for (const probe of PROBES) {
		const base = bases[probe.service];
		if (!base || unreachable.has(probe.service)) continue;
		const answer = await send(this, apiKey, base, probe);
		const problem = typeof answer === 'string' ? answer : problemOf(probe, answer);
		if (!problem) continue;
		problems.push(problem);
		// Once a service cannot be used at all, its other checks would only repeat that.
		if (typeof answer === 'string' || answer.statusCode !== 403) unreachable.add(probe.service);
	}
	return problems.length === 0
		? {
				status: 'OK',
				message:
					'Connection successful: the key may list pools and inboxes, create inboxes and search leads.',
			}
		: { status: 'Error', message: problems.join(' ') };
}
