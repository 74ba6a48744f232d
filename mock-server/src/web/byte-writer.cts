/**
 * Writes a response body straight into bytes. The synthetic web's pages and containers are tens
 * to hundreds of kilobytes: built as strings, each was joined, flattened and encoded, three
 * copies of garbage per answer, and garbage collection was a quarter of the thread's time. Here
 * the pieces go into one reused scratch buffer, and the body is a single copy of it. One body is
 * written at a time: rendering is synchronous, so a writer is finished before the next starts.
 */
export class ByteWriter {
	private static scratch = Buffer.allocUnsafeSlow(256 * 1024);
	private length = 0;

	/** Bytes written so far. */
	get size(): number {
		return this.length;
	}

	text(text: string): this {
		this.reserve(text.length * 3); // UTF-8 needs at most three bytes per UTF-16 unit
		this.length += ByteWriter.scratch.write(text, this.length, 'utf8');
		return this;
	}

	bytes(bytes: Uint8Array): this {
		this.reserve(bytes.length);
		ByteWriter.scratch.set(bytes, this.length);
		this.length += bytes.length;
		return this;
	}

	/** The body: a copy of what was written (the scratch buffer is reused by the next writer). */
	finish(): Buffer {
		const body = Buffer.allocUnsafeSlow(this.length); // filled by the copy: no zeroing first
		ByteWriter.scratch.copy(body, 0, 0, this.length);
		return body;
	}

	private reserve(bytes: number): void {
		const needed = this.length + bytes;
		if (needed <= ByteWriter.scratch.length) return;
		const grown = Buffer.allocUnsafeSlow(Math.max(needed, ByteWriter.scratch.length * 2));
		ByteWriter.scratch.copy(grown, 0, 0, this.length);
		ByteWriter.scratch = grown;
	}
}
