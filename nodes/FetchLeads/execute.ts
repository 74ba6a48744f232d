import type { IDataObject, IExecuteFunctions, NodeApiError } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { errorFromAnswer, joinSentences } from '../shared/errors';
import { plural } from '../shared/tool';
import type { CreditHold } from './creditCap';
import { DEFAULT_MAX_REQUESTS, DEFAULT_TIMEOUT_MINUTES } from './description';
import { climbForNewLeads, type Climb } from './newLeads';
import { primaryEmail, shapeContacts, type OutputMode } from './output';
import { type NothingFound, searchLeads, type SearchRequest } from './search';

const FILTER_VALUES: Record<string, boolean | undefined> = { any: undefined, yes: true, no: false };

interface FetchOptions {
	failOnNotFound?: boolean;
	timeoutMinutes?: number;
	onlyWithEmail?: boolean;
	maxRequests?: number;
	fromTheTop?: boolean;
}

/**
 * What one item's search spent, as data a workflow (the Spend output) or an agent can read: the
 * credits the service reserved for it, charged and refunded. `null` where the service did not say.
 */
export interface Spend extends IDataObject {
	niche: string;
	city: string;
	/** Count, or New Leads Wanted. */
	requested: number;
	chargedCredits: number | null;
	refundedCredits: number | null;
	/** Leads output for the item (after Only Contacts With an Email). */
	leads: number;
	nothingFound: boolean;
	/**
	 * New Leads Wanted only: why fewer leads than wanted came, null when they all came. (In Leads
	 * Requested the service's answer is the whole result: the field is absent.)
	 */
	stoppedShort?: ShortReason | null;
}

/** Why a climb for new leads brought fewer than wanted, as the Spend output says it. */
export type ShortReason =
	| 'noMoreResults'
	| 'maxCreditsPerRun'
	| 'maxRequestsPerRun'
	| 'requestFailed';

const SHORT_REASONS: Record<NonNullable<Climb['stoppedBecause']>, ShortReason> = {
	limit: 'noMoreResults',
	maxCredits: 'maxCreditsPerRun',
	maxRequests: 'maxRequestsPerRun',
	failed: 'requestFailed',
};

/** Version 1.2: with Only Contacts With an Email, New Leads Wanted counts only leads with one. */
const COUNTS_ONLY_WITH_EMAIL = 1.2;

const hasEmail = (contact: IDataObject) => primaryEmail(contact) !== null;

/** What the run's hints add up, over all items. */
export interface RunTally {
	charged: number;
	unknownCharges: number;
	leads: number;
	withoutEmail: number;
	/** One line per item that deserves its own hint: a climb, nothing found, a failure. */
	notes: { message: string; type: 'info' | 'warning' }[];
}

export function newTally(): RunTally {
	return { charged: 0, unknownCharges: 0, leads: 0, withoutEmail: 0, notes: [] };
}

function searchOf(ctx: IExecuteFunctions, i: number): Omit<SearchRequest, 'count'> {
	const filters: Record<string, boolean> = {};
	for (const name of ['metaAds', 'tiktokPixel', 'gAnalytics']) {
		const value = FILTER_VALUES[ctx.getNodeParameter(name, i) as string];
		if (value !== undefined) filters[name] = value;
	}
	return {
		niche: String(ctx.getNodeParameter('niche', i) ?? '').trim(),
		city: String(ctx.getNodeParameter('city', i) ?? '').trim(),
		filters,
	};
}

function countOf(ctx: IExecuteFunctions, i: number, label: string): number {
	const count = ctx.getNodeParameter('count', i) as number;
	if (!Number.isInteger(count) || count < 1 || count > 1000) {
		throw new NodeOperationError(
			ctx.getNode(),
			`${label} must be a whole number from 1 to 1000 (got ${count})`,
			{ itemIndex: i },
		);
	}
	return count;
}

