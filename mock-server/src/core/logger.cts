/**
 * Structured (JSON lines) logging. Secrets never reach a log line: callers pass only fields they
 * chose, and `redact` masks anything that looks like a credential as a second line of defence.
 */
export type LogSink = (line: string) => void;

const SECRET_KEYS = /authorization|password|token|apikey|api_key|secret/i;
const BEARER = /Bearer\s+[^\s"]+/gi;
const API_KEY = /lik_[A-Za-z0-9_-]+/g;

export function redact(value: unknown, depth = 0): unknown {
	if (typeof value === 'string')
		return value.replace(BEARER, 'Bearer [redacted]').replace(API_KEY, '[redacted]');
	if (depth > 4 || value === null || typeof value !== 'object') return value;
	if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
	const out: Record<string, unknown> = {};
	for (const [k, v] of Object.entries(value)) {
		out[k] = SECRET_KEYS.test(k) ? '[redacted]' : redact(v, depth + 1);
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
