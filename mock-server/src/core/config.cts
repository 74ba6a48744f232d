import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { RUNS_FROM_BUNDLE } from './helpers.cjs';

/**
 * The reference server's options (docs/api.md, "The reference server's own interface").
 * Each option is a flag and an environment variable; the flag wins.
 */
export interface ServerConfig {
	port: number;
	host: string;
	db: string;
	adminToken?: string;
	devKey?: string;
	secretKey?: string;
	connectionTest: 'simulated' | 'real';
	mailCa?: string;
	latency: 'none' | 'realistic';
	scanTimeoutMs: number;
	/** Helper processes that scan websites; 0 scans in the server's own process. */
	scanThreads: number;
	/** Websites scanned at once, all scanner processes together. */
	scanConcurrency: number;
	/** Milliseconds without a scan after which the scanning processes end (restarted on demand). */
	scanIdleMs: number;
	mxLookup: boolean;
	log: boolean;
	journalSize: number;
	/** Bytes of one request body the journal keeps; larger bodies are kept shortened. */
	journalBodyBytes: number;
	/** Bytes of request bodies the journal keeps in all; the oldest entries go first. */
	journalBytes: number;
	/** Milliseconds a client may take to send a whole request (headers and body). */
	requestTimeoutMs: number;
	/** Targets a real connection test may reach although they are local or private. */
	connectionTestAllow: { host: string; port: number }[];
	seed?: string;
}

interface OptionSpec {
	flag: string;
	env: string;
	help: string;
	default?: string;
}

export const OPTIONS: Record<keyof ServerConfig, OptionSpec> = {
	port: { flag: 'port', env: 'MOCK_PORT', default: '4010', help: 'TCP port to listen on' },
	host: { flag: 'host', env: 'MOCK_HOST', default: '127.0.0.1', help: 'interface to bind' },
	db: {
		flag: 'db',
		env: 'MOCK_DB',
		default: '.data/mock-server.sqlite',
		help: 'SQLite database file, or :memory:',
	},
	adminToken: {
		flag: 'admin-token',
		env: 'MOCK_ADMIN_TOKEN',
		help: 'token for /__admin (derived from the secret kept beside the database when absent)',
	},
	devKey: {
		flag: 'dev-key',
		env: 'MOCK_DEV_KEY',
		help: "the dev account's API key (derived from the secret kept beside the database when absent)",
	},
	secretKey: {
		flag: 'secret-key',
		env: 'MOCK_SECRET_KEY',
		help: 'secret (>= 32 chars) that encrypts stored mail passwords (generated into <db>.secret when absent)',
	},
	connectionTest: {
		flag: 'connection-test',
		env: 'MOCK_CONNECTION_TEST',
		default: 'simulated',
		help: 'simulated | real',
	},
	mailCa: {
		flag: 'mail-ca',
		env: 'MOCK_MAIL_CA',
		help: 'PEM file of a CA to trust for real connection tests',
	},
	latency: {
		flag: 'latency',
		env: 'MOCK_LATENCY',
		default: 'none',
		help: 'none | realistic (lead searches take as long as the real service)',
	},
	scanTimeoutMs: {
		flag: 'scan-timeout',
		env: 'MOCK_SCAN_TIMEOUT',
		default: '1000',
		help: 'per-website scan time-out in milliseconds',
	},
	scanThreads: {
		flag: 'scan-threads',
		env: 'MOCK_SCAN_THREADS',
		default: 'auto',
		help: 'helper processes that scan websites: auto (one per core beside the one serving the websites, 1 to 4), or 0 to 16 (0 scans in the server process)',
	},
	scanConcurrency: {
		flag: 'scan-concurrency',
		env: 'MOCK_SCAN_CONCURRENCY',
		default: '1024',
		help: 'websites scanned at once, all scanner processes together (1 to 8192): fewer use less memory and take large searches longer',
	},
	scanIdleMs: {
		flag: 'scan-idle',
		env: 'MOCK_SCAN_IDLE',
		default: '60000',
		help: 'milliseconds without a website scan after which the scanner and synthetic-web processes end, giving all their memory back (the next search starts them again)',
	},
	mxLookup: {
		flag: 'mx-lookup',
		env: 'MOCK_MX_LOOKUP',
		default: 'off',
		help: 'on | off: detect custom domains hosted by GoDaddy, Namecheap, Microsoft 365, Google Workspace or Zoho by their MX records',
	},
	seed: {
		flag: 'seed',
		env: 'MOCK_SEED',
		help: 'JSON seed file: accounts with fixed API keys, pools, inboxes, contacts (applied at start and on reset)',
	},
	journalSize: {
		flag: 'journal-size',
		env: 'MOCK_JOURNAL_SIZE',
		default: '10000',
		help: 'API requests kept in the request journal (GET /__admin/requests); 0 turns it off',
	},
	journalBodyBytes: {
		flag: 'journal-body-bytes',
		env: 'MOCK_JOURNAL_BODY_BYTES',
		default: '65536',
		help: 'bytes of one request body kept in the journal (larger ones are kept shortened)',
	},
	journalBytes: {
		flag: 'journal-bytes',
		env: 'MOCK_JOURNAL_BYTES',
		default: '16777216',
		help: 'bytes of request bodies kept in the journal in all (the oldest entries go first)',
	},
	requestTimeoutMs: {
		flag: 'request-timeout',
		env: 'MOCK_REQUEST_TIMEOUT',
		default: '30000',
		help: 'milliseconds a client may take to send a whole request; slower ones get 408',
	},
	connectionTestAllow: {
		flag: 'connection-test-allow',
		env: 'MOCK_CONNECTION_TEST_ALLOW',
		help: 'HOST:PORT,... that real connection tests may reach although local, private or not a mail port (a local test mail server)',
	},
	log: {
		flag: 'log',
		env: 'MOCK_LOG',
		default: 'on',
		help: 'on | off: JSON request logs on stdout',
	},
};

