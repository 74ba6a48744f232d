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
 * The credential test: each base URL that is set, and what the key may do there, checked with
 * requests that can neither create nor charge, even on a service lenient enough to accept
 * anything: the lead search gets an empty search (no niche, no city: nothing to search), the
 * inbox creation a POST without any body (no entry: nothing to create). Both come after the key
 * is checked, so 401 and 403 still say what the key may do. A base URL left empty is a service
 * the user does not use. It passes when every service that is set is reached with the key, and
 * says plainly what the key may not do there; it fails when a URL or the key does not work, or
 * nothing is set.
 */

const PROBE_TIMEOUT_MS = 15_000;

interface Probe {
	service: Service;
	method: 'GET' | 'POST';
	path: string;
	query?: IDataObject;
	/** A JSON body; a POST without one is sent with no body at all. */
	body?: IDataObject | IDataObject[];
	/** What the request needs the key to be allowed: "create inboxes (inboxes:write)". */
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
	// No body: no entry to create and no batch a lenient service could open a pool for.
	{
		service: 'inbox',
		method: 'POST',
		path: '/inboxes',
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
			return `The ${name} service answered with a server error (HTTP ${status}${quoted(answer)}): this says nothing about the API key; try again later.`;
	}
	// A page where the API should be is whatever else sits at that URL.
	if (answer.kind === 'html' || kind === 'notFound') return wrongUrl;
	if (probe.method === 'GET' && kind === 'success') {
		const key = probe.path === '/pools' ? 'pools' : 'inboxes';
		return listIn(answer.body, key) ? undefined : wrongUrl;
	}
	// POSTs of nothing: a refusal of the body (400/415/422), a credit (402) or rate (429) limit
	// all come after the key was accepted.
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

/** What the checks of one service found. */
interface ServiceCheck {
	allowed: string[];
	refused: string[];
	/** Why the service cannot be used with this credential (URL, key, reachability). */
	problem?: string;
}

async function checkService(
	ctx: ICredentialTestFunctions,
	apiKey: string,
	service: Service,
	base: string,
): Promise<ServiceCheck> {
	const check: ServiceCheck = { allowed: [], refused: [] };
	for (const probe of PROBES.filter((p) => p.service === service)) {
		const answer = await send(ctx, apiKey, base, probe);
		const problem = typeof answer === 'string' ? answer : problemOf(probe, answer);
		if (!problem) check.allowed.push(probe.permission);
		else if (typeof answer !== 'string' && answer.statusCode === 403)
			check.refused.push(`${probe.permission} (HTTP 403${quoted(answer)})`);
		// Once a service cannot be used at all, its other checks would only repeat that.
		else return { ...check, problem };
	}
	return check;
}

const list = (words: string[]) =>
	words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;

export async function leadInboxApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const apiKey = String(data.apiKey ?? '').trim();
	if (!apiKey)
		return {
			status: 'Error',
			message: 'The API key is empty: paste the key the service operator issued.',
		};
	const problems: string[] = [];
	const said: string[] = [];
	for (const service of ['inbox', 'leads'] as const) {
		const raw = service === 'leads' ? data.leadsBaseUrl : data.inboxBaseUrl;
		if (String(raw ?? '').trim() === '') continue;
		const checked = checkBaseUrl(service, raw);
		if (!('url' in checked)) {
			problems.push([checked.problem, checked.fix].filter(Boolean).join('. '));
			continue;
		}
		const check = await checkService(this, apiKey, service, checked.url);
		const name = service === 'leads' ? 'Lead search' : 'Inbox management';
		if (check.problem) problems.push(check.problem);
		else if (check.allowed.length === 0)
			problems.push(
				`${name}: the API key may not ${list(check.refused)}. Ask the service operator for these permissions, or leave the ${CREDENTIAL_FIELDS[service]} empty if you do not use this service.`,
			);
		else if (check.refused.length === 0) said.push(`${name} works`);
		else
			said.push(
				`${name} works, but this key may not ${list(check.refused)}: the nodes that need it will fail until the operator grants it`,
			);
	}
	if (problems.length > 0) return { status: 'Error', message: problems.join(' ') };
	if (said.length === 0)
		return {
			status: 'Error',
			message: `Set the ${CREDENTIAL_FIELDS.leads}, the ${CREDENTIAL_FIELDS.inbox}, or both: the credential names no service.`,
		};
	return { status: 'OK', message: `Connection successful. ${said.join('. ')}.` };
}
