import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { RUNS_FROM_BUNDLE } from './helpers.cjs';

/**
 * The reference server's options, each described once here: its flag (in-process, the flag in
 * camelCase is the option's name and the configuration's key), its environment variable, its
 * default, its meaning (the usage text and mock-server/README.md's table are made from it) and
 * how its text is read and checked. The configuration's type is what the readers return.
 */
interface OptionSpec<T> {
	flag: string;
	env: string;
	/** The text used when the option is not given. */
	default?: string;
	/** Said in the table when there is no default text: what happens without the option. */
	absent?: string;
	help: string;
	/** A switch: the flag alone turns it on (its text is then "on"); the variable takes on or off. */
	switch?: true;
	/** The value of the option's text (undefined when not given and without default). */
	read: (raw: Raw | undefined) => T;
}

/**
 * One raw option value and where it came from, so an error names what the user typed: the flag,
 * the environment variable, or the in-process option.
 */
export interface Raw {
	value: string;
	source: string;
}

const spec = <T,>(option: OptionSpec<T>) => option;

/** The classes of divergence --fail-on (and the probe's) can name, the worst first. */
export const FAIL_ON = ['breaks-spec', 'open-point'] as const;
export type FailOn = (typeof FAIL_ON)[number];

/** Shortest admin token accepted: a token is all that guards the admin API. */
const ADMIN_TOKEN_MIN_LENGTH = 16;

