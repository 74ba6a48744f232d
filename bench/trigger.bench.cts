import { stopEngineTimers, TriggerPoller } from '../test/helpers/n8n.cjs';
import { startServer } from '../test/helpers/server.cjs';
import { line, PeakMemory } from './support.cjs';

/**
 * The Lead Inbox Trigger over an account with 10,000 inboxes, polled as n8n polls it: requests and
 * time per check, and the size of what it keeps in the workflow's static data.
 */
export async function benchTrigger(): Promise<void> {
	const server = await startServer({ log: true });
	try {
		const { accountId } = await server.newAccount();
		// Ten keys: each may create 1000 inboxes an hour.
		const keys = await Promise.all(
			Array.from(
				{ length: 10 },
				async () => (await server.admin('POST', `/accounts/${accountId}/keys`, {})).body.apiKey,
			),
		);
		for (const [k, key] of keys.entries()) await server.fillInboxes(key, 1000, `k${k}-`);
		const trigger = new TriggerPoller(
			{ event: 'inboxStatusChanged', statuses: ['error', 'paused'] },
			{ apiKey: keys[0], leadsBaseUrl: server.url, inboxBaseUrl: `${server.url}/api/v1` },
		);
		const requests = () => server.requestCount('GET', '/api/v1/inboxes');
		const memory = new PeakMemory();
		const check = async () => {
			const before = requests();
			const started = process.hrtime.bigint();
			const items = await trigger.poll();
			return {
				items: items?.length ?? 0,
				requests: requests() - before,
				ms: Number(process.hrtime.bigint() - started) / 1e6,
			};
		};
		console.log('\nLead Inbox Trigger, 10,000 inboxes');
		const first = await check();
		line('first check (records)', `${first.requests} requests, ${first.ms.toFixed(0)} ms`);
		const state = JSON.stringify(trigger.record);
		trigger.staticData.__dataChanged = false as boolean;
		line(
			'static data kept',
			`${(state.length / 1024).toFixed(0)} KiB (${(state.length / 10000).toFixed(1)} bytes an inbox)`,
		);
		const quiet = await check();
		line(
			'check, nothing changed',
			`${quiet.requests} requests, ${quiet.ms.toFixed(0)} ms, ${quiet.items} items, static data written: ${String(trigger.staticData.__dataChanged)}`,
		);
		await server.admin('PATCH', `/accounts/${accountId}/inboxes/k7-123@gmail.com`, {
			status: 'error',
		});
		const changed = await check();
		line(
			'check, one inbox to error',
			`${changed.requests} requests (+1 GET /pools), ${changed.ms.toFixed(0)} ms, ${changed.items} item`,
		);
		line('peak RSS', memory.stop());
	} finally {
		await server.close();
		stopEngineTimers();
	}
}

if (require.main === module) void benchTrigger().then(() => process.exit(0));