export class ConfigError extends Error {}

export function usage(): string {
	const lines = Object.values(OPTIONS).map(
		(o) =>
			`  --${o.flag.padEnd(16)} ${o.env.padEnd(22)} ${o.help}${o.default ? ` (default ${o.default})` : ''}`,
	);
	// The published bundle is a bin of its own; from the sources it runs through npm start.
	const program = RUNS_FROM_BUNDLE ? 'lead-inbox-mock-server' : 'npm start --';
	return [
		`Usage: ${program} [options]`,
		'',
		'  flag               environment            meaning',
		...lines,
		'  --help',
	].join('\n');
}

/** Shortest admin token accepted: a token is all that guards the admin API. */
const ADMIN_TOKEN_MIN_LENGTH = 16;

/**
 * One raw option value and where it came from, so an error names what the user typed: the flag, or
 * the environment variable when the value came from there.
 */
interface Raw {
	value: string;
	source: string;
}

function oneOf<T extends string>(raw: Raw, allowed: readonly T[]): T {
	if (!(allowed as readonly string[]).includes(raw.value)) {
		throw new ConfigError(
			`${raw.source} must be one of ${allowed.join(', ')} (got "${raw.value}")`,
		);
	}
	return raw.value as T;
}

function integer(raw: Raw, min: number, max: number, extra = ''): number {
	const value = raw.value.trim();
	if (!/^-?\d+$/.test(value) || Number(value) < min || Number(value) > max) {
		throw new ConfigError(
			`${raw.source} must be an integer from ${min} to ${max}${extra} (got "${raw.value}")`,
		);
	}
	return Number(value);
}

/** `HOST:PORT,HOST:PORT` (an IPv6 host in brackets: `[::1]:3143`). */
function allowList(raw: Raw | undefined): { host: string; port: number }[] {
	if (!raw) return [];
	return raw.value
		.split(',')
		.map((entry) => entry.trim())
		.filter(Boolean)
		.map((entry) => {
			const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(entry);
			const port = match ? Number(match[3]) : NaN;
			if (!match || port < 1 || port > 65535) {
				throw new ConfigError(
					`${raw.source}: "${entry}" is not HOST:PORT (e.g. 127.0.0.1:3143 or [::1]:3143, several separated by commas)`,
				);
			}
			return { host: (match[1] ?? match[2]).toLowerCase(), port };
		});
}

/**
 * `--port -1` would be read by parseArgs as a flag of its own ("argument is ambiguous"); a value
 * that looks like a negative number is joined to its flag, so the range check explains instead.
 */
function joinNegativeValues(argv: string[]): string[] {
	const out: string[] = [];
	for (let i = 0; i < argv.length; i++) {
		const next = argv[i + 1];
		if (/^--[a-z-]+$/.test(argv[i]) && next !== undefined && /^-\d/.test(next)) {
			out.push(`${argv[i]}=${next}`);
			i++;
		} else out.push(argv[i]);
	}
	return out;
}

