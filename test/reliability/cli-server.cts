/**
 * The reference server as a process of its own, from the sources, on a database file: what the
 * reliability tests kill, starve of disk and restart. Its seeded account's ledger and a lead search
 * through the API.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const CLI = join(__dirname, '../../mock-server/src/cli.cts');
export const API_KEY = 'lik_crash_ledger_key_0001';
export const ADMIN_TOKEN = 'crash-test-admin-token-0001';

export interface CliServer {
	child: ChildProcess;
	url: string;
	exited: Promise<unknown>;
	/** Everything it printed so far. */
	output(): string;
}

/**
 * Starts the server on `db` with `seed`. `prefix` runs it through another command (nsenter into a
 * mount namespace): that command must exec the server, so that a signal reaches it.
 */
export async function startCli(
	db: string,
	seed: string,
	prefix: string[] = [],
): Promise<CliServer> {
	const [command, ...args] = [
		...prefix,
		process.execPath,
		// tsx as a loader, not its CLI: the CLI runs the server in a child that SIGKILL would not reach.
		'--import',
		'tsx',
		CLI,
		'--db',
		db,
		'--seed',
		seed,
		'--port',
		'0',
		'--log',
		'off',
		'--admin-token',
		ADMIN_TOKEN,
		'--scan-threads',
		'1',
	];
	const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
	let output = '';
	const exited = new Promise((resolve) => child.once('exit', resolve));
	const url = await new Promise<string>((resolve, reject) => {
		child.stdout.on('data', (chunk) => {
			output += chunk;
			const match = /listening on (http:\/\/\S+)/.exec(output);
			if (match) resolve(match[1]);
		});
		child.stderr.on('data', (chunk) => (output += chunk));
		child.on('exit', (code) => reject(new Error(`server exited ${code}: ${output}`)));
	});
	return { child, url, exited, output: () => output };
}

/**
 * The seeded (not the dev) account's available credits and saved contacts, and what its credit
 * ledger and search history say of them: the ledger's deltas add up to the stored balance, and the
 * searches' charges to the contacts saved.
 */
export async function ledger(url: string) {
	const admin = async (path: string) =>
		(
			await fetch(`${url}/__admin${path}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } })
		).json();
	const { accounts } = (await admin('/accounts')) as {
		accounts: { id: string; dev: boolean; credits: number; contactCount: number }[];
	};
	const account = accounts.find((a) => !a.dev)!;
	const { entries } = (await admin(`/accounts/${account.id}/ledger`)) as {
		entries: { delta: number }[];
	};
	const { searches } = (await admin(`/searches?accountId=${account.id}`)) as {
		searches: { charged: number }[];
	};
	return {
		credits: account.credits,
		contacts: account.contactCount,
		ledgerSum: entries.reduce((sum, e) => sum + e.delta, 0),
		searchesCharged: searches.reduce((sum, s) => sum + s.charged, 0),
	};
}

/** A lead search with the seeded key: its status, and the credits charged (0 unless 200). */
export const searchLeads = (url: string, niche: string, city: string, count: number) =>
	fetch(`${url}/api/v1/niche-finder-leads`, {
		method: 'POST',
		headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json' },
		body: JSON.stringify({ niche, city, count }),
	}).then(async (res) => ({
		status: res.status,
		charged:
			res.status === 200 ? ((await res.json()) as { chargedCredits: number }).chargedCredits : 0,
		body: res.status === 200 ? undefined : await res.text(),
	}));
