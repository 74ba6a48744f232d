import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { RUNS_FROM_BUNDLE } from './threads.cjs';

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
	/** Worker threads that scan websites; 0 scans on the main thread. */
	scanThreads: number;
	/** Websites scanned at once, all scanner threads together. */
	scanConcurrency: number;
	mxLookup: boolean;
	log: boolean;
	journalSize: number;
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
		help: 'worker threads that scan websites: auto (one per core beside the one serving the websites, 1 to 4), or 0 to 16 (0 scans on the main thread)',
	},
	scanConcurrency: {
		flag: 'scan-concurrency',
		env: 'MOCK_SCAN_CONCURRENCY',
		default: '1024',
		help: 'websites scanned at once, all scanner threads together (1 to 8192): fewer use less memory and take large searches longer',
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

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
	if (!(allowed as readonly string[]).includes(value)) {
		throw new ConfigError(`--${name} must be one of ${allowed.join(', ')} (got "${value}")`);
	}
	return value as T;
}

function integer(name: string, value: string, min: number, max: number): number {
	if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
		throw new ConfigError(`--${name} must be an integer from ${min} to ${max} (got "${value}")`);
	}
	return Number(value);
}

export function parseConfig(argv: string[], env: NodeJS.ProcessEnv): ServerConfig | 'help' {
	const options = Object.fromEntries(
		Object.values(OPTIONS).map((o) => [o.flag, { type: 'string' as const }]),
	);
	let values: Record<string, string | boolean | undefined>;
	try {
		values = parseArgs({
			args: argv,
			options: { ...options, help: { type: 'boolean' } },
			strict: true,
			allowPositionals: false,
		}).values;
	} catch (error) {
		throw new ConfigError(`${(error as Error).message}. Run with --help to list the options.`);
	}
	if (values.help) return 'help';
	const read = (key: keyof ServerConfig): string | undefined => {
		const spec = OPTIONS[key];
		const fromFlag = values[spec.flag];
		const raw = typeof fromFlag === 'string' ? fromFlag : env[spec.env];
		return raw === undefined || raw === '' ? spec.default : raw;
	};
	const mailCa = read('mailCa');
	if (mailCa !== undefined && !existsSync(mailCa)) {
		throw new ConfigError(
			`--mail-ca: no file at ${mailCa} (give the path of a PEM CA certificate)`,
		);
	}
	const seed = read('seed');
	if (seed !== undefined && !existsSync(seed)) {
		throw new ConfigError(`--seed: no file at ${seed} (give the path of a JSON seed file)`);
	}
	const secretKey = read('secretKey');
	if (secretKey !== undefined && secretKey.length < 32) {
		throw new ConfigError('--secret-key must be at least 32 characters long');
	}
	return {
		port: integer('port', read('port')!, 0, 65535),
		host: read('host')!,
		db: read('db')!,
		adminToken: read('adminToken'),
		devKey: read('devKey'),
		secretKey,
		connectionTest: oneOf('connection-test', read('connectionTest')!, [
			'simulated',
			'real',
		] as const),
		mailCa,
		latency: oneOf('latency', read('latency')!, ['none', 'realistic'] as const),
		scanTimeoutMs: integer('scan-timeout', read('scanTimeoutMs')!, 50, 120000),
		scanThreads:
			read('scanThreads') === 'auto'
				? Math.max(1, Math.min(4, availableParallelism() - 1))
				: integer('scan-threads (or auto)', read('scanThreads')!, 0, 16),
		scanConcurrency: integer('scan-concurrency', read('scanConcurrency')!, 1, 8192),
		mxLookup: oneOf('mx-lookup', read('mxLookup')!, ['on', 'off'] as const) === 'on',
		log: oneOf('log', read('log')!, ['on', 'off'] as const) === 'on',
		journalSize: integer('journal-size', read('journalSize')!, 0, 1000000),
		seed,
	};
}
