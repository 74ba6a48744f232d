/**
 * The probe: a few requests to a real account that, by the specs, charge nothing and change
 * nothing (requests.cts says which and why), each answer checked as the proxy checks a forwarded
 * one. The answers of one request decide the next only as far as reads go: the pool its entries
 * name, the skip of a walk's next page.
 */
import { DivergenceReport, OPERATIONS } from '../divergences/index.cjs';
import { forward, UpstreamFailure } from '../forward.cjs';
import { serviceOf, upstreamUrl, type Upstreams } from '../routing.cjs';
import {
	assertHarmless,
	CREATION_CHECKS_SKIPPED,
	creationRequests,
	poolPage,
	type ProbeRequest,
	readRequests,
	refusedRequests,
	walkPage,
	WRONG_KEY,
} from './requests.cjs';

export interface ProbeOptions {
	/** The lead search base URL (as the credential's), or undefined to leave that service out. */
	leads?: string;
	/** The inbox base URL, with /api/v1. */
	inboxes?: string;
	apiKey: string;
	timeoutMs: number;
	/**
	 * A pool of the account the creation checks may use (entries without an address): without it
	 * they are skipped, so by default nothing the probe sends can create anything anywhere.
	 */
	creationPool?: string;
}

export interface Sent {
	method: string;
	url: string;
	purpose: string;
	/** The status, or why there is none. */
	status: number | string;
}

export interface ProbeResult {
	report: DivergenceReport;
	sent: Sent[];
	/** Why creation requests stopped short: a creation request was accepted (2xx). */
	stoppedCreating?: string;
	/** Requests that got no answer (the service could not be reached). */
	unreachable: number;
	/** Checks not made, and why. */
	skipped: string[];
}

const WALKS: Array<[limit: number, pages: number]> = [
	[1, 3],
	[2, 2],
];

export async function runProbe(options: ProbeOptions): Promise<ProbeResult> {
	const report = new DivergenceReport();
	const upstreams: Upstreams = { leads: options.leads, inboxes: options.inboxes };
	const sent: Sent[] = [];
	let unreachable = 0;

	let stoppedCreating: string | undefined;

	async function send(request: ProbeRequest): Promise<unknown> {
		const [method, path] = OPERATIONS[request.operation].split(' ');
		const service = serviceOf(path)!;
		if (!upstreams[service]) return undefined;
		assertHarmless(request, options.creationPool); // the last word before anything leaves
		const query = request.query ?? {};
		const search = new URLSearchParams(query).toString();
		const url = upstreamUrl(upstreams, service, `${path}${search ? `?${search}` : ''}`);
		const key = request.wrongKey ? WRONG_KEY : options.apiKey;
		const text =
			request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
		const body = text === undefined ? undefined : Buffer.from(text);
		let answer;
		try {
			answer = await forward(
				{
					method,
					url,
					headers: {
						authorization: `Bearer ${key}`,
						accept: 'application/json',
						...(body ? { 'content-type': 'application/json' } : {}),
					},
					body,
				},
				options.timeoutMs,
			);
		} catch (error) {
			if (!(error instanceof UpstreamFailure)) throw error;
			unreachable += 1;
			sent.push({ method, url, purpose: request.purpose, status: error.message });
			return undefined;
		}
		sent.push({ method, url, purpose: request.purpose, status: answer.status });
		// A service lenient enough to accept a creation request that holds nothing to create is
		// told nothing more it might act on.
		if (request.operation === 'create' && answer.status >= 200 && answer.status < 300)
			stoppedCreating = `${method} ${url} (${request.purpose}) was accepted with HTTP ${answer.status}: no further creation request was sent. Check the account's pools and inboxes.`;
		const answerText = answer.body.toString('utf8');
		report.add({
			operation: request.operation,
			method,
			path,
			query,
			requestBody: request.rawBody ?? request.body,
			caller: request.wrongKey ? 'probe-wrong-key' : 'probe',
			status: answer.status,
			headers: answer.headers,
			text: answerText,
		});
		if (answer.status !== 200) return undefined;
		try {
			return JSON.parse(answerText);
		} catch {
			return undefined;
		}
	}

	if (options.inboxes) {
		const [pools, ...reads] = readRequests();
		const first = ((await send(pools)) as { pools?: Array<{ id?: unknown }> } | undefined)
			?.pools?.[0]?.id;
		for (const request of reads) await send(request);
		for (const [limit, pages] of WALKS) {
			let skip = 0;
			for (let page = 0; page < pages; page++) {
				const answer = (await send(walkPage(limit, skip))) as
					| { inboxes?: unknown[]; pagination?: { hasMore?: unknown } }
					| undefined;
				const returned = Array.isArray(answer?.inboxes) ? answer.inboxes.length : 0;
				if (returned === 0 || answer?.pagination?.hasMore === false) break;
				skip += returned;
			}
		}
		if (typeof first === 'string' && first) await send(poolPage(first));
	}
	const skipped: string[] = [];
	const creation = options.creationPool ? creationRequests(options.creationPool) : [];
	if (options.inboxes && !options.creationPool) skipped.push(CREATION_CHECKS_SKIPPED);
	for (const request of [...refusedRequests(), ...creation]) {
		if (stoppedCreating && request.operation === 'create') continue;
		await send(request);
	}
	return { report, sent, unreachable, skipped, ...(stoppedCreating ? { stoppedCreating } : {}) };
}
