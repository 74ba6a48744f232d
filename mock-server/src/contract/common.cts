import { z } from 'zod';

export const errorDetail = z.object({
	path: z.string().meta({
		description: 'Field (or entry index and field) the message is about.',
		example: 'count',
	}),
	message: z.string(),
});

export const errorBody = z
	.object({
		error: z.string().meta({ description: 'One sentence a person can act on.' }),
		code: z
			.string()
			.optional()
			.meta({ description: 'Machine-readable outcome, for failed inbox entries.' }),
		details: z
			.array(errorDetail)
			.optional()
			.meta({ description: 'Per-field or per-entry problems.' }),
	})
	.meta({
		id: 'Error',
		example: {
			error: 'Invalid request body: count must be at most 1000.',
			details: [{ path: 'count', message: 'count must be at most 1000.' }],
		},
	});

/**
 * Text that is trimmed before it is checked, so spaces alone count as empty: documented with a
 * pattern that asks for a character other than a space.
 */
export const trimmedText = (max: number) =>
	z.string().trim().min(1).max(max).meta({ pattern: '\\S' });

/**
 * The email addresses the server takes, in every request field that holds one (inbox entries, the
 * seed's inboxes): zod's rule for `z.email()` (a dot-separated local part of letters, digits and
 * `_ ' + -`, not ending in `'`; a domain of labels with a top-level name of two letters or more),
 * with host-name labels that do not end in `-` (as `format: email` validators have them), written
 * without lookarounds so that tools generating requests from the API document can read it. The server checks this very pattern and the document publishes it, so an address one
 * refuses the other refuses too. Narrower than RFC 5321 on purpose: `a/b@gmail.com` and `bp@com`
 * are legal there and are almost always typing mistakes for an inbox login.
 */
export const EMAIL_PATTERN =
	/^(?:[A-Za-z0-9_'+-]+\.)*[A-Za-z0-9_'+-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/;

/**
 * An email address as EMAIL_PATTERN says, as it is: an address with a space around it is refused
 * (saying so), not trimmed, so that what the server takes is exactly what the document's pattern
 * and `format: email` allow (a client validating against the document agrees with the server).
 */
export const emailAddress = () =>
	z
		.string()
		.max(254)
		.regex(EMAIL_PATTERN, {
			error: (issue) =>
				typeof issue.input === 'string' && issue.input.trim() !== issue.input
					? 'must not start or end with a space or a line break: remove it'
					: 'must be a valid email address such as name@example.com',
		})
		.meta({
			format: 'email',
			// The shortest address the pattern takes is a@b.co.
			minLength: 6,
			pattern: EMAIL_PATTERN.source,
			description:
				"An email address as the pattern says: letters, digits and `_ ' + -` in dot-separated parts before the @ (not ending in `'`), then a domain whose last part has two letters or more, with no space around it. Refused, though RFC 5321 allows them: other characters before the @ (`a/b@gmail.com`, `a!b@gmail.com`) and a domain without a dot (`bp@com`).",
		});

/**
 * Query parameters arrive as strings; integers must be written as plain whole numbers. Documented
 * as the integers they stand for.
 */
export const queryInt = (min: number, max: number) =>
	z
		.string()
		.regex(/^\d+$/, { error: 'must be a whole number written with digits only' })
		.transform(Number)
		.pipe(z.int().min(min).max(max))
		.meta({ type: 'integer', minimum: min, maximum: max });
