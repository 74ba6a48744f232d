import type { Contact, LeadSearchRequest } from '../contract/leads.cjs';
import { newId } from '../core/secrets.cjs';
import { ApiError } from '../http/errors.cjs';
import type { Principal } from '../store/accounts.cjs';
import type { Store } from '../store/store.cjs';
import { type Business, businessCount } from './businesses.cjs';
import { resolveCity, suggestCity } from './cities.cjs';
import type { BusinessDirectory } from './directory.cjs';
import { resolveNiche } from './niches.cjs';
import type { ScanCache, TrackerFlags } from './scan-cache.cjs';

export interface SearchDeps {
	store: Store;
	/** Runs inside the saving transaction before anything is written (storage fault injection). */
	beforeSave: (principal: Principal) => void;
	scans: ScanCache;
	directory: BusinessDirectory;
	/** Waits as the real service would for a search of `count` leads (the latency profile). */
	latency: (count: number, signal: AbortSignal) => Promise<void>;
}

/** Websites scanned ahead of the ranked walk beyond what is still needed. */
const LOOKAHEAD = 32;

export class Cancelled extends Error {}

function toContact(business: Business, scan: TrackerFlags): Contact {
	return {
		businessName: business.businessName,
		address: business.address,
		website: business.website,
		email: business.emails[0] ?? null,
		emails: business.emails,
		phone: business.phones[0] ?? null,
		phone_numbers: business.phones,
		instagram: business.instagram,
		facebook: business.facebook,
		linkedin: business.linkedin,
		tiktok: business.tiktok,
		fbPixel: scan.fbPixel,
		tikTokPixel: scan.tikTokPixel,
		gAnalytics: scan.gAnalytics,
		googleBusinessCategories: business.categories,
	};
}

function matches(filter: boolean | undefined, flag: boolean | null): boolean {
	return filter === undefined || flag === filter;
}

/**
 * The lead search (docs/api.md): auth is done by the caller; then city (400), credits reserved
 * in full (402, held in memory), search (404), the ranked walk with the pixel filters as criteria,
 * dedup, and one transaction that saves the contacts and charges what was saved (500: nothing saved
 * or charged). The reservation is released whatever happens.
 */
export async function searchLeads(
	deps: SearchDeps,
	principal: Principal,
	request: LeadSearchRequest,
	signal: AbortSignal,
) {
	const started = performance.now();
	const city = resolveCity(request.city);
	if (!city) {
		const suggestion = suggestCity(request.city);
		throw new ApiError(
			400,
			`City '${request.city}' could not be resolved to a location. ${suggestion ? `Did you mean '${suggestion}'?` : 'Try "City, Country" or "City, State", e.g. "Austin, TX" or "Munich, Germany".'}`,
			{ details: [{ path: 'city', message: 'could not be resolved to a location' }] },
		);
	}

	const { accounts, contacts: stored } = deps.store;
	const reservation = accounts.reserve(principal.accountId, request.count);
	if (!reservation) {
		throw new ApiError(
			402,
			`Not enough credits: this search needs ${request.count} (one per lead requested) but the balance is ${accounts.credits(principal.accountId)}. Lower count or add credits.`,
		);
	}

	try {
		const niche = resolveNiche(request.niche);
		const total = niche ? businessCount(niche, city) : 0;
		if (!niche || total === 0) {
			throw new ApiError(
				404,
				`No businesses found for '${request.niche}' in ${city.name}, ${city.regionCode ?? city.country}. Try a related niche or a larger city nearby.`,
				{ code: 'no_businesses_found' },
			);
		}

		// Ranked walk: take the first `count` businesses matching every given filter. Scans run
		// ahead of the walk (bounded), so one slow website does not stall the ones behind it.
		const businessAt = deps.directory.of(niche, city);
		const picked: { business: Business; scan: TrackerFlags }[] = [];
		const ahead: { business: Business; scan: TrackerFlags | Promise<TrackerFlags> }[] = [];
		let next = 0;
		// With filters more candidates are rejected, so scan further ahead.
		const filtered = [request.metaAds, request.tiktokPixel, request.gAnalytics].some(
			(f) => f !== undefined,
		);
		const lookahead = () => (filtered ? 4 : 1) * (request.count - picked.length) + LOOKAHEAD;
		while (picked.length < request.count && (next < total || ahead.length > 0)) {
			if (signal.aborted) throw new Cancelled();
			while (next < total && ahead.length < lookahead()) {
				const business = businessAt(next++);
				ahead.push({ business, scan: deps.scans.flags(business.website) });
			}
			const { business, scan: known } = ahead.shift()!;
			// Cached flags are used as they are: a repeated search never waits on a promise.
			const scan = known instanceof Promise ? await known : known;
			if (
				matches(request.metaAds, scan.fbPixel) &&
				matches(request.tiktokPixel, scan.tikTokPixel) &&
				matches(request.gAnalytics, scan.gAnalytics)
			) {
				picked.push({ business, scan });
			}
		}
		await deps.latency(request.count, signal);
		if (signal.aborted) throw new Cancelled();

		// Dedup within the request, then against the account, in one transaction with the charge:
		// the stored balance and the contacts change together or not at all, whenever the process dies.
		// Only the new contacts are built and serialised: a repeated pull costs a lookup per lead.
		const contacts = saveOrFail(() =>
			deps.store.transaction(() => {
				deps.beforeSave(principal);
				const keys = picked.map(({ business }) => business.dedupKey);
				const known = stored.knownPositions(principal.accountId, keys);
				const seen = new Set<string>();
				const added: Contact[] = [];
				picked.forEach(({ business, scan }, i) => {
					if (known.has(i) || seen.has(keys[i])) return;
					seen.add(keys[i]);
					const contact = toContact(business, scan);
					stored.add(principal.accountId, keys[i], contact);
					added.push(contact);
				});
				const searchId = newId('search');
				reservation.charge(added.length, searchId);
				deps.store.searches.add({
					id: searchId,
					accountId: principal.accountId,
					request,
					found: picked.length,
					charged: added.length,
					durationMs: performance.now() - started,
				});
				return added;
			}),
		);
		return { contacts, chargedCredits: contacts.length };
	} finally {
		// Charged or not, the reservation ends here; what was not charged is available again.
		reservation.release();
	}
}

/**
 * Runs the save; a failing save (the storage refused it, so nothing was added or charged) is the
 * search's documented 500. Any other failure of a search is not this: it reaches the server's
 * error handler, which logs it with the request's id and answers a generic 500.
 */
function saveOrFail<T>(save: () => T): T {
	try {
		return save();
	} catch {
		throw new ApiError(
			500,
			'The contacts could not be saved; nothing was added and no credits were charged. Retry the request.',
		);
	}
}

/** `realistic`: a few seconds plus a quarter second per lead, so 1000 leads take about 4 minutes. */
export function latencyProfile(profile: 'none' | 'realistic') {
	return (count: number, signal: AbortSignal) =>
		profile === 'none'
			? Promise.resolve()
			: new Promise<void>((resolve) => {
					const timer = setTimeout(resolve, 3000 + count * 250);
					signal.addEventListener('abort', () => {
						clearTimeout(timer);
						resolve();
					});
				});
}