export const OPTIONS = {
	port: spec({
		flag: 'port',
		env: 'MOCK_PORT',
		default: '4010',
		help: 'TCP port to listen on (0 picks a free port)',
		read: (raw) => integer(raw!, 0, 65535, ' (0 picks a free port)'),
	}),
	host: spec({
		flag: 'host',
		env: 'MOCK_HOST',
		default: '127.0.0.1',
		help: 'interface to bind',
		read: (raw) => raw!.value,
	}),
	db: spec({
		flag: 'db',
		env: 'MOCK_DB',
		default: '.data/mock-server.sqlite',
		help: 'SQLite database file, or :memory:',
		read: (raw) => raw!.value,
	}),
	adminToken: spec({
		flag: 'admin-token',
		env: 'MOCK_ADMIN_TOKEN',
		absent: 'generated, stable per database',
		help: `token for /__admin (${ADMIN_TOKEN_MIN_LENGTH} characters or more)`,
		read: (raw) => {
			if (raw && raw.value.length < ADMIN_TOKEN_MIN_LENGTH)
				throw new ConfigError(
					`${raw.source} must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters long (it is all that guards the admin API); leave it out to use one derived from the secret kept beside the database`,
				);
			return raw?.value;
		},
	}),
	devKey: spec({
		flag: 'dev-key',
		env: 'MOCK_DEV_KEY',
		absent: 'generated, stable per database',
		help: "the dev account's API key",
		read: (raw) => raw?.value,
	}),
	secretKey: spec({
		flag: 'secret-key',
		env: 'MOCK_SECRET_KEY',
		absent: '<db>.secret',
		help: 'secret (32+ chars) for the password encryption key and the generated token and key (generated into <db>.secret when absent)',
		read: (raw) => {
			if (raw && raw.value.length < 32)
				throw new ConfigError(`${raw.source} must be at least 32 characters long`);
			return raw?.value;
		},
	}),
	connectionTest: spec({
		flag: 'connection-test',
		env: 'MOCK_CONNECTION_TEST',
		default: 'simulated',
		help: 'simulated | real: IMAP/SMTP connection tests simulated per provider, or made for real',
		read: (raw) => oneOf(raw!, ['simulated', 'real'] as const),
	}),
	mailCa: spec({
		flag: 'mail-ca',
		env: 'MOCK_MAIL_CA',
		help: 'PEM CA file trusted for real connection tests (checked at start)',
		read: (raw) => {
			if (raw) checkPemFile(raw);
			return raw?.value;
		},
	}),
	latency: spec({
		flag: 'latency',
		env: 'MOCK_LATENCY',
		default: 'none',
		help: 'none | realistic: searches take as long as the real service (3 s + 0.25 s per lead: ~4 min for 1000)',
		read: (raw) => oneOf(raw!, ['none', 'realistic'] as const),
	}),
	scanTimeout: spec({
		flag: 'scan-timeout',
		env: 'MOCK_SCAN_TIMEOUT',
		default: '1000',
		help: 'per-website scan time-out in milliseconds (50 to 120000)',
		read: (raw) => integer(raw!, 50, 120000),
	}),
	scanThreads: spec({
		flag: 'scan-threads',
		env: 'MOCK_SCAN_THREADS',
		default: 'auto',
		help: 'helper processes that scan websites: auto (one, on any machine: a burst of large searches then peaks at about the same memory everywhere), or 0 to 16 (each one more lets bursts of large searches use another core, and costs about 50 MiB more at their peak; 0 scans in the server process)',
		// One scanner by default: each process holds its own runtime and buffers, so one per core
		// made a burst's peak grow with the machine (309 MiB PSS with two on 2 cores, 364 with
		// three, against 263 with one; a single count-1000 search took as long: bench/README.md).
		read: (raw) => (raw!.value === 'auto' ? 1 : integer(raw!, 0, 16, ' or auto')),
	}),
	scanConcurrency: spec({
		flag: 'scan-concurrency',
		env: 'MOCK_SCAN_CONCURRENCY',
		default: '1024',
		help: 'websites scanned at once, all scanner processes together (1 to 8192): fewer use less memory and take large searches longer (256: about 7 % less at the peak of a burst of ten large searches, each large search alone about 60 % slower)',
		read: (raw) => integer(raw!, 1, 8192),
	}),
	scanIdle: spec({
		flag: 'scan-idle',
		env: 'MOCK_SCAN_IDLE',
		default: '60000',
		help: 'milliseconds without a website scan after which the scanner and synthetic-web processes end, giving all their memory back; the next search starts them again',
		read: (raw) => integer(raw!, 1000, 86400000),
	}),
	scanCacheTtl: spec({
		flag: 'scan-cache-ttl',
		env: 'MOCK_SCAN_CACHE_TTL',
		default: '21600',
		help: "seconds of the server's clock a website's scan is kept for later searches (60 to 31536000; default 6 hours); workflow tests keep scans for a year, so that a site's flags do not change between runs a clock advance apart",
		read: (raw) => integer(raw!, 60, 31536000),
	}),
	mxLookup: spec({
		flag: 'mx-lookup',
		env: 'MOCK_MX_LOOKUP',
		default: 'off',
		help: 'on | off: detect custom domains hosted by GoDaddy, Namecheap, Microsoft 365, Google Workspace or Zoho by their MX records',
		read: (raw) => oneOf(raw!, ['on', 'off'] as const) === 'on',
	}),
	log: spec({
		flag: 'log',
		env: 'MOCK_LOG',
		default: 'on',
		help: 'on | off: JSON request logs on stdout (never keys, tokens or passwords)',
		read: (raw) => oneOf(raw!, ['on', 'off'] as const) === 'on',
	}),
	seed: spec({
		flag: 'seed',
		env: 'MOCK_SEED',
		help: 'JSON seed file: accounts with fixed API keys, pools, inboxes, contacts (applied at start and on reset)',
		read: (raw) => {
			if (raw && !existsSync(raw.value))
				throw new ConfigError(
					`${raw.source}: no file at ${raw.value} (give the path of a JSON seed file)`,
				);
			return raw?.value;
		},
	}),
	journalSize: spec({
		flag: 'journal-size',
		env: 'MOCK_JOURNAL_SIZE',
		default: '10000',
		help: 'API requests kept in the request journal (GET /__admin/requests); 0 turns it off',
		read: (raw) => integer(raw!, 0, 1000000),
	}),
	journalBodyBytes: spec({
		flag: 'journal-body-bytes',
		env: 'MOCK_JOURNAL_BODY_BYTES',
		default: '65536',
		help: 'bytes of one request body the journal keeps; a larger body is kept shortened (long strings and lists cut, with markers)',
		read: (raw) => integer(raw!, 0, 16 * 1024 * 1024),
	}),
	journalBytes: spec({
		flag: 'journal-bytes',
		env: 'MOCK_JOURNAL_BYTES',
		default: '16777216',
		help: 'bytes of request bodies the journal keeps in all; the oldest entries go first',
		read: (raw) => integer(raw!, 0, 4 * 1024 * 1024 * 1024),
	}),
	requestTimeout: spec({
		flag: 'request-timeout',
		env: 'MOCK_REQUEST_TIMEOUT',
		default: '30000',
		help: 'milliseconds a client may take to send a whole request (headers and body); slower ones get 408 and are disconnected',
		read: (raw) => integer(raw!, 1000, 3600000),
	}),
	connectionTestAllow: spec({
		flag: 'connection-test-allow',
		env: 'MOCK_CONNECTION_TEST_ALLOW',
		help: 'HOST:PORT,... that real connection tests may reach although local, private or not a mail port (a local test mail server)',
		read: (raw) => allowList(raw),
	}),
	proxyLeads: spec({
		flag: 'proxy-leads',
		env: 'MOCK_PROXY_LEADS',
		help: 'the real lead search base URL: lead searches are forwarded there and answered as it answers (proxy mode)',
		read: (raw) => baseUrl(raw),
	}),
	proxyInboxes: spec({
		flag: 'proxy-inboxes',
		env: 'MOCK_PROXY_INBOXES',
		help: 'the real inbox base URL, with /api/v1: pool and inbox requests are forwarded there (proxy mode)',
		read: (raw) => baseUrl(raw),
	}),
	proxyAllowCharges: spec({
		flag: 'proxy-allow-charges',
		env: 'MOCK_PROXY_ALLOW_CHARGES',
		default: 'off',
		switch: true,
		help: 'forward lead searches, which spend real credits; without it they are refused and nothing is forwarded',
		read: (raw) => oneOf(raw!, ['on', 'off'] as const) === 'on',
	}),
	proxyAllowChanges: spec({
		flag: 'proxy-allow-changes',
		env: 'MOCK_PROXY_ALLOW_CHANGES',
		default: 'off',
		switch: true,
		help: 'forward inbox creation, which creates real inboxes; without it it is refused and nothing is forwarded',
		read: (raw) => oneOf(raw!, ['on', 'off'] as const) === 'on',
	}),
	proxyTimeout: spec({
		flag: 'proxy-timeout',
		env: 'MOCK_PROXY_TIMEOUT',
		default: '600000',
		help: "milliseconds to wait for a forwarded request's whole answer before answering 502 (a lead search of 1000 may take minutes)",
		read: (raw) => integer(raw!, 100, 3600000),
	}),
	record: spec({
		flag: 'record',
		env: 'MOCK_RECORD',
		help: 'folder: every forwarded exchange is written there as one JSON file, secrets redacted (needs a proxy option)',
		read: (raw) => raw?.value,
	}),
	replay: spec({
		flag: 'replay',
		env: 'MOCK_REPLAY',
		help: 'folder of recordings: API requests are answered from them, nothing is forwarded and nothing charged',
		read: (raw) => {
			if (raw && !existsSync(raw.value))
				throw new ConfigError(
					`${raw.source}: no folder at ${raw.value} (give the folder --record wrote)`,
				);
			return raw?.value;
		},
	}),
	replayIgnore: spec({
		flag: 'replay-ignore',
		env: 'MOCK_REPLAY_IGNORE',
		help: 'request fields replay does not compare, comma-separated: body fields (count, entries.0.imapPassword) or query parameters (query.skip)',
		read: (raw) =>
			(raw?.value ?? '')
				.split(',')
				.map((field) => field.trim())
				.filter(Boolean),
	}),
	divergenceReport: spec({
		flag: 'divergence-report',
		env: 'MOCK_DIVERGENCE_REPORT',
		help: 'file: when the server stops (SIGTERM and SIGINT included), the divergences of the proxied services are written there as JSON, and as Markdown beside it (.md)',
		read: (raw) => {
			if (raw && !existsSync(dirname(resolve(raw.value))))
				throw new ConfigError(
					`${raw.source}: the folder of ${raw.value} does not exist (the report is written there when the server stops)`,
				);
			return raw?.value;
		},
	}),
	readyFile: spec({
		flag: 'ready-file',
		env: 'MOCK_READY_FILE',
		absent: 'none written',
		help: "file: once the server listens, its URL is written there (a loopback URL when it listens on every interface), and removed when it stops; the image's health check reads it, so it follows --port and --host however they were set",
		read: (raw) => {
			if (raw && !existsSync(dirname(resolve(raw.value))))
				throw new ConfigError(`${raw.source}: the folder of ${raw.value} does not exist`);
			return raw?.value;
		},
	}),
	failOn: spec({
		flag: 'fail-on',
		env: 'MOCK_FAIL_ON',
		absent: 'exit status 0',
		help: 'breaks-spec or open-point: the server exits with status 3 when it stops if a proxied service showed a divergence of that class or a worse one (breaks-spec is the worst)',
		read: (raw) => (raw ? oneOf(raw, FAIL_ON) : undefined),
	}),
};

