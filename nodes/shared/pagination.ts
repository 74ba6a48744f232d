import type { IDataObject } from 'n8n-workflow';
import {
	envelopeOf,
	isObject,
	listIn,
	readBoolean,
	readNumber,
	SERVICE_NAMES,
	type ServiceAnswer,
} from './answer';
import { apiError, type Context, unexpectedAnswer } from './errors';

/*
 * Paging by limit/skip, guarded against services that page differently from the spec: one that
 * ignores `skip` (the same page again), one that answers another `skip` than asked, one without a
 * `pagination` object or without `hasMore`. A bound on pages keeps a misbehaving service from
 * running an execution forever.
 */

/** The most a service may be asked for at once (the spec's maximum `limit`). */
export const MAX_PAGE_SIZE = 1000;
/** 10,000 pages: at least 1,000,000 items even from a service that pages by 100. */
export const MAX_PAGES = 10_000;
/** Pages in a row with nothing new before a service is taken to ignore skip. */
const MAX_REPEATED_PAGES = 3;

export interface PageQuery {
	limit: number;
	skip: number;
}

export interface PagingOptions {
	/** The list's field in the answer, e.g. "inboxes". */
	key: string;
	/** How many items are wanted (Infinity for all). */
	wanted: number;
	/** A page's answer (2xx: a failing page throws in the transport). */
	fetchPage: (query: PageQuery) => Promise<ServiceAnswer>;
	itemIndex?: number;
}

/** What a page says about the whole list: hasMore, total and skip, wherever it put them. */
function pagingOf(answer: ServiceAnswer, key: string) {
	const envelope = envelopeOf(answer.body, key);
	const meta = [envelope.pagination, envelope.meta, envelope.page, envelope].find(isObject) ?? {};
	const first = (...values: unknown[]) => values.find((v) => v !== undefined && v !== null);
	return {
		hasMore: readBoolean(first(meta.hasMore, meta.has_more, envelope.hasMore, envelope.has_more)),
		total: readNumber(
			first(meta.total, meta.totalCount, meta.total_count, envelope.total, envelope.totalCount),
		),
		skip: readNumber(first(meta.skip, meta.offset, envelope.skip, envelope.offset)),
		/** A service may cap the page size below what was asked, and say so. */
		limit: readNumber(first(meta.limit, meta.pageSize, meta.per_page, envelope.limit)),
	};
}

function identity(item: unknown): string {
	if (isObject(item) && (typeof item.id === 'string' || typeof item.id === 'number'))
		return `id:${item.id}`;
	return JSON.stringify(item);
}

/**
 * A whole listing and what can be said about it. `total` is what the service said last (its
 * count when the listing ended). `unsettled` is set when the list changed while it was read,
 * even on a second pass: the service's count moved between pages, or fewer distinct items were
 * read than it counted (items removed between pages shift the rest, so one is skipped; a list
 * in no stable order skips some and repeats others).
 */
export interface Listing {
	items: IDataObject[];
	total: number | undefined;
	/** Distinct items read, over every pass. */
	read: number;
	unsettled: boolean;
}

/** One pass through the pages, from skip 0, adding what it has not seen to `into`. */
async function readPass(
	ctx: Context,
	options: PagingOptions,
	into: { items: IDataObject[]; seen: Set<string> },
): Promise<{ total: number | undefined; moved: boolean }> {
	const { key, wanted, itemIndex } = options;
	const { items, seen } = into;
	const passSeen = new Set<string>();
	let total: number | undefined;
	let moved = false;
	let repeats = 0;
	let firstPage = '';
	let skip = 0;
	for (let page = 1; items.length < wanted; page++) {
		if (page > MAX_PAGES)
			throw apiError(ctx.getNode(), {
				message: `Stopped after ${MAX_PAGES} pages (${items.length} ${key}): the service kept saying there is more`,
				description: `Filter the list (pool, status) or turn off Return All and set a Limit.`,
				itemIndex,
			});
		const limit = Math.min(MAX_PAGE_SIZE, wanted - items.length);
		const answer = await options.fetchPage({ limit, skip });
		const list = listIn(answer.body, key);
		if (!list) throw unexpectedAnswer(ctx, answer, `a list of ${key}`, itemIndex);
		const paging = pagingOf(answer, key);
		const service = SERVICE_NAMES[answer.service];
		if (paging.skip !== undefined && paging.skip !== skip && list.length > 0)
			throw apiError(ctx.getNode(), {
				message: `The ${service} service answered page ${page} of ${key} for skip=${paging.skip}, not for skip=${skip} as asked`,
				description: `It does not page with skip as the API specifies, so the node cannot list every one of them. Turn off Return All and set a Limit of at most ${items.length || limit}.`,
				itemIndex,
			});
		const objects = list.filter(isObject);
		// A page of nothing but what this pass already read: the service ignores skip when it is
		// the first page again, or when it keeps happening; once is a list in no stable order.
		const ids = objects.map(identity);
		repeats = list.length > 0 && ids.every((id) => passSeen.has(id)) ? repeats + 1 : 0;
		if (repeats && (repeats >= MAX_REPEATED_PAGES || ids.join('\n') === firstPage))
			throw apiError(ctx.getNode(), {
				message: `The ${service} service answered the same ${key} again for skip=${skip} (page ${page})`,
				description: `It seems to ignore skip, so paging would never end. ${items.length} ${key} were read before it repeated. Turn off Return All and set a Limit of at most ${items.length}.`,
				itemIndex,
			});
		if (page === 1) firstPage = ids.join('\n');
		// Items that moved into this page (another process added some meanwhile) are kept once.
		for (const [n, item] of objects.entries()) {
			const id = ids[n];
			passSeen.add(id);
			if (seen.has(id)) continue;
			seen.add(id);
			items.push(item);
		}
		skip += list.length;
		if (paging.total !== undefined) {
			moved ||= total !== undefined && paging.total !== total;
			total = paging.total;
		}
		const more =
			paging.hasMore ??
			(paging.total !== undefined
				? skip < paging.total
				: list.length >= Math.min(limit, paging.limit ?? limit));
		if (!more || list.length === 0) break;
	}
	return { total, moved };
}

/**
 * Every item of a paged list, or the first `wanted`. A listing that changed while it was read
 * (see Listing) is read once more and the two passes merged, so an item that was there all along
 * is not missed; what is still unsettled after that is reported, not hidden.
 */
export async function collectPages(ctx: Context, options: PagingOptions): Promise<Listing> {
	const into = { items: [] as IDataObject[], seen: new Set<string>() };
	const unsettled = ({ total, moved }: { total: number | undefined; moved: boolean }) =>
		moved || (total !== undefined && into.items.length < Math.min(total, options.wanted));
	let pass = await readPass(ctx, options, into);
	if (unsettled(pass)) pass = await readPass(ctx, options, into);
	return {
		items: into.items.slice(0, options.wanted),
		total: pass.total,
		read: into.items.length,
		unsettled: unsettled(pass),
	};
}
