/**
 * The options of startMockServer: the command line's options (mock-server/README.md), named
 * after their flags in camelCase (--scan-threads is scanThreads) and typed. config.cts reads them.
 */
import type { Seed } from './admin-client.cjs';

export interface MockServerOptions {
	/** A file the server's URL is written to once it listens (removed when it stops). */
	readyFile?: string;
	/** TCP port; default 0: a free port, chosen by the system. */
	port?: number;
	/** Interface to bind; default 127.0.0.1. */
	host?: string;
	/** SQLite database file; default ':memory:' (nothing written to disk). */
	db?: string;
	/** At least 16 characters; default: generated and kept beside a file database. */
	adminToken?: string;
	/** The dev account's API key (returned as apiKey); default: generated. */
	devKey?: string;
	/** Key that encrypts inbox passwords at rest; default: generated. */
	secretKey?: string;
	/** 'simulated' (default) or 'real' IMAP/SMTP connection tests. */
	connectionTest?: 'simulated' | 'real';
	/** PEM CA file trusted by real connection tests. */
	mailCa?: string;
	/** 'none' (default) or 'realistic': lead searches take as long as the real service. */
	latency?: 'none' | 'realistic';
	/** Per-website scan time-out, milliseconds (default 1000). */
	scanTimeout?: number;
	/** Scanner processes: 'auto' (default), or 0 to 16 (0 scans in the server's own process). */
	scanThreads?: number | 'auto';
	/** Websites scanned at once (default 1024). */
	scanConcurrency?: number;
	/** Milliseconds without a scan after which the scanning processes end (default 60000). */
	scanIdle?: number;
	/** Seconds of the server's clock a website's scan is kept (default 21600: 6 hours). */
	scanCacheTtl?: number;
	/** Detect custom domains by their MX records (default false). */
	mxLookup?: boolean;
	/** API requests kept in the journal (default 10000; 0 turns it off). */
	journalSize?: number;
	/** Bytes of one request body the journal keeps (default 65536). */
	journalBodyBytes?: number;
	/** Bytes of request bodies the journal keeps in all (default 16 MiB). */
	journalBytes?: number;
	/** Milliseconds a client may take to send a whole request (default 30000). */
	requestTimeout?: number;
	/** 'HOST:PORT' targets real connection tests may reach although local or private. */
	connectionTestAllow?: string[];
	/** JSON request log lines on stdout; default false in-process (the command line logs). */
	log?: boolean;
	/** A seed file's path, or the seed itself: applied at start and on reset. */
	seed?: string | Seed;
	/** The real lead search base URL: lead searches are forwarded there (proxy mode). */
	proxyLeads?: string;
	/** The real inbox base URL, with /api/v1: pool and inbox requests are forwarded there. */
	proxyInboxes?: string;
	/** Forward lead searches, which spend real credits (default false: refused). */
	proxyAllowCharges?: boolean;
	/** Forward inbox creation, which creates real inboxes (default false: refused). */
	proxyAllowChanges?: boolean;
	/** Milliseconds to wait for a forwarded request's answer before a 502 (default 600000). */
	proxyTimeout?: number;
	/** Folder every forwarded exchange is written to, one JSON file each. */
	record?: string;
	/** Folder of recordings to answer from; nothing is forwarded. */
	replay?: string;
	/** Request fields replay does not compare: body fields (a.b) or query parameters (query.x). */
	replayIgnore?: string[];
	/** File the divergences are written to (JSON, and Markdown beside it) when the server closes. */
	divergenceReport?: string;
	/** breaks-spec or open-point: the command line's exit status at stop (in-process: see divergences.fails). */
	failOn?: 'breaks-spec' | 'open-point';
}

/** Website scans shared by the servers of one process (startMockServer's second argument), by URL. */
export type SharedScans = Map<
	string,
	{ fbPixel: boolean | null; tikTokPixel: boolean | null; gAnalytics: boolean | null }
>;
