import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { withTempDir } from '../helpers/temp-dir.cjs';
import { API_KEY, ledger, searchLeads, startCli } from './cli-server.cjs';

/**
 * The ledger under `kill -9`: a server killed at a random moment while lead searches are in flight,
 * restarted on the same database file, must hold credits + contacts saved = credits granted, and
 * keep every search it answered (docs/api.md, "Credits and crashes"). CRASH_CYCLES sets how many
 * kills (a longer run for benchmarks).
 */
const CYCLES = Number(process.env.CRASH_CYCLES ?? 3);
const GRANTED = 20000;
const CITIES = ['Chicago', 'Houston', 'Phoenix', 'Dallas', 'Denver', 'Seattle', 'Boston', 'Miami'];
const NICHES = ['plumber', 'dentist', 'roofer', 'electrician'];
const SIZES = [40, 150, 500, 1000];

const search = (url: string, niche: string, city: string, count: number) =>
	searchLeads(url, niche, city, count).then((r) => r.charged);

describe('the credit ledger under kill -9', () => {
	it(`holds credits + contacts = granted across ${CYCLES} crashes mid-search`, async () => {
		await withTempDir('lead-inbox-crash-', async (dir) => {
			const db = join(dir, 'ledger.sqlite');
			const seed = join(dir, 'seed.json');
			writeFileSync(seed, JSON.stringify({ accounts: [{ apiKey: API_KEY, credits: GRANTED }] }));
			let acknowledged = 0;
			const history: string[] = [];
			for (let cycle = 0; cycle < CYCLES; cycle++) {
				const { child, url, exited } = await startCli(db, seed);
				const before = await ledger(url);
				expect(before.credits + before.contacts).toBe(GRANTED);
				expect(before.contacts).toBeGreaterThanOrEqual(acknowledged);
				// The history, written in the same transactions, agrees with the balance and the contacts.
				expect([before.ledgerSum, before.searchesCharged]).toEqual([
					before.credits,
					before.contacts,
				]);
				// Four searches at once, of 40 to 1000 leads (each scans that many websites): the kill comes
				// before, during or after each one's save.
				const searches = NICHES.map((niche, i) =>
					search(url, niche, CITIES[(cycle * NICHES.length + i) % CITIES.length], SIZES[i]).then(
						(charged) => (acknowledged += charged),
						() => undefined, // the connection died with the server
					),
				);
				// Every other cycle the kill waits for the first answer, so saves have surely committed
				// and others are in flight, however fast or busy the machine; the rest kill at random.
				if (cycle % 2 === 1) await Promise.race(searches);
				await sleep(Math.floor(Math.random() * (cycle % 2 === 1 ? 400 : 2000)));
				child.kill('SIGKILL');
				// The operating system frees the database's lock once the process is gone.
				await Promise.all([...searches, exited]);
				history.push(
					`cycle ${cycle}: ${before.credits} credits, ${before.contacts} contacts before`,
				);
			}
			const { child, url, exited } = await startCli(db, seed);
			try {
				const after = await ledger(url);
				history.push(
					`after: ${after.credits} credits, ${after.contacts} contacts; acknowledged ${acknowledged}`,
				);
				process.stdout.write(`crash cycles: ${history.join('; ')}\n`);
				expect(after.credits + after.contacts).toBe(GRANTED);
				expect(after.contacts).toBeGreaterThanOrEqual(acknowledged);
				expect([after.ledgerSum, after.searchesCharged]).toEqual([after.credits, after.contacts]);
				if (CYCLES > 1) expect(acknowledged).toBeGreaterThan(0);
				// And the server still works on that file: a whole search charges what it saves.
				const charged = await search(url, 'florist', 'Austin', 20);
				expect(await ledger(url)).toEqual({
					credits: after.credits - charged,
					contacts: after.contacts + charged,
					ledgerSum: after.credits - charged,
					searchesCharged: after.contacts + charged,
				});
			} finally {
				child.kill('SIGTERM');
				await exited;
			}
		});
	});
});
