import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { line, startServerProcess } from './support.cjs';

/**
 * GET /api/v1/inboxes?limit=100 throughput with 10 and 50 connections, side by side with a bare
 * node:http server answering the same pre-serialised JSON, plus the time of a 100-entry batch.
 */
const BARE = `
const http = require('node:http');
const body = process.argv[1];
const server = http.createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) }); res.end(body); });
server.listen(0, '127.0.0.1', () => console.log('port ' + server.address().port));
`;

async function load(url: string, connections: number, key: string): Promise<number> {
	const result = await autocannon({
		url,
		connections,
		duration: 8,
		headers: { authorization: `Bearer ${key}` },
	});
	if (result.non2xx > 0 || result.errors > 0)
		throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`);
	return result.requests.average;
}

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
		const bare = spawn(process.execPath, ['-e', BARE, sample], {
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		const port = await new Promise<string>((resolve) =>
			bare.stdout!.on('data', (chunk) => resolve(/port (\d+)/.exec(String(chunk))![1])),
		);
		try {
			console.log(`\nGET /api/v1/inboxes?limit=100 (${sample.length} bytes), 8 s per run`);
			for (const connections of [10, 50]) {
				const ours = await load(url, connections, server.devKey);
				const baseline = await load(`http://127.0.0.1:${port}/`, connections, server.devKey);
				line(`${connections} connections: reference server req/s`, ours.toFixed(0));
				line(`${connections} connections: bare node:http req/s`, baseline.toFixed(0));
				line(
					`${connections} connections: ratio`,
					`${((ours / baseline) * 100).toFixed(0)} % (target >= 50 %)`,
				);
			}
		} finally {
			bare.kill();
		}
	} finally {
		server.stop();
	}
}

if (require.main === module) void benchInboxes().then(() => process.exit(0));