export type OptionName = keyof typeof OPTIONS;

/** The server's configuration: each option as its reader returns it. */
export type ServerConfig = {
	[K in OptionName]: ReturnType<(typeof OPTIONS)[K]['read']>;
};

export class ConfigError extends Error {}

/** The configuration from a source of option texts; a missing one takes its default. */
export function readConfig(given: (name: OptionName) => Raw | undefined): ServerConfig {
	const config: Partial<Record<OptionName, unknown>> = {};
	for (const [name, option] of Object.entries(OPTIONS) as [OptionName, OptionSpec<unknown>][]) {
		const raw =
			given(name) ??
			(option.default === undefined
				? undefined
				: { value: option.default, source: `--${option.flag}` });
		config[name] = option.read(raw);
	}
	checkTogether(config as ServerConfig);
	return config as ServerConfig;
}

/** Options that only make sense with, or without, others. */
function checkTogether(config: ServerConfig): void {
	const proxied = config.proxyLeads !== undefined || config.proxyInboxes !== undefined;
	if (config.replay !== undefined && proxied)
		throw new ConfigError(
			'--replay answers from recordings and --proxy-leads/--proxy-inboxes forward to a service: give one or the other',
		);
	for (const [name, flag] of [
		['divergenceReport', '--divergence-report'],
		['failOn', '--fail-on'],
	] as const)
		if (config[name] !== undefined && !proxied)
			throw new ConfigError(
				`${flag} reports on the answers of proxied services: give --proxy-leads and/or --proxy-inboxes with it (or run the probe: lead-inbox-mock-server probe --help)`,
			);
	if (config.record !== undefined && !proxied)
		throw new ConfigError(
			'--record writes what is forwarded: give --proxy-leads and/or --proxy-inboxes with it',
		);
}

