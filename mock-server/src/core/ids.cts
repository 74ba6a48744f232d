import { randomBytes } from 'node:crypto';

let lastMs = 0;
let sequence = 0;

/**
 * Identifiers that sort by creation time (then by a per-millisecond sequence), so "order by
 * createdAt, then id" lists rows in the order they were created, even within one batch.
 */
export function sortableId(prefix: string, nowMs: number): string {
	if (nowMs === lastMs) sequence++;
	else {
		lastMs = nowMs;
		sequence = 0;
	}
	const time = Math.max(0, Math.floor(nowMs)).toString(36).padStart(9, '0');
	const seq = sequence.toString(36).padStart(3, '0');
	return `${prefix}_${time}${seq}${randomBytes(5).toString('hex')}`;
}
