/** What the admin API answers, as the page uses it. */
export interface Account {
	id: string;
	credits: number;
	active: boolean;
	contactCount: number;
	dev: boolean;
}
export interface LedgerEntry {
	at: string;
	kind: 'opening' | 'grant' | 'set' | 'charge';
	delta: number;
	balance: number;
	searchId?: string;
}
export interface Search {
	id: string;
	at: string;
	request: {
		niche: string;
		city: string;
		count: number;
		metaAds?: boolean;
		tiktokPixel?: boolean;
		gAnalytics?: boolean;
	};
	found: number;
	charged: number;
	duplicates: number;
	refunded: number;
	durationMs: number;
}
export interface Contact {
	businessName: string;
	email: string | null;
	website: string | null;
	fbPixel: boolean | null;
	tikTokPixel: boolean | null;
	gAnalytics: boolean | null;
	googleBusinessCategories: string[];
}
export interface Pool {
	id: string;
	name: string;
	createdAt: string;
	inboxes: Record<'active' | 'paused' | 'deactivated' | 'error', number>;
}
export interface Key {
	id: string;
	permissions: string[];
	createdAt: string;
	hourlyWindow: { limit: number; used: number; remaining: number; resetsAt: string };
}
export interface Clock {
	now: string;
	offsetSeconds: number;
	frozen: boolean;
}
export interface Faults {
	storage: { target: string; times: number }[];
	routes: { route: string; times: number; status?: number; delayMs?: number; drop?: boolean }[];
}
export interface Divergence {
	class: 'breaks-spec' | 'open-point' | 'beyond-spec';
	operation: string;
	what: string;
	seen: string;
	count: number;
	nodes: { effect: string; says: string };
}
export interface Page {
	pagination: { total: number; limit: number; skip: number; hasMore: boolean };
}
export interface Scan {
	url: string;
	scanned: boolean;
	reason?: string;
	findings: { kind: string; id?: string; where: string; evidence: string }[];
	containers: { id: string; url: string; loaded: boolean; reason?: string }[];
}
