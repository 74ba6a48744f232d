import type { IDataObject } from 'n8n-workflow';
import { followedKey, type Groups, groupsOf, type Memory, type Missing } from './state';

/*
 * What one check means, given what the trigger remembers: which items are news, and what to
 * remember next. Plain functions over plain data, so every glitch a service can have is tested
 * here without a server (test/nodes/trigger-glitches.test.cts).
 *
 * The rules, each against one way a listing can lie:
 * - An item is news only the first time its ID is listed. IDs that go missing are remembered for
 *   a while (MISSING_KEPT_CHECKS trustworthy checks and MISSING_KEPT_MS, whichever is later), so
 *   an inbox left out of one listing (a replica behind, a page that shifted, no stable order, an
 *   empty answer) is not news when it comes back.
 * - An unknown ID whose createdAt says it existed before the trigger started watching (older
 *   than what its first check listed, or than that check's time less CLOCK_ALLOWANCE_MS), or
 *   well before items already recorded, is recorded without being news (a first check that
 *   missed it, or an inbox missing for longer than it is remembered).
 * - A check that lists much less than was remembered (DOUBT_SHARE of it, at least DOUBT_MIN
 *   items) cannot tell an outage from a real removal: it reports nothing, records nothing and
 *   says so, until DOUBT_CHECKS checks in a row list the same, which is then taken as the truth.
 * - A status change is the difference between the last status listed and the one listed now;
 *   a status that changed and changed back between two checks was never seen, so is not news.
 */

/** Trustworthy checks an item must miss before it may be forgotten. */
export const MISSING_KEPT_CHECKS = 3;
/** Time an item must be missing before it may be forgotten. */
export const MISSING_KEPT_MS = 24 * 60 * 60 * 1000;
/** At most this many missing IDs are kept (the oldest go first), so memory stays bounded. */
export const MISSING_KEPT_MAX = 10_000;
/** A check that misses at least this share of the remembered items, and... */
export const DOUBT_SHARE = 0.5;
/** ...at least this many, is doubted. */
export const DOUBT_MIN = 3;
/** Doubted checks in a row that list the same before the listing is believed. */
export const DOUBT_CHECKS = 3;
/** How much older than the newest recorded item an unknown one may be and still be news. */
export const CLOCK_ALLOWANCE_MS = 60 * 60 * 1000;

export interface Change {
	item: IDataObject;
	previous?: string;
}

export interface Check {
	/** What this check listed. */
	items: IDataObject[];
	/** The listing changed while it was read, or was read short of the service's count. */
	unsettled: boolean;
	/** When the check ran (this machine's clock, ms). */
	now: number;
	/** The item's group: its status, or "all" where only presence matters. */
	groupOf: (item: IDataObject) => string;
	/** Which items are news: new ones, or status changes (kept to the watched statuses). */
	kind: 'new' | 'status';
	statuses: string[];
}

export type Outcome =
	| { doubt: false; changes: Change[]; memory: Memory }
	| {
			doubt: true;
			/** How many remembered items the listing missed, of how many. */
			missed: number;
			remembered: number;
			checks: number;
			memory: Memory;
	  };

const createdAtOf = (item: IDataObject) => {
	const time = Date.parse(String(item.createdAt));
	return Number.isNaN(time) ? undefined : time;
};

function newestOf(items: IDataObject[]): number | undefined {
	let newest: number | undefined;
	for (const item of items) {
		const time = createdAtOf(item);
		if (time !== undefined && (newest === undefined || time > newest)) newest = time;
	}
	return newest;
}

/** A short fingerprint of which IDs a listing held (FNV-1a over their sorted keys). */
function fingerprint(listed: Groups): string {
	let hash = 0x811c9dc5;
	for (const key of [...listed.keys()].sort((a, b) => a - b)) {
		const text = `${key},`;
		for (let i = 0; i < text.length; i++)
			hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
	}
	return `${listed.size}:${hash.toString(36)}`;
}

/**
 * The first check: everything listed is what exists, not news. What it remembers is what a check
 * against an empty memory remembers, so both follow one rule.
 */
