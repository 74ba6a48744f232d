/**
 * A contact's dedup key in its account: the primary email, trimmed and lower-cased, or `identity`
 * when it has none (searches and seed files both store contacts under it).
 */
export const contactKey = (email: string | null | undefined, identity: string) =>
	email ? `email:${email.trim().toLowerCase()}` : identity;
