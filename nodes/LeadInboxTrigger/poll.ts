import {
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
	NodeOperationError,
} from 'n8n-workflow';
import { fetchInboxes } from '../shared/inboxes';
import { fetchPools, POOLS_TIMEOUT_SECONDS } from '../shared/pools';
import { TIMEOUT_HINT, timeoutMsFrom } from '../shared/timeout';
import { TRIGGER_TIMEOUT_SECONDS, type TriggerEvent } from './description';
import {
	followedId,
	readSnapshot,
	sameSnapshot,
	type Snapshot,
	snapshotOf,
	writeSnapshot,
} from './state';

/*
 * A polling trigger over GET /inboxes and GET /pools (the inbox service has no webhooks). Each
 * check reads the whole list, compares it with what the last check recorded, and outputs one item
 * per change. The first check of an active workflow records and outputs nothing: everything that
 * already exists is not news. "Fetch Test Event" in the editor reads a real inbox or pool instead
 * and leaves the record alone.
 */

interface Settings {
	event: TriggerEvent;
	poolId: string;
	statuses: string[];
	timeoutMs: number;
}

function settingsOf(ctx: IPollFunctions): Settings {
	const event = ctx.getNodeParameter('event') as TriggerEvent;
	const poolId =
		event === 'newPool'
			? ''
			: String(ctx.getNodeParameter('poolId', '', { extractValue: true }) ?? '').trim();
	const statuses =
		event === 'inboxStatusChanged' ? (ctx.getNodeParameter('statuses', []) as string[]) : [];
	const options = ctx.getNodeParameter('options', {}) as IDataObject;
	return { event, poolId, statuses, timeoutMs: timeoutMsFrom(options, TRIGGER_TIMEOUT_SECONDS) };
}

function listInboxes(ctx: IPollFunctions, settings: Settings, status?: string, wanted = Infinity) {
	return fetchInboxes(ctx, {
		filter: { poolId: settings.poolId, status },
		wanted,
		timeoutMs: settings.timeoutMs,
		poolNotFoundHint:
			'The pool may have been deleted: pick another pool in the trigger, or leave Pool empty.',
	});
}

function listPools(ctx: IPollFunctions, settings: Settings) {
	return fetchPools(ctx, {
		timeoutMs: Math.max(settings.timeoutMs, POOLS_TIMEOUT_SECONDS * 1000),
		timeoutHint: TIMEOUT_HINT,
	});
}

const statusOf = (inbox: IDataObject) => String(inbox.status ?? '');

/** What a check compares: inbox statuses, or just which inboxes or pools exist. */
function snapshotFor(event: TriggerEvent, items: IDataObject[]): Snapshot {
	return snapshotOf(items, event === 'inboxStatusChanged' ? statusOf : () => 'all');
}

/** The items that are news since `before`, with the status they had then where it matters. */
function changesSince(
	settings: Settings,
	before: Snapshot,
	items: IDataObject[],
): { item: IDataObject; previousStatus?: string }[] {
	const changes: { item: IDataObject; previousStatus?: string }[] = [];
	for (const item of items) {
		// An item without an ID cannot be followed from one check to the next (nor is it recorded).
		const id = followedId(item);
		if (id === undefined) continue;
		const previous = before.get(id);
		if (settings.event !== 'inboxStatusChanged') {
			if (previous === undefined) changes.push({ item });
			continue;
		}
		// A new inbox has no previous status: it is the New Inbox event's news, not this one's.
		const status = statusOf(item);
		if (previous === undefined || previous === status) continue;
		if (settings.statuses.length && !settings.statuses.includes(status)) continue;
		changes.push({ item, previousStatus: previous });
	}
	return changes;
}

/** One output item: what happened, to what, and when this check saw it. */
function eventItem(
	settings: Settings,
	change: { item: IDataObject; previousStatus?: string | null },
	poolNames: Map<string, string> | undefined,
	seenAt: string,
): INodeExecutionData {
	const { item } = change;
	const json: IDataObject = { event: settings.event, ...item };
	if (settings.event !== 'newPool') json.poolName = poolNames?.get(String(item.poolId)) ?? null;
	if (settings.event === 'inboxStatusChanged') json.previousStatus = change.previousStatus ?? null;
	json.seenAt = seenAt;
	return { json };
}

async function poolNamesOf(ctx: IPollFunctions, settings: Settings) {
	if (settings.event === 'newPool') return undefined;
	const pools = await listPools(ctx, settings);
	return new Map(pools.map((pool) => [String(pool.id), String(pool.name ?? pool.id)]));
}

/** The newest of a list, by createdAt where the service gives it, else the last listed. */
function newest(items: IDataObject[]): IDataObject | undefined {
	const dated = items.filter((item) => !Number.isNaN(Date.parse(String(item.createdAt))));
	if (dated.length === 0) return items[items.length - 1];
	return dated.reduce((a, b) =>
		Date.parse(String(b.createdAt)) >= Date.parse(String(a.createdAt)) ? b : a,
	);
}

/**
 * "Fetch Test Event": a real inbox or pool of the account shaped as the event would be. A status
 * change cannot be seen in one look, so its previousStatus is null.
 */
async function testEvent(ctx: IPollFunctions, settings: Settings, seenAt: string) {
	let example: IDataObject | undefined;
	if (settings.event === 'newPool') example = newest(await listPools(ctx, settings));
	else {
		// Matching the filter where one exists: the first page of each status asked for, then any.
		const tries = settings.event === 'inboxStatusChanged' ? [...settings.statuses, ''] : [''];
		for (const status of tries) {
			example = newest(await listInboxes(ctx, settings, status || undefined, 1000));
			if (example) break;
		}
	}
	if (!example)
		throw new NodeOperationError(
			ctx.getNode(),
			settings.event === 'newPool'
				? 'The account has no pool yet to show as an example'
				: `The account has no inbox${settings.poolId ? ' in this pool' : ''} yet to show as an example`,
			{
				description:
					'Create one (for example with the Create Inboxes node), then fetch the test event again. Once the workflow is published, each check outputs what changed since the last one.',
			},
		);
	return [eventItem(settings, { item: example }, await poolNamesOf(ctx, settings), seenAt)];
}

export async function pollLeadInbox(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = settingsOf(this);
	const seenAt = new Date().toISOString();
	if (this.getMode() === 'manual') return [await testEvent(this, settings, seenAt)];

	const items =
		settings.event === 'newPool'
			? await listPools(this, settings)
			: await listInboxes(this, settings);
	const staticData = this.getWorkflowStaticData('node');
	const scope = `${settings.event}|${settings.poolId}`;
	const before = readSnapshot(staticData, scope);
	const changes = before ? changesSince(settings, before, items) : [];
	// Pool names before the record moves on: if listing them fails, the next check finds the
	// same changes again instead of losing them.
	const poolNames = changes.length ? await poolNamesOf(this, settings) : undefined;
	// n8n saves static data after a check that changed it: a quiet check writes nothing.
	const now = snapshotFor(settings.event, items);
	if (!before || !sameSnapshot(before, now)) writeSnapshot(staticData, scope, now);
	if (changes.length === 0) return null;
	return [changes.map((change) => eventItem(settings, change, poolNames, seenAt))];
}