export function firstMemory(check: Check): Memory {
	// Nothing is remembered, so nothing can be missed: never a doubted check.
	return compare({ listed: new Map(), missing: [] }, check).memory;
}

/** Whether an unknown item existed before it could have been news (see the rules above). */
function existedBefore(item: IDataObject, memory: Memory): boolean {
	const time = createdAtOf(item);
	if (time === undefined) return false;
	if (memory.startedAt !== undefined && time < memory.startedAt - CLOCK_ALLOWANCE_MS) return true;
	if (memory.firstNewest !== undefined && time < memory.firstNewest) return true;
	return memory.newest !== undefined && time < memory.newest - CLOCK_ALLOWANCE_MS;
}

/** Every ID remembered, with the group it was last listed in: missing ones, then the last list. */
function rememberedGroups(memory: Memory): Groups {
	return new Map([...memory.missing.flatMap((missing) => [...missing.ids]), ...memory.listed]);
}

/** The later of two times, either of which may be unknown. */
const later = (a: number | undefined, b: number | undefined) =>
	a === undefined ? b : b === undefined ? a : Math.max(a, b);

/** The missing items after this check: found ones dropped, new ones added, old ones forgotten. */
function missingAfter(memory: Memory, listed: Groups, check: Check, trusted: boolean): Missing[] {
	const kept: Missing[] = [];
	for (const missing of memory.missing) {
		const ids: Groups = new Map([...missing.ids].filter(([key]) => !listed.has(key)));
		const misses = missing.misses + (trusted ? 1 : 0);
		const forgotten = misses >= MISSING_KEPT_CHECKS && check.now - missing.since >= MISSING_KEPT_MS;
		if (ids.size && !forgotten) kept.push({ since: missing.since, misses, ids });
	}
	const gone: Groups = new Map([...memory.listed].filter(([key]) => !listed.has(key)));
	if (gone.size) kept.push({ since: check.now, misses: trusted ? 1 : 0, ids: gone });
	// Bounded: past the cap, the longest missing are forgotten first.
	let count = kept.reduce((sum, missing) => sum + missing.ids.size, 0);
	while (count > MISSING_KEPT_MAX && kept.length > 1) count -= kept.shift()!.ids.size;
	return kept;
}

/** What this check reports, and what to remember after it. */
export function compare(memory: Memory, check: Check): Outcome {
	const listed = groupsOf(check.items, check.groupOf);
	const missed = [...memory.listed.keys()].filter((key) => !listed.has(key)).length;
	const doubted = missed >= DOUBT_MIN && missed >= memory.listed.size * DOUBT_SHARE;
	if (doubted) {
		const listing = fingerprint(listed);
		const checks = memory.doubt?.listing === listing ? memory.doubt.checks + 1 : 1;
		if (checks < DOUBT_CHECKS)
			return {
				doubt: true,
				missed,
				remembered: memory.listed.size,
				checks,
				memory: { ...memory, doubt: { checks, listing } },
			};
	}

	// One lookup for every item: the remembered IDs merged once, not searched per item.
	const remembered = rememberedGroups(memory);
	const changes: Change[] = [];
	for (const item of check.items) {
		const key = followedKey(item);
		if (key === undefined) continue;
		const previous = remembered.get(key);
		if (check.kind === 'new') {
			if (previous === undefined && !existedBefore(item, memory)) changes.push({ item });
			continue;
		}
		// A new inbox has no previous status: it is the New Inbox event's news, not this one's.
		const status = check.groupOf(item);
		if (previous === undefined || previous === status) continue;
		if (check.statuses.length && !check.statuses.includes(status)) continue;
		changes.push({ item, previous });
	}

	const newest = newestOf(check.items);
	return {
		doubt: false,
		changes,
		memory: {
			listed,
			missing: missingAfter(memory, listed, check, !check.unsettled),
			startedAt: memory.startedAt ?? check.now,
			firstNewest: memory.firstNewest ?? newest,
			newest: later(memory.newest, newest),
		},
	};
}
