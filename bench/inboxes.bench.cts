import { line, startBareServer, startServerProcess, wrk, wrkLine } from './support.cjs';

/**
 * GET /api/v1/inboxes?limit=100 throughput with 10 and 50 connections, side by side with a bare
 * node:http server answering the same bytes (wrk for both), plus the time of a 100-entry batch.
 */

export async function benchInboxes(): Promise<void> {
	const server = await startServerProcess();
	const headers = { authorization: `Bearer ${server.devKey}`, 'content-type': 'application/json' };
	try {
		console.log('\ninbox creation, 100-entry batch, simulated connection tests');
		for (let b = 0; b < 3; b++) {
			const body = Array.from({ length: 100 }, (_, i) => ({
				emailAddress: `bench${b}-${i}@gmail.com`,
				imapPassword: 'app-password',
			}));
			const started = process.hrtime.bigint();
			const res = await fetch(`${server.url}/api/v1/inboxes`, {
				method: 'POST',
				headers,
				body: JSON.stringify(body),
			});
			const json = (await res.json()) as { summary: { created: number } };
			line(
				`batch ${b + 1}: time`,
				`${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)} ms (${json.summary.created} created)`,
			);
		}

		const url = `${server.url}/api/v1/inboxes?limit=100`;
		const sample = await (await fetch(url, { headers })).text();
		const bare = await startBareServer(sample);
		try {
			console.log(`\nGET /api/v1/inboxes?limit=100 (${sample.length} bytes), wrk, 10 s per run`);
			for (const connections of [10, 50]) {
				const options = {
					connections,
					seconds: 10,
					headers: { authorization: `Bearer ${server.devKey}` },
				};
				const ours = await wrk(url, options);
				const baseline = await wrk(bare.url, options);
				line(`${connections} connections: reference server`, wrkLine(ours));
				line(`${connections} connections: bare node:http`, wrkLine(baseline));
				line(
					`${connections} connections: ratio`,
					`${((ours.requestsPerSec / baseline.requestsPerSec) * 100).toFixed(0)} % (target >= 40 %)`,
				);
			}
			const memory = server.memory();
			line('server RSS now / peak', `${memory.rssMB} MB / ${memory.peakMB} MB`);
		} finally {
			bare.stop();
		}
	} finally {
		await server.stop();
	}
}

if (require.main === module) void benchInboxes().then(() => process.exit(0));