/** What a climb did, said for the user: how deep, how many requests, and why it stopped short. */
function climbNote(
	search: Omit<SearchRequest, 'count'>,
	wanted: number,
	climb: Climb,
	withEmail: boolean,
	capLimit: number | undefined,
): RunTally['notes'][number] {
	const what = `"${search.niche}" in "${search.city}"`;
	const found = climb.counted;
	const leads = withEmail ? 'New leads with an email' : 'New leads';
	const from =
		climb.startedFrom === undefined
			? 'from the top'
			: `below the top ${climb.startedFrom} taken by earlier runs`;
	const walk = `${plural(climb.requests, 'request')} searched ${what} ${from} down to result ${climb.depth}`;
	const charged = climb.unknownCharges
		? `at least ${plural(climb.charged, 'credit')}`
		: plural(climb.charged, 'credit');
	const without = climb.contacts.length - climb.counted;
	const alsoCharged = withEmail && without > 0 ? ` (${without} without an email among them)` : '';
	if (found >= wanted) {
		const extra =
			found > wanted
				? ` The service returned ${found - wanted} more than wanted (it was charged, so it is output): its ranking changed or contacts were removed from the account since the last run.`
				: '';
		return {
			message: `${leads}: ${found} of ${wanted} wanted; ${walk}, charging ${charged}${alsoCharged}.${extra}`,
			type: found > wanted ? 'warning' : 'info',
		};
	}
	const why = {
		limit:
			'It reached result 1000, the deepest the service can be asked for: everything above is a contact of the account already. Search another city or niche, or change the pixel filters.',
		maxRequests:
			'It stopped at Options > Max Requests per Run; the next run goes on from there when the workflow is published. Raise the option to go deeper in one run.',
		maxCredits: `It stopped at Options > Max Credits per Run (${capLimit}): the next request could have passed it. The next run goes on from there when the workflow is published; raise the option to go further in one run.`,
		failed: `The next request failed: ${climb.failure?.message ?? 'unknown error'}. ${climb.contacts.length > 0 ? 'The leads above were charged and are output, and the failure is reported beside them' : 'Nothing was gained, so the item fails'}; the next run goes on from result ${climb.depth}.`,
	}[climb.stoppedBecause ?? 'limit'];
	const none =
		found === 0 && climb.stoppedBecause !== 'failed' && climb.stoppedBecause !== 'maxCredits'
			? ' Every result it saw is a contact of the account already, or the service has no more for this search (it does not say which).'
			: '';
	return {
		message: `${leads}: ${found} of ${wanted} wanted; ${walk}, charging ${charged}${alsoCharged}.${none} ${why}`,
		type: 'warning',
	};
}

/**
 * No business at all for the niche and city, in either count mode: nothing was charged. By
 * default the item outputs nothing and a hint says so; Fail When Nothing Is Found makes it an error.
 */
function nothingFound(
	ctx: IExecuteFunctions,
	i: number,
	search: Omit<SearchRequest, 'count'>,
	outcome: NothingFound,
	options: FetchOptions,
	tally: RunTally,
	requested: number,
): ItemLeads {
	if (options.failOnNotFound) throw errorFromAnswer(ctx, outcome.answer, i, 'Nothing was charged.');
	const said = outcome.serviceSaid;
	tally.notes.push({
		message: `No businesses found for "${search.niche}" in "${search.city}"${said ? ` (the service said: "${said}")` : ''}; nothing was charged. Try a broader niche or a larger city.`,
		type: 'info',
	});
	return {
		items: [],
		spend: {
			niche: search.niche,
			city: search.city,
			requested,
			chargedCredits: 0,
			refundedCredits: 0,
			leads: 0,
			nothingFound: true,
		},
		mayHaveCharged: 0,
	};
}

/** One item's output: its items as Output asks, and what its search spent. */
export interface ItemLeads {
	items: IDataObject[];
	spend: Spend;
	/** What the credit cap counts as spent: the charge, or all the item could have charged. */
	mayHaveCharged: number;
	/**
	 * A climb's request that failed after earlier ones brought leads: those leads are in the account
	 * and charged, so they are output, and this error is reported beside them (never a success).
	 */
	failedAfterLeads?: NodeApiError | NodeOperationError;
}

/** The most one item may charge (0 when its count is not valid: it then fails on its own). */
export function mostPossibleCharge(ctx: IExecuteFunctions, i: number): number {
	const count = ctx.getNodeParameter('count', i, 0) as number;
	return Number.isInteger(count) && count >= 1 && count <= 1000 ? count : 0;
}

/**
 * One item's leads: one search (Leads Requested) or a climb (New Leads Wanted), shaped as the
 * Output parameter asks. Adds what was charged and anything worth a hint to the run's tally.
 */
