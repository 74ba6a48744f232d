/**
 * Waits for a state, not for a duration: resolves as soon as `condition` holds, looking every
 * `everyMs`. `withinMs` only bounds a wait that would otherwise never end, and its failure names
 * what was awaited; it is not a claim about speed (none is made in tests, see bench/).
 */
export async function waitUntil(
	condition: () => boolean | Promise<boolean>,
	withinMs: number,
	what: string,
	everyMs = 20,
): Promise<void> {
	const deadline = Date.now() + withinMs;
	while (!(await condition())) {
		if (Date.now() > deadline)
			throw new Error(`timed out after ${withinMs} ms waiting for ${what}`);
		await new Promise((resolve) => setTimeout(resolve, everyMs));
	}
}
