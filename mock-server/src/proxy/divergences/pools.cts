/** A pool list: the fields as the spec gives them, and the order this server keeps. */
import { type Exchange, type Finding, isObject } from './exchange.cjs';
import { fieldFindings, POOLS_ANSWER } from './spec-fields.cjs';

/** Where a list leaves createdAt-then-id order (this server's rule for pools and inboxes), if it does. */
export function orderBreak(items: unknown[]): string | undefined {
	const rows = items.filter(isObject);
	for (let i = 1; i < rows.length; i++) {
		const [a, b] = [rows[i - 1], rows[i]];
		const [ta, tb] = [Date.parse(String(a.createdAt)), Date.parse(String(b.createdAt))];
		if (Number.isNaN(ta) || Number.isNaN(tb)) return undefined; // the timestamp check says so
		if (ta > tb || (ta === tb && String(a.id) > String(b.id)))
			return `${String(a.id)} (${String(a.createdAt)}) before ${String(b.id)} (${String(b.createdAt)})`;
	}
	return undefined;
}

export function poolsFindings(_exchange: Exchange, answer: unknown): Finding[] {
	const found: Finding[] = fieldFindings(POOLS_ANSWER, answer);
	const pools = isObject(answer) && Array.isArray(answer.pools) ? answer.pools : [];
	const broken = orderBreak(pools);
	if (broken) found.push({ kind: 'order', subject: 'pools', seen: broken });
	return found;
}
