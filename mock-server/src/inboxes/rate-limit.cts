import type { Clock } from '../core/clock.cjs';
import { ApiError } from '../core/errors.cjs';
import { type Db, sql } from '../store/database.cjs';

export const HOURLY_LIMIT = 1000;
const WINDOW_MS = 3600 * 1000;

export interface Reservation {
	/** Records what was actually created (only that uses quota) and frees the rest. */
	commit(created: number): void;
	release(): void;
	headers(): Record<string, string>;
}

/**
 * 1000 created inboxes per rolling hour per API key, on the server clock. A request reserves its
 * candidate entries up front (synchronously, so concurrent requests cannot both take the last
 * places); created entries are written to the ledger, the rest of the reservation is released.
 */
export class InboxRateLimiter {
	private readonly pending = new Map<string, number>();

	constructor(
		private readonly db: Db,
		private readonly clock: Clock,
	) {}

	private usage(keyId: string, now: number): { at: number; count: number }[] {
		return sql(
			this.db,
			'SELECT at_ms AS at, count FROM inbox_quota WHERE key_id = ? AND at_ms > ? ORDER BY at_ms',
		).all(keyId, now - WINDOW_MS) as { at: number; count: number }[];
	}

	private state(keyId: string) {
		const now = this.clock.now();
		const records = this.usage(keyId, now);
		const used = records.reduce((sum, r) => sum + r.count, 0) + (this.pending.get(keyId) ?? 0);
		const reset = records.length ? records[records.length - 1].at + WINDOW_MS : now;
		return {
			now,
			records,
			used,
			remaining: Math.max(0, HOURLY_LIMIT - used),
			resetSeconds: Math.ceil(reset / 1000),
		};
	}

	headersFor(keyId: string): Record<string, string> {
		const s = this.state(keyId);
		return {
			'X-RateLimit-Limit': String(HOURLY_LIMIT),
			'X-RateLimit-Remaining': String(s.remaining),
			'X-RateLimit-Reset': String(s.resetSeconds),
		};
	}

	reserve(keyId: string, wanted: number): Reservation {
		const s = this.state(keyId);
		if (wanted > s.remaining) {
			// Seconds until enough of the window's oldest creations have aged out.
			let toFree = s.used + wanted - HOURLY_LIMIT;
			let freeAt = s.now + WINDOW_MS;
			for (const record of s.records) {
				toFree -= record.count;
				if (toFree <= 0) {
					freeAt = record.at + WINDOW_MS;
					break;
				}
			}
			const retryAfter = Math.max(1, Math.ceil((freeAt - s.now) / 1000));
			throw new ApiError(
				429,
				`Hourly limit reached: this request would create ${wanted} inbox(es) but only ${s.remaining} of ${HOURLY_LIMIT} remain for this API key in the current hour; retry in ${retryAfter} s. Nothing was created.`,
				undefined,
				undefined,
				{ 'Retry-After': String(retryAfter), ...this.headersFor(keyId) },
			);
		}
		this.pending.set(keyId, (this.pending.get(keyId) ?? 0) + wanted);
		let open = true;
		const release = () => {
			if (!open) return;
			open = false;
			const left = (this.pending.get(keyId) ?? 0) - wanted;
			if (left > 0) this.pending.set(keyId, left);
			else this.pending.delete(keyId);
		};
		return {
			commit: (created: number) => {
				if (created > 0)
					sql(this.db, 'INSERT INTO inbox_quota (key_id, at_ms, count) VALUES (?, ?, ?)').run(
						keyId,
						this.clock.now(),
						created,
					);
				release();
			},
			release,
			headers: () => this.headersFor(keyId),
		};
	}

	reset(): void {
		this.pending.clear();
	}
}
