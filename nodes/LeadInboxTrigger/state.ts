import type { IDataObject } from 'n8n-workflow';

/*
 * What the trigger remembers between checks, in the workflow's static data. It is saved by n8n
 * whenever it changes, so it is kept small: IDs only (no addresses, names or dates), grouped by
 * status, one short string per group. 10,000 inboxes take 274 KiB (bench/trigger.bench.cts), and
 * nothing is written when a check found no change.
 */

/** IDs grouped by a key: the inbox status, or "all" where only presence matters. */
export type Snapshot = Map<string, string>;

interface StoredState {
	/** The event and pool this was recorded for: another scope starts over. */
	scope: string;
	/** Group key -> IDs joined by SEPARATOR. */
	groups: Record<string, string>;
}

const STATE_KEY = 'leadInboxTrigger';
/** IDs never contain a line break in practice; one that does is kept out of the state. */
const SEPARATOR = '\n';

/** The key an item is followed by from one check to the next; none for an item without an ID. */
export function followedId(item: IDataObject): string | undefined {
	const id = item.id;
	if (typeof id !== 'string' && typeof id !== 'number') return undefined;
	return String(id).includes(SEPARATOR) ? undefined : String(id);
}

/** A snapshot of items: id -> group key. */
export function snapshotOf(items: IDataObject[], groupOf: (item: IDataObject) => string): Snapshot {
	const snapshot: Snapshot = new Map();
	for (const item of items) {
		const id = followedId(item);
		if (id !== undefined) snapshot.set(id, groupOf(item));
	}
	return snapshot;
}

export function sameSnapshot(a: Snapshot, b: Snapshot): boolean {
	if (a.size !== b.size) return false;
	for (const [id, group] of a) if (b.get(id) !== group) return false;
	return true;
}

function encode(snapshot: Snapshot): Record<string, string> {
	const groups: Record<string, string[]> = {};
	for (const [id, group] of snapshot) (groups[group] ??= []).push(id);
	return Object.fromEntries(
		Object.entries(groups).map(([group, ids]) => [group, ids.join(SEPARATOR)]),
	);
}

/** The snapshot recorded for this scope, or undefined when there is none (a first check). */
export function readSnapshot(staticData: IDataObject, scope: string): Snapshot | undefined {
	const stored = staticData[STATE_KEY] as StoredState | undefined;
	if (!stored || stored.scope !== scope || typeof stored.groups !== 'object') return undefined;
	const snapshot: Snapshot = new Map();
	for (const [group, ids] of Object.entries(stored.groups))
		if (typeof ids === 'string' && ids)
			for (const id of ids.split(SEPARATOR)) snapshot.set(id, group);
	return snapshot;
}

/** Records the snapshot for this scope, replacing what was recorded. */
export function writeSnapshot(staticData: IDataObject, scope: string, snapshot: Snapshot): void {
	staticData[STATE_KEY] = { scope, groups: encode(snapshot) } satisfies StoredState;
}
