/**
 * The Node.js this server needs, checked before anything else loads: the store is Node's built-in
 * node:sqlite, which Node 22.13 was the first to offer without a flag. On an older Node the server
 * would die on "No such built-in module"; this says what to install instead.
 */
const MINIMUM = [22, 13] as const;

/** One line naming the Node.js needed, or undefined when this one will do. */
export function unsupportedNode(version = process.versions.node): string | undefined {
	const [major, minor] = version.split('.').map(Number);
	if (major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1])) return undefined;
	return `lead-inbox-mock-server needs Node.js ${MINIMUM.join('.')} or newer (22 LTS, 24 LTS or later; it keeps its data in Node's built-in SQLite); this is Node.js ${version}. Install a current Node.js (https://nodejs.org) and run it again.`;
}

/**
 * Node 22 still calls its SQLite "experimental" in a warning at first use (Node 24 no longer
 * does); the server relies only on what 22.13 already offers, so that one warning is dropped and
 * every other warning goes through.
 */
export function quietSqliteWarning(): void {
	const emit = process.emitWarning.bind(process) as (...args: unknown[]) => void;
	process.emitWarning = ((warning: unknown, ...rest: unknown[]) => {
		const text = warning instanceof Error ? warning.message : String(warning);
		if (text.startsWith('SQLite is an experimental feature')) return;
		emit(warning, ...rest);
	}) as typeof process.emitWarning;
}
