import type { IDataObject } from 'n8n-workflow';

/*
 * What the trigger remembers between checks, in the workflow's static data. It is saved by n8n
 * whenever it changes, so it is kept small: IDs only (no addresses, names or dates), grouped by
 * status, one short string per group. 10,000 inboxes take 274 KiB (bench/trigger.bench.cts), and nothing is written
 * when a check found no change.
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

/** A snapshot of items: id -> group key. Items without an id cannot be followed and are left out. */
export function snapshotOf(items: IDataObject[], groupOf: (item: IDataObject) => string): Snapshot {
	const snapshot: Snapshot = new Map();
	for (const item of items) {
		const id = item.id;
		if ((typeof id !== 'string' && typeof id !== 'number') || String(id).includes(SEPARATOR))
			continue;
		snapshot.set(String(id), groupOf(item));
	}
	return snapshot;
}

function encode(snapshot: Snapshot): Record<string, string> {
	const groups: Record<string, string[]> = {};
	for (const [id, group] of snapshot) (groups[group] ??= []).push(id);
	return Object.fromEntries(
		Object.keys(groups)
			.sort()
			.map((group) => [group, groups[group].sort().join(SEPARATOR)]),
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

/**
 * Records the snapshot. Static data is written only when it differs: n8n saves the workflow's
 * static data after a check that changed it.
 */
export function writeSnapshot(staticData: IDataObject, scope: string, snapshot: Snapshot): void {
	const groups = encode(snapshot);
	const stored = staticData[STATE_KEY] as StoredState | undefined;
	if (stored?.scope === scope && JSON.stringify(stored.groups) === JSON.stringify(groups)) return;
	staticData[STATE_KEY] = { scope, groups } satisfies StoredState;
}