export function usage(): string {
	const lines = Object.values(OPTIONS).map(
		(o: OptionSpec<unknown>) =>
			`  --${o.flag.padEnd(22)} ${o.env.padEnd(27)} ${o.help} (${o.default === undefined ? (o.absent ?? 'default none') : `default ${o.default}`})`,
	);
	// The published bundle is a bin of its own; a clone runs it (or its sources) through npm start,
	// whose script says so.
	const program =
		process.env.LEAD_INBOX_PROGRAM ??
		(RUNS_FROM_BUNDLE ? 'lead-inbox-mock-server' : 'npm start --');
	return [
		`Usage: ${program} [options]`,
		'',
		`  ${'flag'.padEnd(24)} ${'environment'.padEnd(27)} meaning`,
		...lines,
		'  --help',
	].join('\n');
}

/** The options as mock-server/README.md shows them (a test keeps the README equal to it). */
export function optionsTable(): string {
	const code = (text: string) => `\`${text}\``;
	// Markdown: a `|` would end the cell, a `<db>` would read as an HTML tag.
	const text = (words: string) =>
		words.replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');
	const rows = Object.values(OPTIONS).map((o: OptionSpec<unknown>) => [
		code(`--${o.flag}`),
		code(o.env),
		o.default === undefined ? text(o.absent ?? 'none') : code(o.default),
		text(o.help),
	]);
	const header = ['Flag', 'Variable', 'Default', 'Meaning'];
	const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
	const line = (cells: string[]) =>
		`| ${cells.map((c, i) => (i === 3 ? c : c.padEnd(widths[i]))).join(' | ')} |`;
	return [
		line(header),
		line(widths.map((w, i) => '-'.repeat(i === 3 ? 7 : w))),
		...rows.map(line),
	].join('\n');
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

/** An http(s) base URL, without a trailing slash. */
function baseUrl(raw: Raw | undefined): string | undefined {
	if (!raw) return undefined;
	let url: URL;
	try {
		url = new URL(raw.value);
	} catch {
		url = new URL('invalid:');
	}
	if (!['http:', 'https:'].includes(url.protocol) || url.search || url.hash)
		throw new ConfigError(
			`${raw.source} must be an http or https base URL without query, e.g. https://leads.example.com or https://inboxes.example.com/api/v1 (got "${raw.value}")`,
		);
	return url.href.replace(/\/+$/, '');
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

/** The command line's configuration: flags, then MOCK_* variables, then defaults. */
export function parseConfig(argv: string[], env: NodeJS.ProcessEnv): ServerConfig | 'help' {
	const flags = Object.fromEntries(
		Object.values(OPTIONS).map((o: OptionSpec<unknown>) => [
			o.flag,
			{ type: o.switch ? ('boolean' as const) : ('string' as const) },
		]),
	);
	let values: Record<string, string | boolean | undefined>;
	try {
		values = parseArgs({
			args: joinNegativeValues(argv),
			options: { ...flags, help: { type: 'boolean' } },
			strict: true,
			allowPositionals: false,
		}).values;
	} catch (error) {
		throw new ConfigError(`${(error as Error).message}. Run with --help to list the options.`);
	}
	if (values.help) return 'help';
	return readConfig((name) => {
		const { flag, env: variable } = OPTIONS[name];
		const fromFlag = values[flag];
		if (typeof fromFlag === 'string') return { value: fromFlag, source: `--${flag}` };
		if (fromFlag === true) return { value: 'on', source: `--${flag}` };
		const fromEnv = env[variable];
		return fromEnv !== undefined && fromEnv !== ''
			? { value: fromEnv, source: `${variable} (environment)` }
			: undefined;
	});
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
