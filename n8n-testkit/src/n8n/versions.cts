/** n8n's node descriptions by version: one per group of versions of a type. */

/**
 * Of one type's descriptions (n8n lists one per group of versions), the one for `version`, else the
 * first: for those read from disk (descriptions.cts) and those n8n serves (session.cts).
 */
export function atVersion<T extends { version: number | number[] }>(
	same: T[],
	version: number | undefined,
): T | undefined {
	return (
		same.find(
			(d) =>
				version === undefined ||
				(Array.isArray(d.version) ? d.version.includes(version) : d.version === version),
		) ?? same[0]
	);
}
