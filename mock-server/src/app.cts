/**
 * The composition root: builds the store, the rules and the HTTP edges of both services, the admin
 * API and the docs, and wires them together. It does no work of its own.
 */
import { rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { Faults } from './admin/faults.cjs';
import { healthRoutes } from './admin/health.cjs';
import { RequestJournal } from './admin/journal.cjs';
import { adminRoutes } from './admin/routes.cjs';
import { applySeed, checkSeed, readSeedFile } from './admin/seed.cjs';
import { registerTrafficHooks } from './admin/traffic.cjs';
import { PERMISSIONS } from './contract/admin.cjs';
import { Clock } from './core/clock.cjs';
import type { ServerConfig } from './core/config.cjs';
import { IDLE_MEMORY_QUIET_MS, returnMemoryWhenIdle } from './core/idle-memory.cjs';
import { Logger, type LogSink } from './core/logger.cjs';
import { Secrets } from './core/secrets.cjs';
import { dashboardRoutes } from './dashboard/index.cjs';
import { registerOpenApi } from './docs/openapi.cjs';
import { docsRoutes } from './docs/routes.cjs';
import { answerErrors, clientErrorAnswer } from './http/answers.cjs';
import { identifyCaller } from './http/auth.cjs';
import {
	acceptJsonBodies,
	BODY_LIMIT_BYTES,
	jsonSerializerCompiler,
	zodValidatorCompiler,
} from './http/parsing.cjs';
import { decorateRequests } from './http/request-state.cjs';
import {
	type ConnectionTester,
	RealConnectionTester,
	SimulatedConnectionTester,
} from './inboxes/connection-test.cjs';
import { type MxResolver, systemMxResolver } from './inboxes/detect.cjs';
import { InboxListPages } from './inboxes/list-pages.cjs';
import { OutboundGuard } from './inboxes/outbound-guard.cjs';
import { InboxRateLimiter } from './inboxes/rate-limit.cjs';
import { inboxRoutes } from './inboxes/routes.cjs';
import { BusinessDirectory } from './leads/directory.cjs';
import { leadRoutes } from './leads/routes.cjs';
import { ScanCache, type SharedScans } from './leads/scan-cache.cjs';
import { latencyProfile } from './leads/search.cjs';
import {
	DivergenceReport,
	readRecordings,
	Recorder,
	registerProxy,
	Replayer,
} from './proxy/index.cjs';
import { scanningOnDemand, startWebsiteScanning } from './scan/index.cjs';
import { openDatabase } from './store/database.cjs';
import { Store } from './store/store.cjs';
import { hostnameOf, isSyntheticHost, registerSyntheticWeb } from './web/index.cjs';

export const DEV_ACCOUNT_CREDITS = 10000;

export interface ServerOptions {
	/** Where JSON log lines go (tests capture them). */
	logSink?: LogSink;
	/** Replaces the connection tester chosen by --connection-test. */
	connectionTester?: ConnectionTester;
	/** DNS MX resolver for --mx-lookup on (tests inject a fake one). */
	mxResolver?: MxResolver;
	/** A seed given as a value (the in-process API), used like a --seed file: at start and reset. */
	seed?: unknown;
	/** Website scans shared with the other servers of the process (the in-process API). */
	sharedScans?: SharedScans;
}

export interface RunningServer {
	app: FastifyInstance;
	store: Store;
	clock: Clock;
	url: string;
	adminToken: string;
	devKey: string;
	devAccountId: string;
	/** In proxy mode: where the real service differed from the specs. */
	divergences: DivergenceReport;
	close(): Promise<void>;
}

/** The URL clients use for an address the server listens on (a wildcard bind is reached on loopback). */
function clientUrl(address: AddressInfo): string {
	const host =
		address.address === '0.0.0.0'
			? '127.0.0.1'
			: address.address === '::'
				? '[::1]'
				: address.family === 'IPv6'
					? `[${address.address}]`
					: address.address;
	return `http://${host}:${address.port}`;
}

/** The connection tests of --connection-test; real ones only through the outbound guard. */
function connectionTester(config: ServerConfig, options: ServerOptions): ConnectionTester {
	if (config.connectionTest !== 'real')
		return options.connectionTester ?? new SimulatedConnectionTester();
	return new OutboundGuard(
		options.connectionTester ?? new RealConnectionTester({ caFile: config.mailCa }),
		config.connectionTestAllow,
	);
}

/** Builds the whole reference server (both services, admin API, docs) over one store. */
export function buildServer(config: ServerConfig, options: ServerOptions = {}) {
	const clock = new Clock();
	// The database first: it creates the folder the secret file is kept beside.
	const db = openDatabase(config.db);
	const secrets = Secrets.load(config.db, config.secretKey);
	const store = new Store(db, clock, secrets);
	const logger = new Logger(options.logSink, config.log);
	const faults = new Faults();
	const journal = new RequestJournal({
		entries: config.journalSize,
		bodyBytes: config.journalBodyBytes,
		totalBytes: config.journalBytes,
	});
	const adminToken = config.adminToken ?? secrets.defaultAdminToken();
	const devKey = config.devKey ?? secrets.defaultDevKey();
	const seedFile =
		options.seed !== undefined
			? checkSeed(options.seed, 'the seed option')
			: config.seed
				? readSeedFile(config.seed)
				: undefined;

	const seedDevAccount = () => {
		const id =
			store.accounts.devAccountId() ??
			store.accounts.create({
				credits: DEV_ACCOUNT_CREDITS,
				active: true,
				permissions: [...PERMISSIONS],
				isDev: true,
			}).accountId;
		store.accounts.ensureKey(id, devKey, [...PERMISSIONS]);
	};
	seedDevAccount();

	// The address is known once listening: the docs' server URL and the synthetic web's fallback.
	let address: AddressInfo | undefined;
	const url = () => (address ? clientUrl(address) : `http://${config.host}:${config.port}`);
	// Without the helper process, the websites are this server's own virtual hosts (on loopback).
	const ownOrigin = () =>
		`http://${address?.family === 'IPv6' ? '[::1]' : '127.0.0.1'}:${address?.port ?? config.port}`;
	const scanning = scanningOnDemand(
		() =>
			startWebsiteScanning({
				fallbackOrigin: ownOrigin(),
				timeoutMs: config.scanTimeout,
				threads: config.scanThreads,
				concurrency: config.scanConcurrency,
				warn: (message, error) => logger.warn(message, { error: error.message }),
			}),
		config.scanIdle,
	);
	const scans = new ScanCache(scanning.scan, clock, config.scanCacheTtl * 1000, {
		shared: options.sharedScans,
	});
	const limiter = new InboxRateLimiter(store.quota, clock);
	const listPages = new InboxListPages(store.inboxes);
	const applySeedFile = async () => {
		if (seedFile) await applySeed(store, seedFile);
	};

	const app = Fastify({
		bodyLimit: BODY_LIMIT_BYTES,
		// A client that sends its request (headers and body) slower than this gets 408 and is
		// disconnected: a body trickled one byte at a time must not hold a connection for ever.
		// Node takes these from the server's constructor and checks them on the interval (30 s by
		// default); Fastify sets its own requestTimeout on the server afterwards, so it must agree.
		requestTimeout: config.requestTimeout,
		http: {
			requestTimeout: config.requestTimeout,
			headersTimeout: Math.min(config.requestTimeout, 60000),
			connectionsCheckingInterval: Math.min(1000, config.requestTimeout / 4),
		},
		logger: false,
		clientErrorHandler: clientErrorAnswer(config.requestTimeout),
		forceCloseConnections: 'idle',
		return503OnClosing: true,
	});
	app.setValidatorCompiler(zodValidatorCompiler);
	app.setSerializerCompiler(jsonSerializerCompiler);
	acceptJsonBodies(app);
	decorateRequests(app);
	returnMemoryWhenIdle(app, IDLE_MEMORY_QUIET_MS);
	answerErrors(app, logger);
	registerOpenApi(app, url);
	if (config.log)
		app.addHook('onResponse', (request, reply, done) => {
			// The synthetic web is not API traffic.
			if (!isSyntheticHost(hostnameOf(request.headers.host)))
				logger.info('request', {
					id: request.id,
					method: request.method,
					path: request.url.split('?')[0],
					host: request.hostname,
					status: reply.statusCode,
					ms: Math.round(reply.elapsedTime),
				});
			done();
		});
	registerSyntheticWeb(app);
	registerTrafficHooks(app, {
		faults,
		journal,
		clock,
		identify: (request) => identifyCaller(store.accounts, request),
	});
	const divergences = new DivergenceReport();
	if (config.proxyLeads || config.proxyInboxes || config.replay)
		registerProxy(app, {
			upstreams: { leads: config.proxyLeads, inboxes: config.proxyInboxes },
			allowed: { charges: config.proxyAllowCharges, changes: config.proxyAllowChanges },
			timeoutMs: config.proxyTimeout,
			clock,
			report: divergences,
			warn: (message, fields) => logger.warn(message, fields),
			recorder: config.record ? new Recorder(config.record) : undefined,
			replayer: config.replay
				? new Replayer(readRecordings(config.replay), config.replayIgnore)
				: undefined,
		});

	void app.register(healthRoutes);
	void app.register(leadRoutes, {
		accounts: store.accounts,
		logger,
		search: {
			store,
			beforeSave: (principal) => faults.check('leads.save', principal),
			scans,
			directory: new BusinessDirectory(),
			latency: latencyProfile(config.latency),
		},
	});
	void app.register(inboxRoutes, {
		accounts: store.accounts,
		listPages,
		creation: {
			store,
			limiter,
			tester: connectionTester(config, options),
			mx: config.mxLookup ? (options.mxResolver ?? systemMxResolver) : undefined,
		},
	});
	void app.register(adminRoutes, {
		adminToken,
		store,
		clock,
		faults,
		journal,
		divergences,
		hourlyWindow: (keyId) => limiter.window(keyId),
		explainScan: (url) => scanning.explain(url),
		seed: (seed) => applySeed(store, seed),
		resetAccount: (accountId) => {
			store.resetAccount(accountId);
			journal.clear(accountId);
			faults.clear(accountId);
			listPages.clear();
		},
		reset: async () => {
			store.clear();
			divergences.clear();
			clock.reset();
			faults.clear();
			journal.clear();
			limiter.reset();
			listPages.clear();
			scans.clear();
			seedDevAccount();
			await applySeedFile();
		},
	});
	void app.register(docsRoutes);
	void app.register(dashboardRoutes);

	const server = {
		app,
		store,
		adminToken,
		devKey,
		async listen(): Promise<RunningServer> {
			await applySeedFile();
			await app.listen({ port: config.port, host: config.host });
			address = app.server.address() as AddressInfo;
			// Written last: whoever waits on the file finds a server that answers.
			if (config.readyFile) writeFileSync(config.readyFile, `${clientUrl(address)}\n`);
			return {
				app,
				store,
				clock,
				url: url(),
				adminToken,
				devKey,
				devAccountId: store.accounts.devAccountId()!,
				divergences,
				close: () => server.close(),
			};
		},
		/** Stops accepting, lets in-flight requests finish, then closes the database cleanly. */
		async close(): Promise<void> {
			if (config.readyFile) rmSync(config.readyFile, { force: true });
			await app.close();
			await scanning.stop();
			store.close();
			// After the last answer: the report holds every exchange the server forwarded.
			if (config.divergenceReport) divergences.write(config.divergenceReport);
		},
	};
	return server;
}
