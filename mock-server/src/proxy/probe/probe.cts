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
	NO_SUCH_POOL,
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
		assertHarmless(request); // the last word before anything leaves
		const query = request.query ?? {};
		const search = new URLSearchParams(query).toString();
		const url = upstreamUrl(upstreams, service, `${path}${search ? `?${search}` : ''}`);
		const key = request.wrongKey ? WRONG_KEY : options.apiKey;
		const body = request.body === undefined ? undefined : Buffer.from(JSON.stringify(request.body));
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
		// A service lenient enough to accept an entry without an address, in a pool nobody issued,
		// is told nothing more it might act on.
		if (request.operation === 'create' && answer.status >= 200 && answer.status < 300)
			stoppedCreating = `${method} ${url} (${request.purpose}) was accepted with HTTP ${answer.status}: no further creation request was sent. Check the account's pools and inboxes.`;
		const text = answer.body.toString('utf8');
		report.add({
			operation: request.operation,
			method,
			path,
			query,
			requestBody: request.body,
			caller: request.wrongKey ? 'probe-wrong-key' : 'probe',
			status: answer.status,
			headers: answer.headers,
			text,
		});
		if (answer.status !== 200) return undefined;
		try {
			return JSON.parse(text);
		} catch {
			return undefined;
		}
	}

	let poolId = NO_SUCH_POOL;
	if (options.inboxes) {
		const [pools, ...reads] = readRequests();
		const first = ((await send(pools)) as { pools?: Array<{ id?: unknown }> } | undefined)
			?.pools?.[0]?.id;
		if (typeof first === 'string' && first) poolId = first;
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
		if (poolId !== NO_SUCH_POOL) await send(poolPage(poolId));
	}
	for (const request of refusedRequests()) {
		if (stoppedCreating && request.operation === 'create') continue;
		await send(request);
	}
	return { report, sent, unreachable, ...(stoppedCreating ? { stoppedCreating } : {}) };
}
