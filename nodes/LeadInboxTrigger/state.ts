import type { IDataObject } from 'n8n-workflow';
import { decodeKeys, encodeKeys, keyOf } from './keys';

/*
 * What the trigger remembers between checks, in the workflow's static data. n8n saves it with
 * the workflow (after every check that changed it), so it is kept small: a 48-bit key per ID
 * (keys.ts), not the IDs themselves, nor addresses, names or dates; grouped, one short string
 * per group, sorted so that the same memory always encodes the same way and a quiet check
 * changes nothing (bench/README.md has the size for 10,000 and 50,000 inboxes).
 *
 * Besides what the last check listed, it keeps what went missing, for a while: a listing that
 * leaves an inbox out once (a replica behind, a page that shifted) must not make it news when it
 * is listed again.
 */

/** Keys of IDs with their group: the inbox status, or "all" where only presence matters. */
export type Groups = Map<number, string>;

/** Items that were listed before and then went missing, since the same check. */
export interface Missing {
	/** When the check that first missed them ran (this machine's clock, ms). */
	since: number;
	/** How many trustworthy checks have missed them since. */
	misses: number;
	ids: Groups;
}

export interface Memory {
	/** What the last check listed. */
	listed: Groups;
	missing: Missing[];
	/** When the first check ran (this machine's clock, ms). */
	startedAt?: number;
	/** The newest createdAt listed when the trigger started watching (the service's clock, ms). */
	firstNewest?: number;
	/** The newest createdAt listed so far. */
	newest?: number;
	/** Checks in a row that listed much less than was remembered, and what they listed. */
	doubt?: { checks: number; listing: string };
}

interface StoredMissing {
	since: number;
	misses: number;
	groups: Record<string, string>;
}

interface StoredState {
	/** The event and pool this was recorded for: another scope starts over. */
	scope: string;
	/**
	 * FORMAT: groups hold keys (keys.ts). Without it, a record of version 0.1.0, whose groups
	 * hold the IDs themselves joined by line breaks: read, and rewritten as keys when it changes.
	 */
	format?: number;
	/** Group -> its keys, encoded. */
	groups: Record<string, string>;
	missing?: StoredMissing[];
	startedAt?: number;
	firstNewest?: number;
	newest?: number;
	doubt?: { checks: number; listing: string };
}

const STATE_KEY = 'leadInboxTrigger';
const FORMAT = 2;

/** The key an item is followed by from one check to the next; none for an item without an ID. */
export function followedKey(item: IDataObject): number | undefined {
	const id = item.id;
	if (typeof id !== 'string' && typeof id !== 'number') return undefined;
	return keyOf(String(id));
}

/** The groups of listed items: id -> group key. */
export function groupsOf(items: IDataObject[], groupOf: (item: IDataObject) => string): Groups {
	const groups: Groups = new Map();
	for (const item of items) {
		const key = followedKey(item);
		if (key !== undefined) groups.set(key, groupOf(item));
	}
	return groups;
}

function encode(groups: Groups): Record<string, string> {
	const byGroup: Record<string, number[]> = {};
	for (const [key, group] of groups) (byGroup[group] ??= []).push(key);
	return Object.fromEntries(
		Object.keys(byGroup)
			.sort()
			.map((group) => [group, encodeKeys(byGroup[group])]),
	);
}

/** The keys of one group as stored: encoded keys, or (before FORMAT) IDs joined by line breaks. */
function keysOf(stored: string, format: number | undefined): number[] | undefined {
	if (format === FORMAT) return decodeKeys(stored);
	return stored.split('\n').map(keyOf);
}

/** The groups as stored; undefined when a group cannot be read (the record starts over). */
function decode(stored: unknown, format: number | undefined): Groups | undefined {
	const groups: Groups = new Map();
	if (typeof stored !== 'object' || stored === null) return groups;
	for (const [group, encoded] of Object.entries(stored)) {
		if (typeof encoded !== 'string' || !encoded) continue;
		const keys = keysOf(encoded, format);
		if (!keys) return undefined;
		for (const key of keys) groups.set(key, group);
	}
	return groups;
}

const finite = (value: unknown) =>
	typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The memory recorded for this scope, or undefined when there is none (a first check). */
export function readMemory(staticData: IDataObject, scope: string): Memory | undefined {
	const stored = staticData[STATE_KEY] as StoredState | undefined;
	if (!stored || stored.scope !== scope || typeof stored.groups !== 'object') return undefined;
	const format = stored.format;
	if (format !== undefined && format !== FORMAT) return undefined; // written by a newer version
	const listed = decode(stored.groups, format);
	const missing: Missing[] = [];
	for (const m of Array.isArray(stored.missing) ? stored.missing : []) {
		const ids = decode(m?.groups, format);
		if (!ids) return undefined;
		missing.push({ since: finite(m?.since) ?? 0, misses: finite(m?.misses) ?? 0, ids });
	}
	if (!listed) return undefined;
	const doubt = stored.doubt;
	return {
		listed,
		missing,
		startedAt: finite(stored.startedAt),
		firstNewest: finite(stored.firstNewest),
		newest: finite(stored.newest),
		doubt:
			doubt && finite(doubt.checks) && typeof doubt.listing === 'string'
				? { checks: doubt.checks, listing: doubt.listing }
				: undefined,
	};
}

function stateOf(scope: string, memory: Memory): StoredState {
	const state: StoredState = { scope, format: FORMAT, groups: encode(memory.listed) };
	const missing = memory.missing.filter((m) => m.ids.size > 0);
	if (missing.length)
		state.missing = missing.map((m) => ({
			since: m.since,
			misses: m.misses,
			groups: encode(m.ids),
		}));
	if (memory.startedAt !== undefined) state.startedAt = memory.startedAt;
	if (memory.firstNewest !== undefined) state.firstNewest = memory.firstNewest;
	if (memory.newest !== undefined) state.newest = memory.newest;
	if (memory.doubt) state.doubt = memory.doubt;
	return state;
}

/**
 * Records the memory for this scope. n8n saves static data that was written to, so a memory
 * equal to the recorded one is not written again.
 */
export function writeMemory(staticData: IDataObject, scope: string, memory: Memory): void {
	const state = stateOf(scope, memory);
	if (JSON.stringify(staticData[STATE_KEY]) === JSON.stringify(state)) return;
	staticData[STATE_KEY] = state;
}
