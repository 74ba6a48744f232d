import { setTimeout as sleep } from 'node:timers/promises';
import { startServerProcess } from './support.cjs';

/**
 * Memory that must come back after load (issue 22): the bundle's RSS before, right after and once
 * idle after count-1000 lead searches (the scanning threads end after --scan-idle), and with the
 * request journal fed 1 MiB requests, authenticated and not, then listed.
 */
export async function benchMemory(): Promise<void> {
	const server = await startServerProcess(['--scan-idle', '5000']);
	const rss = () => `${server.memory().rssMB} MiB`;
	const call = (path: string, init: RequestInit & { key?: string } = {}) =>
		fetch(server.url + path, {
			...init,
			headers: {
				authorization: `Bearer ${init.key ?? server.devKey}`,
				'content-type': 'application/json',
			},
		});
	try {
		await sleep(2000);
		console.log(`memory: start ${rss()}`);
		for (const city of ['Chicago', 'Houston', 'Phoenix']) {
			await call('/api/v1/niche-finder-leads', {
				method: 'POST',
				body: JSON.stringify({ niche: 'plumber', city, count: 1000 }),
			});
			const after = rss();
			await sleep(10000);
			console.log(`memory: count-1000 search in ${city}: ${after} after, ${rss()} 10 s later`);
		}
		const body = JSON.stringify([
			{ emailAddress: 'big@gmail.com', note: 'x'.repeat(1024 * 1024 - 100) },
		]);
		for (const [label, key] of [
			['authenticated', server.devKey],
			['unauthenticated', 'lik_not_a_key'],
		]) {
			for (let i = 0; i < 300; i++) await call('/api/v1/inboxes', { method: 'POST', body, key });
			console.log(`memory: after 300 ${label} 1 MiB requests: ${rss()}`);
		}
		const started = performance.now();
		const listed = await (
			await fetch(`${server.url}/__admin/requests`, {
				headers: { authorization: `Bearer ${server.adminToken}` },
			})
		).text();
		console.log(
			`memory: journal listed (${Math.round(listed.length / 1024)} KiB in ${Math.round(performance.now() - started)} ms): ${rss()}`,
		);
	} finally {
		await server.stop();
	}
}

if (require.main === module) void benchMemory().then(() => process.exit(0));