export async function fetchLeadsForItem(
	ctx: IExecuteFunctions,
	i: number,
	tally: RunTally,
	hold: CreditHold,
): Promise<ItemLeads> {
	const search = searchOf(ctx, i);
	const options = ctx.getNodeParameter('options', i, {}) as FetchOptions;
	const timeoutMs = (Number(options.timeoutMinutes) || DEFAULT_TIMEOUT_MINUTES) * 60 * 1000;
	const newLeads = ctx.getNodeParameter('countMode', i, 'requested') === 'newLeads';
	// Checked before searching: a search charges, and its leads would then be lost.
	const mode = ctx.getNodeParameter('output', i, 'contacts') as OutputMode;
	const fields = mode === 'selected' ? (ctx.getNodeParameter('fields', i, []) as string[]) : [];
	if (mode === 'selected' && fields.length === 0)
		throw new NodeOperationError(ctx.getNode(), 'Fields is empty', {
			itemIndex: i,
			description: 'Pick at least one contact field under Fields, or choose another Output.',
		});

	let contacts: IDataObject[];
	let chargedCredits: number | null;
	let reserved: number;
	let envelope: IDataObject = {};
	let requested: number;
	let mayHaveCharged: number;
	let stoppedShort: ShortReason | null = null;
	let failedAfterLeads: ItemLeads['failedAfterLeads'];
	if (newLeads) {
		const wanted = countOf(ctx, i, 'New Leads Wanted');
		requested = wanted;
		const withEmail =
			options.onlyWithEmail === true && ctx.getNode().typeVersion >= COUNTS_ONLY_WITH_EMAIL;
		const climb = await climbForNewLeads(ctx, i, search, {
			wanted,
			maxRequests: Number(options.maxRequests) || DEFAULT_MAX_REQUESTS,
			fromTheTop: options.fromTheTop === true,
			timeoutMs,
			counts: withEmail ? hasEmail : () => true,
			hold,
		});
		if (climb.nothingFound)
			return nothingFound(ctx, i, search, climb.nothingFound, options, tally, wanted);
		if (climb.failure && climb.contacts.length === 0) {
			// Nothing gained: the failure alone, as when the first request fails.
			hold.settle(climb.mayHaveCharged);
			throw withClimbContext(climb.failure, climb);
		}
		failedAfterLeads = climb.failure;
		tally.notes.push(climbNote(search, wanted, climb, withEmail, hold.limit));
		contacts = climb.contacts;
		chargedCredits = climb.unknownCharges ? null : climb.charged;
		reserved = climb.reserved;
		mayHaveCharged = climb.mayHaveCharged;
		if (climb.counted < wanted) stoppedShort = SHORT_REASONS[climb.stoppedBecause ?? 'limit'];
		tally.charged += climb.charged;
		tally.unknownCharges += climb.unknownCharges;
		envelope = { requests: climb.requests, searchedDepth: climb.depth };
	} else {
		const count = countOf(ctx, i, 'Count');
		requested = count;
		reserved = count;
		const outcome = await searchLeads(ctx, i, { ...search, count }, { timeoutMs, wanted: count });
		if (!outcome.found) return nothingFound(ctx, i, search, outcome, options, tally, count);
		contacts = outcome.contacts;
		chargedCredits = outcome.chargedCredits ?? null;
		mayHaveCharged = outcome.chargedCredits ?? count;
		envelope = outcome.envelope;
		if (outcome.chargedCredits === undefined) tally.unknownCharges++;
		else tally.charged += outcome.chargedCredits;
	}

	if (options.onlyWithEmail) {
		const reachable = contacts.filter(hasEmail);
		tally.withoutEmail += contacts.length - reachable.length;
		contacts = reachable;
	}
	tally.leads += contacts.length;
	const spend: Spend = {
		niche: search.niche,
		city: search.city,
		requested,
		chargedCredits,
		refundedCredits: chargedCredits === null ? null : Math.max(0, reserved - chargedCredits),
		leads: contacts.length,
		nothingFound: false,
		...(newLeads ? { stoppedShort } : {}),
	};
	const items =
		mode === 'response'
			? [{ ...envelope, contacts, chargedCredits }]
			: shapeContacts(contacts, mode, fields);
	return { items, spend, mayHaveCharged, ...(failedAfterLeads ? { failedAfterLeads } : {}) };
}

/**
 * A climb's failure said as the climb's: the requests before it added nothing (every result they
 * reached is a contact of the account already), so the failure is all the item has to report.
 */
function withClimbContext<E extends NodeApiError | NodeOperationError>(error: E, climb: Climb): E {
	const charged = climb.unknownCharges
		? 'the service did not say what they charged'
		: 'nothing was charged';
	const before = `The climb for new leads stopped on this failure: the requests before it reached result ${climb.depth} and added no new lead (${charged}), so nothing was gained.`;
	error.description = joinSentences(error.description ?? undefined, before) ?? null;
	return error;
}

/** The run's hints: what was charged over all items, then one per item that needs telling. */
export function addRunHints(ctx: IExecuteFunctions, tally: RunTally): void {
	const left = tally.withoutEmail
		? ` (${plural(tally.withoutEmail, 'charged contact')} without an email left out)`
		: '';
	const unknown = tally.unknownCharges
		? ` The service did not say what ${tally.unknownCharges === 1 ? 'one search' : `${tally.unknownCharges} searches`} charged: check the account's balance.`
		: '';
	ctx.addExecutionHints({
		message: `Charged ${tally.unknownCharges ? 'at least ' : ''}${plural(tally.charged, 'credit')} for ${plural(tally.leads, 'new lead')}${left}.${unknown}`,
		type: tally.unknownCharges ? 'warning' : 'info',
		location: 'outputPane',
	});
	for (const note of tally.notes) ctx.addExecutionHints({ ...note, location: 'outputPane' });
}
