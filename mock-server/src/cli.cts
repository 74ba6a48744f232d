#!/usr/bin/env node
import './core/require-node.cjs';
import './core/server-heap.cjs';
import { join } from 'node:path';
import { buildServer } from './app.cjs';
import { ConfigError, parseConfig, type ServerConfig, usage } from './core/config.cjs';
import { RUNS_FROM_BUNDLE } from './core/helpers.cjs';
import { probeCommand } from './proxy/index.cjs';

/** Whether only this machine can reach an interface (`localhost`, 127.0.0.0/8, ::1). */
function isLoopback(host: string): boolean {
	const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
	return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

async function main(): Promise<void> {
	// A closed stdout (piped into `head`, or a parent that went away) must not crash the server.
	process.stdout.on('error', () => undefined);
	if (process.argv[2] === 'probe') return probeCommand(process.argv.slice(3), process.env);
	if (process.argv[2] === 'test') {
		// The workflow test runner is a bundle of its own (build.cjs): a server never parses it.
		const entry = RUNS_FROM_BUNDLE
			? join(__dirname, 'lead-inbox-mock-server-test')
			: join(__dirname, 'workflow-tests', 'command.cts');
		// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on this command only
		const { leadInboxTestCommand } = require(entry) as typeof import('./workflow-tests/command.cjs');
		process.exitCode = await leadInboxTestCommand(process.argv.slice(3));
		return;
	}
	let config;
	try {
		config = parseConfig(process.argv.slice(2), process.env);
	} catch (error) {
		if (error instanceof ConfigError) {
			process.stderr.write(`Error: ${error.message}\n\n${usage()}\n`);
			process.exit(2);
		}
		throw error;
	}
	if (config === 'help') {
		process.stdout.write(usage() + '\n');
		return;
	}
	let server;
	try {
		server = buildServer(config);
	} catch (error) {
		// A database another server holds, an unreadable or invalid seed file: say which, and stop.
		process.stderr.write(`Error: ${(error as Error).message}\n`);
		process.exit(1);
	}
	let running;
	try {
		running = await server.listen();
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		const message =
			code === 'EADDRINUSE'
				? `Port ${config.port} on ${config.host} is already in use. Stop the other process or pass --port (or MOCK_PORT).`
				: code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND'
					? `Cannot listen on ${config.host}: no such local address. Pass --host (or MOCK_HOST).`
					: `Cannot start: ${(error as Error).message}`;
		process.stderr.write(`Error: ${message}\n`);
		await server.close().catch(() => undefined);
		process.exit(1);
	}
	// Before the banner: a process manager may stop the server as soon as it says it is ready.
	let stopping = false;
	const stop = async (signal: string) => {
		if (stopping) return;
		stopping = true;
		process.stdout.write(
			`${signal} received: finishing in-flight requests and closing the database...\n`,
		);
		try {
			await running.close();
		} catch (error) {
			process.stderr.write(`Error while stopping: ${(error as Error).message}\n`);
			process.exit(1);
		}
		if (config.proxyLeads || config.proxyInboxes) {
			process.stdout.write(`${running.divergences.summary()}\n`);
			if (config.divergenceReport)
				process.stdout.write(`Divergence report written to ${config.divergenceReport} (and .md)\n`);
			if (running.divergences.fails(config.failOn)) {
				process.stdout.write(
					`Exit status 3: a divergence of class ${config.failOn} or worse was seen (--fail-on).\n`,
				);
				process.exit(3);
			}
		}
		process.exit(0);
	};
	process.on('SIGINT', () => void stop('SIGINT'));
	process.on('SIGTERM', () => void stop('SIGTERM'));
	if (!isLoopback(config.host)) process.stderr.write(`Warning: ${exposureWarning(config.host)}\n`);
	process.stdout.write(
		[
			'',
			`Lead Inbox reference server listening on ${running.url}`,
			`  lead search base URL:  ${running.url}`,
			`  inbox base URL:        ${running.url}/api/v1`,
			`  API docs:              ${running.url}/docs   (OpenAPI: ${running.url}/openapi.json)`,
			`  dev account API key:   ${running.devKey}`,
			`  dev account id:        ${running.devAccountId}   (admin API: GET /__admin/accounts lists all)`,
			`  admin token:           ${running.adminToken}`,
			`  dashboard:             ${running.url}/dashboard/   (sign in with the admin token)`,
			`  database:              ${config.db}`,
			`  connection tests:      ${config.connectionTest}    latency: ${config.latency}`,
			...modeLines(config),
			'',
			`Try: curl -s -X POST ${running.url}/api/v1/niche-finder-leads -H 'Authorization: Bearer ${running.devKey}' -H 'Content-Type: application/json' -d '{"niche":"dentist","city":"Austin, TX","count":5}'`,
			'',
		].join('\n') + '\n',
	);
}

/** The banner's lines for proxy, record and replay, when they are on. */
function modeLines(config: ServerConfig): string[] {
	const lines: string[] = [];
	const allowed = (on: boolean, what: string) => (on ? `${what} forwarded` : `${what} refused`);
	if (config.proxyLeads)
		lines.push(
			`  proxy, lead search:    ${config.proxyLeads}   (${allowed(config.proxyAllowCharges, 'searches, which spend credits,')}; --proxy-allow-charges)`,
		);
	if (config.proxyInboxes)
		lines.push(
			`  proxy, inboxes:        ${config.proxyInboxes}   (reads forwarded; ${allowed(config.proxyAllowChanges, 'creation')}; --proxy-allow-changes)`,
		);
	if (config.record) lines.push(`  recording into:        ${config.record}`);
	if (config.replay)
		lines.push(`  replaying from:        ${config.replay}   (nothing forwarded, nothing charged)`);
	if (lines.length)
		lines.push('  divergences:           GET /__admin/divergences (and a summary when stopped)');
	return lines;
}

/**
 * What a bind beyond loopback exposes. In a container 0.0.0.0 is needed for the published port
 * to reach the server at all (the image sets it), so the advice covers where to publish it.
 */
function exposureWarning(host: string): string {
	return `listening on ${host}, not only on this machine's loopback: anyone who can reach this address (in a container: its published port) can call the API with a key and, with the admin token, reset the data, add credits and read the request journal. Keep it on a trusted network: pass --host 127.0.0.1 (MOCK_HOST), or in a container, where ${host} is needed, publish the port on the host's loopback only (-p 127.0.0.1:4010:4010).`;
}

void main();
