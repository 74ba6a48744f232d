import type { IDataObject } from 'n8n-workflow';
import {
	envelopeOf,
	isObject,
	listIn,
	readBoolean,
	readNumber,
	serviceWords,
	type ServiceAnswer,
} from '../shared/answer';
import { inNodeWords } from './labels';
import type { Failure, Pending } from './plan';

/*
 * Reading a creation answer the way any service that honours the spec may write it: per-entry
 * `results` in any order and under any status, a failed entry's reason and code in whatever
 * field carries them, the new pool under `pool` or another pool-shaped field.
 */

export interface NewPool {
	id: string;
	name?: string;
}

/** The per-entry results of an answer, or undefined when it carries none. */
export function resultsIn(body: unknown): IDataObject[] | undefined {
	const list = listIn(body, 'results');
	if (list) return list.filter(isObject);
	// One entry answered as one result object.
	if (
		isObject(body) &&
		typeof body.emailAddress === 'string' &&
		('success' in body || 'inboxId' in body)
	)
		return [body];
	return undefined;
}

/** The pool the request created: `pool`, another field holding a pool, or a top-level poolId. */
export function poolIn(body: unknown): NewPool | undefined {
	const envelope = envelopeOf(body, 'results');
	const asPool = (value: unknown): NewPool | undefined =>
		isObject(value) && (typeof value.id === 'string' || typeof value.id === 'number')
			? { id: String(value.id), ...(typeof value.name === 'string' ? { name: value.name } : {}) }
			: undefined;
	const fields = Object.entries(envelope).filter(
		([key]) => !['results', 'summary', 'error', 'errors', 'details'].includes(key),
	);
	const named = fields.find(([key, value]) => /pool/i.test(key) && asPool(value));
	if (named) return asPool(named[1]);
	// A field of another name that holds an {id, name} object, not an inbox.
	const shaped = fields.find(
		([, value]) =>
			asPool(value) && isObject(value) && 'name' in value && !('emailAddress' in value),
	);
	if (shaped) return asPool(shaped[1]);
	return typeof envelope.poolId === 'string' ? { id: envelope.poolId } : undefined;
}

/** An address as entries and results are matched: trimmed, case-insensitive. */
export const addressOf = (value: unknown) =>
	typeof value === 'string' && value.trim() ? value.trim().toLowerCase() : undefined;

function addressOfResult(result: IDataObject): string | undefined {
	return addressOf(result.emailAddress) ?? addressOf(result.email) ?? addressOf(result.address);
}

/**
 * The result of each entry: matched by address (case-insensitive; repeated addresses in turn),
 * by position only for results without an address when there is one result per entry.
 */
export function matchResults(
	addresses: string[],
	results: IDataObject[],
): Array<IDataObject | undefined> {
	const matched: Array<IDataObject | undefined> = new Array(addresses.length).fill(undefined);
	const waiting = new Map<string, number[]>();
	addresses.forEach((address, index) => {
		const key = addressOf(address) ?? '';
		waiting.set(key, [...(waiting.get(key) ?? []), index]);
	});
	const positional = results.length === addresses.length;
	results.forEach((result, position) => {
		const key = addressOfResult(result);
		if (key !== undefined) {
			const index = waiting.get(key)?.shift();
			if (index !== undefined) matched[index] = result;
			return;
		}
		if (positional && matched[position] === undefined) {
			matched[position] = result;
			const queue = waiting.get(addressOf(addresses[position]) ?? '');
			if (queue) queue.splice(queue.indexOf(position), 1);
		}
	});
	return matched;
}

/** The codes of the decisions, for a failed result that carries only an HTTP status. */
const CODE_BY_STATUS: Record<number, string> = {
	400: 'invalid_entry',
	404: 'pool_not_found',
	409: 'email_exists',
	422: 'connection_failed',
};

export type Outcome = { created: true } | { created: false; code: string; reason: string };

export function outcomeOf(result: IDataObject): Outcome {
	const status = typeof result.status === 'string' ? result.status : undefined;
	const success =
		readBoolean(result.success) ??
		readBoolean(result.created) ??
		(status && /^(created|success|succeeded|ok|active)$/i.test(status) ? true : undefined) ??
		(result.inboxId !== undefined && result.inboxId !== null);
	if (success) return { created: true };
	const words = serviceWords({ kind: 'json', body: result, text: '' });
	const httpStatus = readNumber(result.statusCode ?? result.status);
	const code =
		words.code && !/^(failed|failure|error)$/i.test(words.code)
			? words.code
			: ((httpStatus !== undefined ? CODE_BY_STATUS[httpStatus] : undefined) ?? 'failed');
	return {
		created: false,
		code,
		reason: words.message ?? 'The service refused the entry without saying why.',
	};
}

/** What one batch's results say of each of its entries. */
export interface BatchReading {
	created: Array<{ item: Pending; result: IDataObject }>;
	/** Entries the service refused, with its code and reason. */
	failed: Failure[];
	/** Entries the answer has no result for: settled by listing. */
	unanswered: Pending[];
	/** The group's new pool, as known after this answer. */
	pool: NewPool | undefined;
	/** Said when the service's summary disagrees with its results. */
	note?: string;
}

/** Reads a batch's answer: each entry created, refused (with the service's code), or unanswered. */
export function readBatch(
	items: Pending[],
	answer: ServiceAnswer,
	results: IDataObject[],
	knownPool: NewPool | undefined,
): BatchReading {
	let pool = knownPool;
	const answeredPool = poolIn(answer.body);
	if (answeredPool && (!pool || pool.id === answeredPool.id)) pool = answeredPool;
	const matched = matchResults(
		items.map((item) => String(item.entry.emailAddress)),
		results,
	);
	const outcomes = matched.map((result) => result && outcomeOf(result));
	// A result of a new-pool entry names the pool when the answer has no pool field.
	if (!pool) {
		const k = items.findIndex((item, n) => item.newPool && outcomes[n]?.created);
		const poolId = k >= 0 ? matched[k]?.poolId : undefined;
		if (typeof poolId === 'string' && poolId) pool = { id: poolId };
	}
	const reading: BatchReading = { created: [], failed: [], unanswered: [], pool };
	for (const [n, item] of items.entries()) {
		const result = matched[n];
		const outcome = outcomes[n];
		if (!result || !outcome) reading.unanswered.push(item);
		else if (outcome.created) reading.created.push({ item, result });
		else
			reading.failed.push({
				index: item.index,
				emailAddress: String(result.emailAddress ?? item.entry.emailAddress),
				code: outcome.code,
				reason: inNodeWords(outcome.reason),
			});
	}
	const summary = envelopeOf(answer.body, 'results').summary;
	const reported = isObject(summary) ? readNumber(summary.created) : undefined;
	if (reported !== undefined && reported !== reading.created.length && !reading.unanswered.length)
		reading.note = `The service's summary says ${reported} created in a batch whose results show ${reading.created.length}; the outputs follow the results.`;
	return reading;
}
