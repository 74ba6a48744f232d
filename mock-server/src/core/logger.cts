/**
 * Structured (JSON lines) logging. Secrets never reach a log line: callers pass only fields they
 * chose, and `redact` masks anything that looks like a credential as a second line of defence.
 */
export type LogSink = (line: string) => void;

// Loose on purpose: a misspelt field (`imapPasword`) or another casing still names a secret.
const SECRET_NAME = /auth|pass|pasw|pwd|token|api.?key|secret|credential|private|session|cookie/i;
const BEARER = /Bearer\s+[^\s"]+/gi;
const API_KEY = /lik_[A-Za-z0-9_-]+/g;
/** Nesting kept by `redact`; deeper values are replaced, never kept unredacted. */
const REDACT_DEPTH = 8;

/** Whether a field (or query parameter) name looks like it holds a secret. */
export const looksSecret = (name: string) => SECRET_NAME.test(name);

export function redact(value: unknown, depth = 0): unknown {
	if (typeof value === 'string')
		return value.replace(BEARER, 'Bearer [redacted]').replace(API_KEY, '[redacted]');
	if (value === null || typeof value !== 'object') return value;
	if (depth >= REDACT_DEPTH) return '[nested too deep]';
	if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
	const out: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(value)) {
		out[k] = looksSecret(k) ? '[redacted]' : redact(v, depth + 1);
	}
	return out;
}

export class Logger {
	constructor(
		private readonly sink: LogSink = (line) => process.stdout.write(line + '\n'),
		private readonly enabled = true,
	) {}

	info(msg: string, fields: Record<string, unknown> = {}): void {
		this.write('info', msg, fields);
	}

	warn(msg: string, fields: Record<string, unknown> = {}): void {
		this.write('warn', msg, fields);
	}

	error(msg: string, fields: Record<string, unknown> = {}): void {
		this.write('error', msg, fields);
	}

	private write(level: string, msg: string, fields: Record<string, unknown>): void {
		if (!this.enabled) return;
		this.sink(
			JSON.stringify({ time: new Date().toISOString(), level, msg, ...(redact(fields) as object) }),
		);
	}
}
