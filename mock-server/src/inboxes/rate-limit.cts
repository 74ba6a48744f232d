import { HOURLY_LIMIT } from '../contract/inboxes.cjs';
import type { Clock } from '../core/clock.cjs';
import { hourlyLimitReached, rateLimitHeaders } from '../http/rate-limit.cjs';
import type { QuotaLedger } from '../store/quota.cjs';

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
		private readonly ledger: QuotaLedger,
		private readonly clock: Clock,
	) {}

	private state(keyId: string) {
		const now = this.clock.now();
		const records = this.ledger.usageSince(keyId, now - WINDOW_MS);
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

	/** The key's rolling hour as it stands: used (creations in the last hour, and reserved), what is left, when the last creation ages out. */
	window(keyId: string) {
		const s = this.state(keyId);
		return {
			limit: HOURLY_LIMIT,
			used: s.used,
			remaining: s.remaining,
			resetsAt: new Date(s.resetSeconds * 1000).toISOString(),
		};
	}

	headersFor(keyId: string): Record<string, string> {
		const s = this.state(keyId);
		return rateLimitHeaders(s.remaining, s.resetSeconds);
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
			throw hourlyLimitReached({
				wanted,
				remaining: s.remaining,
				retryAfter,
				resetSeconds: s.resetSeconds,
			});
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
				if (created > 0) this.ledger.record(keyId, this.clock.now(), created);
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
