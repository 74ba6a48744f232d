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
import { type Change, type Check, compare, DOUBT_CHECKS, firstMemory } from './compare';
import { oneAtATime } from './oneAtATime';
import { readMemory, writeMemory } from './state';

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

async function listInboxes(
	ctx: IPollFunctions,
	settings: Settings,
	status?: string,
	wanted = Infinity,
) {
	return await fetchInboxes(ctx, {
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

/** The inboxes or pools one check compares, and whether the listing was settled. */
async function listFor(ctx: IPollFunctions, settings: Settings) {
	if (settings.event === 'newPool')
		return { items: await listPools(ctx, settings), unsettled: false };
	return await listInboxes(ctx, settings);
}

/** A check that listed much less than the trigger remembers: said, not guessed. */
function doubtError(
	ctx: IPollFunctions,
	settings: Settings,
	doubt: { missed: number; remembered: number; checks: number },
) {
	const [what, one] = settings.event === 'newPool' ? ['pools', 'pool'] : ['inboxes', 'inbox'];
	return new NodeOperationError(
		ctx.getNode(),
		`The inbox service listed ${doubt.remembered - doubt.missed} of the ${doubt.remembered} ${what} this trigger follows: it cannot tell an outage from a removal`,
		{
			description: `${doubt.missed} ${what} were missing from this check's list at once, which is what a service answers while it is failing or catching up, as well as after a real removal. Nothing was reported and nothing recorded, so no ${one} that existed all along is announced as new or changed when the list is whole again. If they were really removed, nothing needs doing: after ${DOUBT_CHECKS} checks in a row list the same (this was check ${doubt.checks}), the trigger takes the list as it is.`,
		},
	);
}

/** One output item: what happened, to what, and when this check saw it. */
function eventItem(
	settings: Settings,
	change: Change,
	poolNames: Map<string, string> | undefined,
	seenAt: string,
): INodeExecutionData {
	const { item } = change;
	const json: IDataObject = { event: settings.event, ...item };
	if (settings.event !== 'newPool') json.poolName = poolNames?.get(String(item.poolId)) ?? null;
	if (settings.event === 'inboxStatusChanged') json.previousStatus = change.previous ?? null;
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
			example = newest((await listInboxes(ctx, settings, status || undefined, 1000)).items);
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

/** The trigger a check belongs to: its workflow and node (see oneAtATime.ts). */
function triggerKey(ctx: IPollFunctions) {
	const node = ctx.getNode();
	return `${ctx.getWorkflow().id ?? ''}|${node.id ?? node.name}`;
}

const SLOW_ADVICE =
	'Set a longer interval in Poll Times, or pick a Pool so that each check lists fewer inboxes.';

export async function pollLeadInbox(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const settings = settingsOf(this);
	if (this.getMode() === 'manual')
		return [await testEvent(this, settings, new Date().toISOString())];

	const where = { workflowId: this.getWorkflow().id, node: this.getNode().name };
	const seconds = (ms: number) => (ms / 1000).toFixed(1);
	const result = await oneAtATime(
		triggerKey(this),
		Date.now,
		async () => await runCheck(this, settings),
		{
			onSkipped: (runningForMs) =>
				this.logger.warn(
					`Lead Inbox Trigger "${where.node}": a check was skipped, as the previous one is still running (for ${seconds(runningForMs)} s). ${SLOW_ADVICE}`,
					where,
				),
			onSlow: (tookMs, skipped) =>
				this.logger.warn(
					`Lead Inbox Trigger "${where.node}": a check took ${seconds(tookMs)} s, longer than the time between checks (${skipped} skipped meanwhile). ${SLOW_ADVICE}`,
					where,
				),
		},
	);
	return result ?? null;
}

/** One check: list, compare with what the last one recorded, record, report the changes. */
async function runCheck(
	ctx: IPollFunctions,
	settings: Settings,
): Promise<INodeExecutionData[][] | null> {
	const now = new Date();
	const listing = await listFor(ctx, settings);
	const staticData = ctx.getWorkflowStaticData('node');
	const scope = `${settings.event}|${settings.poolId}`;
	const check: Check = {
		items: listing.items,
		unsettled: listing.unsettled,
		now: now.getTime(),
		groupOf: settings.event === 'inboxStatusChanged' ? statusOf : () => 'all',
		kind: settings.event === 'inboxStatusChanged' ? 'status' : 'new',
		statuses: settings.statuses,
	};
	let before = readMemory(staticData, scope);
	let outcome = before && compare(before, check);
	// Pool names are read before the memory moves on, so that if reading them fails the next
	// check finds the same changes; and only for a check that has changes to name.
	let poolNames: Map<string, string> | undefined;
	if (outcome && !outcome.doubt && outcome.changes.length > 0) {
		poolNames = await poolNamesOf(ctx, settings);
		before = readMemory(staticData, scope);
		outcome = before && compare(before, check);
	}
	// From the last read to the write nothing is awaited: read, compared and written in one go.
	if (!outcome) {
		writeMemory(staticData, scope, firstMemory(check));
		return null;
	}
	writeMemory(staticData, scope, outcome.memory);
	// A doubted check moves only its count on; n8n keeps it for the next check.
	if (outcome.doubt) throw doubtError(ctx, settings, outcome);
	if (outcome.changes.length === 0) return null;
	const seenAt = now.toISOString();
	return [outcome.changes.map((change) => eventItem(settings, change, poolNames, seenAt))];
}
