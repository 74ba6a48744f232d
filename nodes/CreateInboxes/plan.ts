import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { timeoutMsFrom } from '../shared/timeout';
import {
	CREATE_INBOXES_TIMEOUT_SECONDS,
	DEFAULT_BATCH_SIZE,
	DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS,
} from './description';
import { entryOf, text } from './entry';

/*
 * What a run will send, decided before anything is sent: the run's settings, the entry of each
 * usable item (the others fail on their own) and the batches, in order.
 */

/** An item whose entry is sent. */
export interface Pending {
	index: number;
	entry: IDataObject;
	newPool: boolean;
	/** For an entry going to a new pool: that pool's name, read for its own item. */
	poolName: string;
}

/** An entry that was not created: its data as fields, so workflows can branch on `code`. */
export interface Failure {
	index: number;
	emailAddress: string;
	/**
	 * The service's code, `invalid_entry` (checked here), `rate_limited` / `not_sent` (not sent),
	 * `not_created` (the request failed; checked: it does not exist), `unknown_outcome`.
	 */
	code: string;
	reason: string;
}

/** One request: entries going to existing pools, or to one new pool (`group`). */
export interface Batch {
	items: Pending[];
	group: string;
	poolName: string;
}

export interface RunSettings {
	batchSize: number;
	maxWaitMs: number;
	timeoutMs: number;
}

/**
 * Batch size, the wait allowed on the rate limit and the time-out are settings of the whole run
 * (a batch holds many items), read from the first item. An expression that gives another item a
 * different value is not silently dropped: the returned note says which value was used.
 */
export function runSettings(
	ctx: IExecuteFunctions,
	itemCount: number,
	tool = false,
): { settings: RunSettings; note?: string } {
	type Options = { batchSize?: number; maxRateLimitWait?: number; timeoutSeconds?: number };
	const read = (i: number) => ctx.getNodeParameter('options', i, {}) as Options;
	const first = read(0);
	const labels: Record<keyof Options, string> = {
		batchSize: 'Batch Size',
		maxRateLimitWait: 'Max Wait on Rate Limit (Seconds)',
		timeoutSeconds: 'Timeout (Seconds)',
	};
	let note: string | undefined;
	for (let i = 1; i < itemCount && !note; i++) {
		const options = read(i);
		const differing = (Object.keys(labels) as (keyof Options)[]).filter(
			(name) => options[name] !== first[name],
		);
		if (differing.length > 0)
			note = `${differing.map((name) => `Options > ${labels[name]}`).join(' and ')} ${differing.length === 1 ? 'applies' : 'apply'} to the whole run, so the first item's value was used, although item ${i} gives ${differing.map((name) => String(options[name] ?? 'none')).join(' and ')}.`;
	}
	return {
		settings: {
			batchSize: Math.min(
				DEFAULT_BATCH_SIZE,
				Math.max(1, Math.floor(first.batchSize ?? DEFAULT_BATCH_SIZE)),
			),
			// An agent waiting out the hourly limit inside one tool call would hang for up to an
			// hour: as a tool it is told at once when the limit frees, unless the user chose to wait.
			maxWaitMs:
				Math.max(0, first.maxRateLimitWait ?? (tool ? 0 : DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS)) *
				1000,
			timeoutMs: timeoutMsFrom(first, CREATE_INBOXES_TIMEOUT_SECONDS),
		},
		note,
	};
}

/** The entry of every item, or why it cannot be sent (`invalid_entry`). */
export function readEntries(
	ctx: IExecuteFunctions,
	itemCount: number,
): { pending: Pending[]; invalid: Failure[] } {
	const pending: Pending[] = [];
	const invalid: Failure[] = [];
	for (let i = 0; i < itemCount; i++) {
		const entry = entryOf(ctx, i);
		if ('problem' in entry)
			invalid.push({
				index: i,
				emailAddress: entry.emailAddress,
				code: 'invalid_entry',
				reason: entry.problem,
			});
		else
			pending.push({
				index: i,
				...entry,
				poolName: entry.newPool ? text(ctx, 'newPoolName', i) : '',
			});
	}
	return { pending, invalid };
}

/**
 * The requests to send, in order: each at most `batchSize` entries going to existing pools or to
 * one new pool, the entries of a group together and in input order.
 */
export function batchesOf(pending: Pending[], batchSize: number): Batch[] {
	const groups = new Map<string, Pending[]>();
	for (const item of pending) {
		const group = item.newPool ? `new pool ${item.poolName}` : 'existing pools';
		const members = groups.get(group);
		if (members) members.push(item);
		else groups.set(group, [item]);
	}
	const batches: Batch[] = [];
	for (const [group, members] of groups)
		for (let k = 0; k < members.length; k += batchSize)
			batches.push({
				items: members.slice(k, k + batchSize),
				group,
				poolName: members[0].poolName,
			});
	return batches;
}
