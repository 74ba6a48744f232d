import Fastify, { type FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { Accounts, PERMISSIONS } from './accounts/accounts.cjs';
import { Faults } from './admin/faults.cjs';
import { RequestJournal } from './admin/journal.cjs';
import { registerAdminRoutes } from './admin/routes.cjs';
import { applySeed, readSeedFile } from './admin/seed.cjs';
import { registerTrafficHooks } from './admin/traffic.cjs';
import { Clock } from './core/clock.cjs';
import type { ServerConfig } from './core/config.cjs';
import type { Context } from './core/context.cjs';
import { ApiError } from './core/errors.cjs';
import { resource, sendError, toApiError } from './core/http.cjs';
import { Logger, type LogSink } from './core/logger.cjs';
import { Secrets } from './core/secrets.cjs';
import {
	type ConnectionTester,
	RealConnectionTester,
	SimulatedConnectionTester,
} from './inboxes/connection-test.cjs';
import { type MxResolver, systemMxResolver } from './inboxes/detect.cjs';
import { InboxRateLimiter } from './inboxes/rate-limit.cjs';
import { registerInboxRoutes } from './inboxes/routes.cjs';
import { InboxStore } from './inboxes/store.cjs';
import { registerDocsRoutes } from './openapi/routes.cjs';
import { registerLeadRoutes } from './leads/routes.cjs';
import { BusinessDirectory } from './leads/directory.cjs';
import { ScanCache } from './leads/scan-cache.cjs';
import { latencyProfile } from './leads/search.cjs';
import { startWebsiteScanning, type WebsiteScanning } from './scan/website-scanning.cjs';
import { openDatabase } from './store/database.cjs';
import { hostnameOf, isSyntheticHost, registerSyntheticWeb } from './web/routes.cjs';

export const DEV_ACCOUNT_CREDITS = 10000;

export interface ServerOptions {
	/** Where JSON log lines go (tests capture them). */
	logSink?: LogSink;
	/** Replaces the connection tester chosen by --connection-test. */
	connectionTester?: ConnectionTester;
	/** DNS MX resolver for --mx-lookup on (tests inject a fake one). */
	mxResolver?: MxResolver;
}

export interface RunningServer {
	app: FastifyInstance;
	ctx: Context;
	url: string;
	adminToken: string;
	devKey: string;
	devAccountId: string;
	close(): Promise<void>;
}

/** Builds the whole reference server (both services, admin API, docs) over one store. */
export function buildServer(config: ServerConfig, options: ServerOptions = {}) {
	const db = openDatabase(config.db);
	const clock = new Clock();
	const secrets = Secrets.load(config.db, config.secretKey);
	const ctx: Context = {
		config,
		db,
		clock,
		secrets,
		logger: new Logger(options.logSink, config.log),
		accounts: new Accounts(db, clock),
		faults: new Faults(),
		journal: new RequestJournal(config.journalSize),
	};
	const adminToken = config.adminToken ?? secrets.defaultAdminToken();
	const devKey = config.devKey ?? secrets.defaultDevKey();

	const seedDevAccount = () => {
		const id =
			ctx.accounts.devAccountId() ??
			ctx.accounts.create({
				credits: DEV_ACCOUNT_CREDITS,
				active: true,
				permissions: [...PERMISSIONS],
				isDev: true,
			}).accountId;
		ctx.accounts.ensureKey(id, devKey, [...PERMISSIONS]);
	};
	seedDevAccount();

	const app = Fastify({
		bodyLimit: 1024 * 1024,
		exposeHeadRoutes: false,
		logger: false,
		forceCloseConnections: 'idle',
		return503OnClosing: true,
	});
	// JSON only: without this, fastify would accept text/plain bodies as strings. An empty JSON
	// body counts as no body (admin calls whose fields are all optional need none).
	app.removeContentTypeParser(['text/plain', 'application/json']);
	app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, text, done) => {
		if (text === '' || (typeof text === 'string' && text.trim() === ''))
			return done(null, undefined);
		try {
			done(null, JSON.parse(text as string));
		} catch {
			done(
				new ApiError(400, 'The request body is not valid JSON; check quotes, commas and brackets.'),
				undefined,
			);
		}
	});
	let url = `http://${config.host}:${config.port}`;

	if (config.log)
		app.addHook('onResponse', async (request, reply) => {
			if (isSyntheticHost(hostnameOf(request.headers.host))) return; // the synthetic web is not API traffic
			ctx.logger.info('request', {
				id: request.id,
				method: request.method,
				path: request.url.split('?')[0],
				host: request.hostname,
				status: reply.statusCode,
				ms: Math.round(reply.elapsedTime),
			});
		});
	registerSyntheticWeb(app);
	registerTrafficHooks(app, { faults: ctx.faults, journal: ctx.journal, clock });
	// For wait-on style CI steps: answers as soon as the server listens, without auth.
	resource(app, '/healthz', { GET: async () => ({ status: 'ok' }) });
	app.setErrorHandler((error, request, reply) => {
		const apiError = toApiError(error);
		if (apiError) return sendError(reply, apiError);
		ctx.logger.error('unhandled error', {
			id: request.id,
			path: request.url.split('?')[0],
			error: (error as Error).message,
		});
		return sendError(
			reply,
			new ApiError(500, 'Internal server error; the request was not completed.'),
		);
	});
	app.setNotFoundHandler((request, reply) =>
		sendError(
			reply,
			new ApiError(
				404,
				`No route for ${request.method} ${request.url.split('?')[0]}; see /docs for the API.`,
				undefined,
				'route_not_found',
			),
		),
	);

	// The business websites are the synthetic ones this process serves. The first scan starts what
	// scans and serves them (an idle server needs neither the threads' memory nor their start-up):
	// the synthetic web on a worker thread, then the scanner threads mapped to it.
	let startScanning: () => Promise<WebsiteScanning> = () =>
		Promise.reject(new Error('the server is not listening yet'));
	let scanning: Promise<WebsiteScanning> | undefined;
	const scans = new ScanCache(async (url) => {
		// A start that failed is not kept: the next scan tries again.
		scanning ??= startScanning().catch((error: Error) => {
			scanning = undefined;
			throw error;
		});
		return (await scanning).scan(url);
	}, clock);
	const directory = new BusinessDirectory();
	registerLeadRoutes(app, ctx, {
		db,
		clock,
		faults: ctx.faults,
		scans,
		directory,
		latency: latencyProfile(config.latency),
	});

	const limiter = new InboxRateLimiter(db, clock);
	const inboxStore = new InboxStore(db, clock, secrets);
	registerInboxRoutes(app, ctx, {
		db,
		store: inboxStore,
		limiter,
		tester:
			options.connectionTester ??
			(config.connectionTest === 'real'
				? new RealConnectionTester({ caFile: config.mailCa })
				: new SimulatedConnectionTester()),
		mx: config.mxLookup ? (options.mxResolver ?? systemMxResolver) : undefined,
	});

	const seedDeps = { db, clock, accounts: ctx.accounts, inboxes: inboxStore };
	const seedFile = config.seed ? readSeedFile(config.seed) : undefined;
	const applySeedFile = async () => {
		if (seedFile) await applySeed(seedDeps, seedFile);
	};
	registerAdminRoutes(app, ctx, adminToken, {
		reset: async () => {
			db.transaction(() => {
				for (const table of ['inbox_quota', 'inboxes', 'pools', 'contacts', 'api_keys', 'accounts'])
					db.exec(`DELETE FROM ${table}`);
			})();
			clock.reset();
			ctx.accounts.invalidate();
			ctx.faults.clear();
			ctx.journal.clear();
			limiter.reset();
			inboxStore.clearCache();
			scans.clear();
			seedDevAccount();
			await applySeedFile();
		},
		seed: (seed) => applySeed(seedDeps, seed),
	});
	registerDocsRoutes(app, () => url);

	const server = {
		app,
		ctx,
		adminToken,
		devKey,
		async listen(): Promise<RunningServer> {
			await applySeedFile();
			await app.listen({ port: config.port, host: config.host });
			const address = app.server.address() as AddressInfo;
			// A wildcard bind (0.0.0.0, ::) is reached through loopback: print and document that.
			const host =
				address.address === '0.0.0.0'
					? '127.0.0.1'
					: address.address === '::'
						? '[::1]'
						: address.family === 'IPv6'
							? `[${address.address}]`
							: address.address;
			url = `http://${host}:${address.port}`;
			// Without the worker thread, the websites are this server's own virtual hosts.
			const local = `http://${address.family === 'IPv6' ? '[::1]' : '127.0.0.1'}:${address.port}`;
			startScanning = () =>
				startWebsiteScanning({
					fallbackOrigin: local,
					timeoutMs: config.scanTimeoutMs,
					threads: config.scanThreads,
					concurrency: config.scanConcurrency,
					warn: (message, error) => ctx.logger.warn(message, { error: error.message }),
				});
			return {
				app,
				ctx,
				url,
				adminToken,
				devKey,
				devAccountId: ctx.accounts.devAccountId()!,
				close: server.close,
			};
		},
		/** Stops accepting, lets in-flight requests finish, then closes the database cleanly. */
		async close(): Promise<void> {
			await app.close();
			await (await scanning?.catch(() => undefined))?.stop();
			if (db.open) db.close();
		},
	};
	return server;
}
