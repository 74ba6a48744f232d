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
