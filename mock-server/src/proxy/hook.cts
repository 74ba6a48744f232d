/**
 * The reference server in front of the real services, or in place of them: API requests of a
 * service with an upstream are forwarded there and answered as it answered (recorded, and checked
 * against the contract); with recordings, they are answered from those. Runs before the server's
 * own routes (an onRequest hook, before any body parsing), so the request goes on as it came.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../core/clock.cjs';
import type { DivergenceReport } from './divergences/index.cjs';
import { forward, passedOn, UpstreamFailure } from './forward.cjs';
import { type Recorder, recordedRequest, recordedResponse, responseBytes } from './recordings.cjs';
import type { Replayer } from './replay.cjs';
import {
	type Allowed,
	operationOf,
	refusal,
	serviceOf,
	upstreamUrl,
	type Upstreams,
} from './routing.cjs';

export interface ProxyOptions {
	upstreams: Upstreams;
	allowed: Allowed;
	timeoutMs: number;
	clock: Clock;
	report: DivergenceReport;
	recorder?: Recorder;
	replayer?: Replayer;
	/** Where a problem that does not fail the request is said (the server's log). */
	warn: (message: string, fields: Record<string, unknown>) => void;
}

/** A forwarded body is the real service's to refuse: read up to this much. */
const FORWARDED_BODY_LIMIT = 16 * 1024 * 1024;

async function bodyOf(raw: IncomingMessage): Promise<Buffer | 'too large'> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of raw as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size > FORWARDED_BODY_LIMIT) return 'too large';
		chunks.push(chunk);
	}
	return Buffer.concat(chunks);
}

/** Who asked, so one caller's pages are walked apart from another's: a hash, never the key. */
const callerOf = (authorization: string | undefined) =>
	createHash('sha256')
		.update(authorization ?? '')
		.digest('hex')
		.slice(0, 16);

const fail = (reply: FastifyReply, status: number, error: string) =>
	reply.code(status).type('application/json; charset=utf-8').send({ error });

export function registerProxy(app: FastifyInstance, options: ProxyOptions): void {
	const { upstreams, replayer } = options;
	app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
		const [path] = request.url.split('?');
		const service = serviceOf(path);
		if (!service || (!replayer && !upstreams[service])) return; // served by this server
		const body = await bodyOf(request.raw);
		if (body === 'too large')
			return fail(
				reply,
				413,
				`Request body is larger than ${FORWARDED_BODY_LIMIT / 1024 / 1024} MiB; this proxy does not forward it.`,
			);
		const query = Object.fromEntries(new URL(request.url, 'http://proxy').searchParams);
		const asRecorded = recordedRequest(request.method, path, query, body);
		// The journal keeps the body as data (it redacts it itself).
		request.body = asRecorded.body ?? asRecorded.bodyText;

		if (replayer) {
			const found = replayer.answer(asRecorded);
			if (!('recording' in found))
				return fail(
					reply,
					404,
					found.closest
						? `No recording matches ${request.method} ${request.url}. The closest is ${found.closest.file}, which differs in ${found.closest.differences.join('; ')}. Record this request, or pass --replay-ignore for fields that may differ.`
						: `No recording matches ${request.method} ${request.url}: the folder holds none for it.`,
				);
			const { response } = found.recording;
			return reply.code(response.status).headers(response.headers).send(responseBytes(response));
		}

		const refused = refusal(request.method, path, options.allowed);
		if (refused) return fail(reply, 403, refused);
		const url = upstreamUrl(upstreams, service, request.url);
		const startedAt = options.clock.now();
		const started = performance.now();
		let answer;
		try {
			answer = await forward(
				{ method: request.method, url, headers: passedOn(request.headers), body },
				options.timeoutMs,
			);
		} catch (error) {
			if (!(error instanceof UpstreamFailure)) throw error;
			const name = service === 'leads' ? 'lead search' : 'inbox';
			return fail(
				reply,
				502,
				`The real ${name} service could not be reached through this proxy: ${error.message}. Check --proxy-${service} and the network${request.method === 'POST' ? '; a request that was sent may have been carried out' : ''}.`,
			);
		}
		const operation = operationOf(request.method, path);
		if (operation)
			options.report.add({
				operation,
				method: request.method,
				path,
				query,
				requestBody: asRecorded.body,
				caller: callerOf(request.headers.authorization),
				status: answer.status,
				headers: answer.headers,
				text: answer.body.toString('utf8'),
			});
		try {
			options.recorder?.write({
				request: asRecorded,
				response: recordedResponse(answer.status, answer.headers, answer.body),
				recordedAt: new Date(startedAt).toISOString(),
				durationMs: Math.round(performance.now() - started),
			});
		} catch (error) {
			// The caller still gets the real answer (it may have cost credits); the gap is said.
			options.warn(`a forwarded exchange could not be recorded: ${(error as Error).message}`, {
				operation: `${request.method} ${path}`,
			});
		}
		return reply.code(answer.status).headers(answer.headers).send(answer.body);
	});
}
