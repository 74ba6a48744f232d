import type {
	IDataObject,
	IExecuteFunctions,
	NodeApiError,
	NodeOperationError,
} from 'n8n-workflow';
import type { CreditHold } from './creditCap';
import { asNodeError, errorFromAnswer, UnclearOutcomeError } from '../shared/errors';
import { rememberDepth, rememberedDepth, searchKey } from './depthMemory';
import { type NothingFound, searchLeads, type SearchRequest } from './search';

/** The service's largest count: nothing ranked deeper can be asked for. */
export const MAX_DEPTH = 1000;

/** What a climb did, for the item's output and the run's hints. */
export interface Climb {
	contacts: IDataObject[];
	/** Of those, the ones that count towards the number wanted. */
	counted: number;
	charged: number;
	/** The counts of the requests answered: what the service reserved (and refunded less the charge). */
	reserved: number;
	/**
	 * The most the requests may have charged: what they said, else what they could charge (also a
	 * request that got no answer). What the credit cap counts as spent.
	 */
	mayHaveCharged: number;
	/** Requests whose answer did not say what they charged. */
	unknownCharges: number;
	requests: number;
	/** The count of the last request answered: its top results are all contacts now. */
	depth: number;
	/** Where the climb started from a remembered depth, that depth. */
	startedFrom: number | undefined;
	/** Why it stopped short of the number wanted (undefined when it got them). */
	stoppedBecause: 'limit' | 'maxRequests' | 'maxCredits' | 'failed' | undefined;
	/** The error of the request that failed after others were answered. */
	failure: NodeApiError | NodeOperationError | undefined;
	/** The first request's answer when the service found no business at all (no depth helps). */
	nothingFound: NothingFound | undefined;
}

/**
 * Finds `wanted` leads the account does not hold yet (with `counts`, only leads it accepts count,
 * e.g. those with an email). The service drops contacts the account already has and charges only
 * what it adds, and its results come in a stable rank order, so after a request for the top N
 * every one of those N is a contact of the account. Asking again for N + (still missing) can
 * therefore add at most what is missing: counting every lead, the climb never buys more than
 * wanted from a service that ranks stably; counting only some, it buys what the others cost on
 * top, and each request first holds what it may charge against Max Credits per Run. Each request
 * is one search, so the node never retries one (a search charges); a request that fails after
 * others were answered ends the climb and keeps what they returned, because those leads are in the
 * account now and no later run would return them. The caller reports the failure beside them
 * (docs/nodes.md: a failed climb is never a success).
 */
export async function climbForNewLeads(
	ctx: IExecuteFunctions,
	itemIndex: number,
	search: Omit<SearchRequest, 'count'>,
	options: {
		wanted: number;
		maxRequests: number;
		fromTheTop: boolean;
		timeoutMs: number;
		counts: (contact: IDataObject) => boolean;
		hold: CreditHold;
	},
): Promise<Climb> {
	const { wanted, hold } = options;
	const key = searchKey(ctx, search);
	const startedFrom = options.fromTheTop ? undefined : rememberedDepth(ctx, key);
	const climb: Climb = {
		contacts: [],
		counted: 0,
		charged: 0,
		mayHaveCharged: 0,
		reserved: 0,
		unknownCharges: 0,
		requests: 0,
		depth: 0,
		startedFrom,
		stoppedBecause: undefined,
		failure: undefined,
		nothingFound: undefined,
	};
	let count = Math.min(MAX_DEPTH, (startedFrom ?? 0) + wanted);
	let missing = wanted;
	for (;;) {
		let outcome;
		try {
			outcome = await searchLeads(
				ctx,
				itemIndex,
				{ ...search, count },
				{ timeoutMs: options.timeoutMs, wanted },
			);
		} catch (error) {
			const nodeError = asNodeError(ctx, error, itemIndex);
			if (climb.requests === 0) throw nodeError;
			if (nodeError instanceof UnclearOutcomeError) climb.mayHaveCharged += missing;
			climb.stoppedBecause = 'failed';
			climb.failure = nodeError;
			break;
		}
		climb.requests++;
		if (!outcome.found) {
			// No business at all for the niche and city: no depth changes that. After a request that
			// found some, the service contradicts itself: the climb ends as after a failure.
			if (climb.requests === 1) climb.nothingFound = outcome;
			else {
				climb.stoppedBecause = 'failed';
				climb.failure = errorFromAnswer(
					ctx,
					outcome.answer,
					itemIndex,
					`Request ${climb.requests} of the climb: an earlier request of the same search found businesses, so the service contradicts itself.`,
				);
			}
			break;
		}
		climb.depth = count;
		climb.reserved += count;
		climb.contacts.push(...outcome.contacts);
		climb.counted += outcome.contacts.filter(options.counts).length;
		if (outcome.chargedCredits === undefined) {
			climb.unknownCharges++;
			climb.mayHaveCharged += Math.max(missing, outcome.contacts.length);
		} else {
			climb.charged += outcome.chargedCredits;
			climb.mayHaveCharged += outcome.chargedCredits;
		}

		missing = wanted - climb.counted;
		if (missing <= 0) break;
		if (count >= MAX_DEPTH) {
			climb.stoppedBecause = 'limit';
			break;
		}
		if (climb.requests >= options.maxRequests) {
			climb.stoppedBecause = 'maxRequests';
			break;
		}
		// The next request adds at most what is missing: it must fit under the cap beside the rest.
		if (!hold.holdUpTo(climb.mayHaveCharged + missing)) {
			climb.stoppedBecause = 'maxCredits';
			break;
		}
		count = Math.min(MAX_DEPTH, count + missing);
	}
	// Also after a request that added nothing: its top results are all contacts too, so the next
	// run goes on below them instead of walking the same held results again.
	if (climb.depth > 0) rememberDepth(ctx, key, climb.depth);
	return climb;
}
