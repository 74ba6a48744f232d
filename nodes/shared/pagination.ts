import type { IDataObject } from 'n8n-workflow';
import {
	envelopeOf,
	isObject,
	isSuccess,
	listIn,
	readBoolean,
	readNumber,
	SERVICE_NAMES,
	type ServiceAnswer,
} from './answer';
import { apiError, type Context, errorFromAnswer, unexpectedAnswer } from './errors';

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

export interface PageQuery {
	limit: number;
	skip: number;
}

export interface PagingOptions {
	/** The list's field in the answer, e.g. "inboxes". */
	key: string;
	/** How many items are wanted (Infinity for all). */
	wanted: number;
	fetchPage: (query: PageQuery) => Promise<ServiceAnswer>;
	itemIndex?: number;
	/** Hint for a failing page, by HTTP status. */
	hintFor?: (status: number) => string | undefined;
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

export async function collectPages(ctx: Context, options: PagingOptions): Promise<IDataObject[]> {
	const { key, wanted, itemIndex } = options;
	const items: IDataObject[] = [];
	const seen = new Set<string>();
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
		if (!isSuccess(answer))
			throw errorFromAnswer(ctx, answer, itemIndex, options.hintFor?.(answer.statusCode));
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
		const fresh = list.filter(isObject).filter((item) => !seen.has(identity(item)));
		if (list.length > 0 && fresh.length === 0)
			throw apiError(ctx.getNode(), {
				message: `The ${service} service answered the same ${key} again for skip=${skip} (page ${page})`,
				description: `It seems to ignore skip, so paging would never end. ${items.length} ${key} were read before it repeated. Turn off Return All and set a Limit of at most ${items.length}.`,
				itemIndex,
			});
		// Items that moved into this page (another process added some meanwhile) are kept once.
		for (const item of fresh) seen.add(identity(item));
		items.push(...fresh);
		skip += list.length;
		const more =
			paging.hasMore ??
			(paging.total !== undefined
				? skip < paging.total
				: list.length >= Math.min(limit, paging.limit ?? limit));
		if (!more || list.length === 0) break;
	}
	return items.slice(0, wanted);
}
