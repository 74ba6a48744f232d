/**
 * A value made on first use. Large modules (the gazetteer, phone metadata, the mail clients) are
 * loaded this way so the server answers quickly after start and stays small while idle.
 */
export function lazy<T>(make: () => T): () => T {
	let value: { v: T } | undefined;
	return () => (value ??= { v: make() }).v;
}
