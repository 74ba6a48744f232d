/**
 * A service's answers shipped with the runner: for each operation n8n's node sends, the request it
 * matches and the answer the service's public API reference documents (its page cited), with
 * placeholders (template.cts) where the service echoes the request. A test names them with
 * `use: <service>` (every operation) or `use: <service>.<operation>` (one, its answer overridable).
 */
import type { MockAnswerSpec, MockRequestSpec } from '../../file/schema.cjs';

export interface ShippedOperation {
	/** What it answers, in a few words. */
	title: string;
	/** The page of the service's API reference the answer follows. */
	docs: string;
	request: MockRequestSpec;
	answer: MockAnswerSpec;
}

export interface Service {
	/** As a test names it: `use: gmail`. */
	name: string;
	title: string;
	/** The n8n node that calls it, whose advice names these answers. */
	nodeType?: string;
	operations: Record<string, ShippedOperation>;
}

/** A URL matcher: the literal start, then a pattern (`/^https:\/\/api\.x\.com\/v1\/items\/[^/?]+$/`). */
export const urlPattern = (literal: string, pattern: string): string =>
	`/^${literal.replace(/[/.?+*()[\]{}|^$\\]/g, '\\$&')}${pattern}$/`;
