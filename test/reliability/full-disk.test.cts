import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withTempDir } from '../helpers/temp-dir.cjs';
import { API_KEY, ledger, searchLeads, startCli } from './cli-server.cjs';

/**
 * The ledger on a full disk: the database lives on a 1 MiB tmpfs in a mount namespace of its own
 * (the machine's disks untouched). Searches run until the disk is full; every search the server
 * could not save must charge nothing and keep nothing, so credits + contacts = granted holds
 * throughout. Once the disk has room again, searches succeed on the same process, and a kill -9
 * and restart find the same ledger (docs/api.md, "Credits and crashes").
 */
const GRANTED = 100_000;
/** Mounting needs root: the tests run as root here, a CI runner's user has passwordless sudo. */
const AS_ROOT = process.getuid?.() === 0 ? [] : ['sudo', '-n'];
const CITIES = ['Chicago', 'Houston', 'Phoenix', 'Dallas', 'Denver', 'Seattle', 'Boston', 'Miami'];
const NICHES = ['plumber', 'dentist', 'roofer', 'electrician', 'florist', 'bakery'];

/** A process holding a mount namespace where `dir` is a tmpfs of `size`; the namespace ends with it. */
async function tmpfsNamespace(dir: string, size: string) {
	const holder: ChildProcess = spawn(
		AS_ROOT[0] ?? 'unshare',
		[
			...AS_ROOT.slice(1),
			...(AS_ROOT.length ? ['unshare'] : []),
			'--mount',
			'--propagation',
			'private',
			'sh',
			'-c',
			`mount -t tmpfs -o size=${size},mode=0755 tmpfs "$0" && echo mounted && exec sleep infinity`,
			dir,
		],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	await new Promise<void>((resolve, reject) => {
		let said = '';
		holder.stdout!.on('data', (chunk) => {
			said += chunk;
			if (said.includes('mounted')) resolve();
		});
		holder.stderr!.on('data', (chunk) => (said += chunk));
		holder.once('exit', (code) => reject(new Error(`no tmpfs namespace (exit ${code}): ${said}`)));
	});
	const enter = [
		...AS_ROOT,
		'nsenter',
		'--target',
		String(holder.pid),
		'--mount',
		// In this folder, as the test runner (nsenter would start from the namespace's /).
		`--wd=${process.cwd()}`,
		'--',
	];
	return {
		/** The command prefix that runs a program inside the namespace (nsenter execs it). */
		enter,
		resize: (newSize: string) =>
			execFileSync(enter[0], [...enter.slice(1), 'mount', '-o', `remount,size=${newSize}`, dir]),
		used: () =>
			execFileSync(enter[0], [...enter.slice(1), 'df', '--output=used,size', '-k', dir], {
				encoding: 'utf8',
			})
				.trim()
				.split('\n')[1]
				.trim(),
		end: () => holder.kill('SIGKILL'),
	};
}

/** The ledger of an account with these credits and contacts, its history agreeing with both. */
const balanced = (credits: number, contacts: number) => ({
	credits,
	contacts,
	ledgerSum: credits,
	searchesCharged: contacts,
});

describe('the credit ledger on a full disk', () => {
	it('charges nothing for what it cannot save, and carries on once there is room', async () => {
		await withTempDir('lead-inbox-full-disk-', async (dir) => {
			const mountpoint = join(dir, 'data');
			mkdirSync(mountpoint);
			const seed = join(dir, 'seed.json');
			writeFileSync(seed, JSON.stringify({ accounts: [{ apiKey: API_KEY, credits: GRANTED }] }));
			const db = join(mountpoint, 'ledger.sqlite');
			const namespace = await tmpfsNamespace(mountpoint, '1m');
			try {
				let server = await startCli(db, seed, namespace.enter);
				let acknowledged = 0;
				let refused: { status: number; body?: string } | undefined;
				// Searches one after another until the disk is full (each one's contacts take room).
				for (let i = 0; i < 200 && !refused; i++) {
					const result = await searchLeads(
						server.url,
						NICHES[i % NICHES.length],
						CITIES[Math.floor(i / NICHES.length) % CITIES.length],
						100,
					);
					if (result.status === 200) acknowledged += result.charged;
					else refused = result;
					const now = await ledger(server.url);
					expect(now.credits + now.contacts).toBe(GRANTED);
				}
				process.stdout.write(
					`full disk after ${acknowledged} contacts (tmpfs used/size KiB: ${namespace.used()}): ${refused?.status} ${refused?.body}\n`,
				);
				expect(refused?.status).toBeGreaterThanOrEqual(500);
				const full = await ledger(server.url);
				expect(full).toEqual(balanced(GRANTED - acknowledged, acknowledged));

				// Room again: the same process saves and charges as before.
				namespace.resize('64m');
				const after = await searchLeads(server.url, 'locksmith', 'Austin', 20);
				expect(after.status).toBe(200);
				acknowledged += after.charged;
				expect(await ledger(server.url)).toEqual(balanced(GRANTED - acknowledged, acknowledged));

				// And the file holds it all: killed and started again, the same ledger.
				server.child.kill('SIGKILL');
				await server.exited;
				server = await startCli(db, seed, namespace.enter);
				try {
					expect(await ledger(server.url)).toEqual(balanced(GRANTED - acknowledged, acknowledged));
				} finally {
					server.child.kill('SIGTERM');
					await server.exited;
				}
			} finally {
				namespace.end();
			}
		});
	});
});