export function parseConfig(argv: string[], env: NodeJS.ProcessEnv): ServerConfig | 'help' {
	const options = Object.fromEntries(
		Object.values(OPTIONS).map((o) => [o.flag, { type: 'string' as const }]),
	);
	let values: Record<string, string | boolean | undefined>;
	try {
		values = parseArgs({
			args: joinNegativeValues(argv),
			options: { ...options, help: { type: 'boolean' } },
			strict: true,
			allowPositionals: false,
		}).values;
	} catch (error) {
		throw new ConfigError(`${(error as Error).message}. Run with --help to list the options.`);
	}
	if (values.help) return 'help';
	const raw = (key: keyof ServerConfig): Raw | undefined => {
		const spec = OPTIONS[key];
		const fromFlag = values[spec.flag];
		if (typeof fromFlag === 'string') return { value: fromFlag, source: `--${spec.flag}` };
		const fromEnv = env[spec.env];
		if (fromEnv !== undefined && fromEnv !== '')
			return { value: fromEnv, source: `${spec.env} (environment)` };
		return spec.default === undefined
			? undefined
			: { value: spec.default, source: `--${spec.flag}` };
	};
	const read = (key: keyof ServerConfig) => raw(key)?.value;
	const required = (key: keyof ServerConfig) => raw(key)!;

	const mailCa = raw('mailCa');
	if (mailCa) checkPemFile(mailCa);
	const seed = raw('seed');
	if (seed && !existsSync(seed.value)) {
		throw new ConfigError(
			`${seed.source}: no file at ${seed.value} (give the path of a JSON seed file)`,
		);
	}
	const secretKey = raw('secretKey');
	if (secretKey && secretKey.value.length < 32) {
		throw new ConfigError(`${secretKey.source} must be at least 32 characters long`);
	}
	const adminToken = raw('adminToken');
	if (adminToken && adminToken.value.length < ADMIN_TOKEN_MIN_LENGTH) {
		throw new ConfigError(
			`${adminToken.source} must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters long (it is all that guards the admin API); leave it out to use one derived from the secret kept beside the database`,
		);
	}
	const scanThreads = required('scanThreads');
	return {
		port: integer(required('port'), 0, 65535, ' (0 picks a free port)'),
		host: read('host')!,
		db: read('db')!,
		adminToken: adminToken?.value,
		devKey: read('devKey'),
		secretKey: secretKey?.value,
		connectionTest: oneOf(required('connectionTest'), ['simulated', 'real'] as const),
		mailCa: mailCa?.value,
		latency: oneOf(required('latency'), ['none', 'realistic'] as const),
		scanTimeoutMs: integer(required('scanTimeoutMs'), 50, 120000),
		scanThreads:
			scanThreads.value === 'auto'
				? Math.max(1, Math.min(4, availableParallelism() - 1))
				: integer(scanThreads, 0, 16, ' or auto'),
		scanConcurrency: integer(required('scanConcurrency'), 1, 8192),
		scanIdleMs: integer(required('scanIdleMs'), 1000, 86400000),
		mxLookup: oneOf(required('mxLookup'), ['on', 'off'] as const) === 'on',
		log: oneOf(required('log'), ['on', 'off'] as const) === 'on',
		journalSize: integer(required('journalSize'), 0, 1000000),
		journalBodyBytes: integer(required('journalBodyBytes'), 0, 16 * 1024 * 1024),
		journalBytes: integer(required('journalBytes'), 0, 4 * 1024 * 1024 * 1024),
		requestTimeoutMs: integer(required('requestTimeoutMs'), 1000, 3600000),
		connectionTestAllow: allowList(raw('connectionTestAllow')),
		seed: seed?.value,
	};
}

/** Every option at its default (no flags, no environment). */
export function defaultConfig(): ServerConfig {
	return parseConfig([], {}) as ServerConfig;
}

/** A `--mail-ca` that is not a readable PEM certificate would fail every real test later, silently. */
function checkPemFile(raw: Raw): void {
	let text: string;
	try {
		text = readFileSync(raw.value, 'utf8');
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		throw new ConfigError(
			code === 'ENOENT'
				? `${raw.source}: no file at ${raw.value} (give the path of a PEM CA certificate)`
				: `${raw.source}: cannot read ${raw.value} (${code ?? (error as Error).message}); give a readable PEM CA certificate`,
		);
	}
	const blocks = text.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
	if (blocks.length === 0) {
		throw new ConfigError(
			`${raw.source}: ${raw.value} holds no PEM certificate (expected a "-----BEGIN CERTIFICATE-----" block, e.g. the CA file your test mail server's certificate was signed with)`,
		);
	}
	blocks.forEach((block, i) => {
		try {
			new X509Certificate(block);
		} catch (error) {
			throw new ConfigError(
				`${raw.source}: certificate ${i + 1} in ${raw.value} cannot be read (${(error as Error).message}); give a valid PEM CA certificate`,
			);
		}
	});
}
