/**
 * A page of inboxes beside the query that asked for it, and beside the pages before it: a walk is
 * one caller's pages of one listing (same pool, status and limit) from skip 0, each page asked at
 * the skip where the last one ended. Within a walk the page must start where skip asked, hold at
 * most limit, keep hasMore and total consistent, and not list an inbox twice.
 */
import { z } from 'zod';
import { listInboxesQuery } from '../../contract/inboxes.cjs';
import { type Exchange, type Finding, isObject } from './exchange.cjs';
import { orderBreak } from './pools.cjs';
import { fieldFindings, INBOXES_ANSWER } from './spec-fields.cjs';

const DEFAULT_LIMIT = 100;
/** This server's query rules, parameters it does not know left aside (they are not values out of range). */
const LISTING_QUERY = z.object(listInboxesQuery.shape);
/** Walks remembered at once; the oldest is forgotten first. */
const MAX_WALKS = 1000;
/** A listed inbox's field that is a connection setting or a credential. */
const CONNECTION_FIELD = /host|port|user(name)?|login|password|secret|token|credential|smtp|imap/i;

interface Walk {
	nextSkip: number;
	total?: number;
	seen: Set<string>;
	firstPage: string[];
}

/**
 * The query as this server reads it (its own schema, other parameters left aside), or the
 * parameter it would refuse with a 400, as `name=value`.
 */
function readQuery(
	query: Record<string, string>,
): { limit: number; skip: number } | { refused: string } {
	const parsed = LISTING_QUERY.safeParse(query);
	if (parsed.success)
		return { limit: parsed.data.limit ?? DEFAULT_LIMIT, skip: parsed.data.skip ?? 0 };
	const name = String(parsed.error.issues[0].path[0]);
	return { refused: `${name}=${query[name]}` };
}

const idOf = (inbox: unknown) =>
	isObject(inbox) && (typeof inbox.id === 'string' || typeof inbox.id === 'number')
		? String(inbox.id)
		: JSON.stringify(inbox);

export class Walks {
	private readonly walks = new Map<string, Walk>();

	clear(): void {
		this.walks.clear();
	}

	findings(exchange: Exchange, answer: unknown): Finding[] {
		const listed = (path: PropertyKey[], key: string) =>
			path[0] === 'inboxes' && path.length === 2 && CONNECTION_FIELD.test(key);
		const found: Finding[] = fieldFindings(INBOXES_ANSWER, answer, {
			extraKind: (path, key) => (listed(path, key) ? 'listed-fields' : 'extra-field'),
		});
		if (!isObject(answer) || !Array.isArray(answer.inboxes)) return found;
		const inboxes = answer.inboxes;
		const paging = isObject(answer.pagination) ? answer.pagination : {};
		const { query } = exchange;
		const asked = readQuery(query);
		if ('refused' in asked) {
			found.push({
				kind: 'page-out-of-range',
				subject: asked.refused.split('=')[0],
				seen: `${asked.refused} answered ${exchange.status}`,
			});
			return found; // the rest compares with a query this server would not have answered
		}
		const { limit, skip } = asked;
		if (typeof paging.skip === 'number' && paging.skip !== skip)
			found.push({
				kind: 'page-skip-answered',
				seen: `pagination.skip ${paging.skip} for skip=${skip}`,
			});
		if (inboxes.length > limit)
			found.push({ kind: 'page-over-limit', seen: `${inboxes.length} inboxes for limit=${limit}` });
		if (typeof paging.limit === 'number' && paging.limit < limit)
			found.push({
				kind: 'page-capped',
				seen: `pagination.limit ${paging.limit} for limit=${limit}`,
			});
		const { total, hasMore } = paging;
		if (
			typeof total === 'number' &&
			typeof hasMore === 'boolean' &&
			hasMore !== skip + inboxes.length < total
		)
			found.push({
				kind: 'page-has-more',
				seen: `hasMore ${hasMore} with skip ${skip}, ${inboxes.length} returned of ${total}`,
			});
		for (const [filter, field] of [
			['status', 'status'],
			['poolId', 'poolId'],
		] as const) {
			const wanted = query[filter];
			const i =
				wanted === undefined ? -1 : inboxes.findIndex((x) => isObject(x) && x[field] !== wanted);
			if (i >= 0)
				found.push({
					kind: 'listing-filter',
					subject: filter,
					seen: `${filter}=${wanted} asked, inboxes[${i}].${field} is ${JSON.stringify((inboxes[i] as Record<string, unknown>)[field])}`,
					at: `inboxes[${i}].${field}`,
				});
		}
		const broken = orderBreak(inboxes);
		if (broken) found.push({ kind: 'order', subject: 'inboxes', seen: broken });
		found.push(
			...this.walkFindings(
				exchange,
				skip,
				limit,
				inboxes,
				typeof total === 'number' ? total : undefined,
			),
		);
		return found;
	}

	/** What this page says beside the walk's pages before it. */
	private walkFindings(
		exchange: Exchange,
		skip: number,
		limit: number,
		inboxes: unknown[],
		total: number | undefined,
	): Finding[] {
		const { query } = exchange;
		const key = JSON.stringify([exchange.caller, query.poolId, query.status, limit]);
		const ids = inboxes.map(idOf);
		let walk = this.walks.get(key);
		this.walks.delete(key);
		if (skip === 0) walk = { nextSkip: 0, total, seen: new Set(), firstPage: ids };
		else if (!walk || walk.nextSkip !== skip) return []; // not a page of a walk seen from its start
		const found: Finding[] = [];
		const again = ids.filter((id) => walk.seen.has(id));
		if (skip > 0 && ids.length > 0 && ids.join('\n') === walk.firstPage.join('\n'))
			found.push({
				kind: 'page-skip-ignored',
				seen: `skip=${skip} answered the first page again (${ids.length} inbox${ids.length === 1 ? '' : 'es'})`,
			});
		else if (again.length)
			found.push({ kind: 'page-repeat', seen: `${again[0]} listed again at skip=${skip}` });
		if (total !== undefined && walk.total !== undefined && total !== walk.total)
			found.push({
				kind: 'page-total-moved',
				seen: `total ${walk.total}, then ${total} at skip=${skip}`,
			});
		for (const id of ids) walk.seen.add(id);
		walk.nextSkip = skip + inboxes.length;
		walk.total = total ?? walk.total;
		this.walks.set(key, walk);
		if (this.walks.size > MAX_WALKS) this.walks.delete(this.walks.keys().next().value!);
		return found;
	}
}
