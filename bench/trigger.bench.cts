import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stopEngineTimers, TriggerPoller } from '../test/helpers/n8n.cjs';
import { line, startServerProcess } from './support.cjs';

/**
 * The Lead Inbox Trigger over accounts of 10,000 and 50,000 inboxes, polled as n8n polls it
 * (n8n-core's PollContext): requests and time per check against the reference server (in its own
 * process, so this process's memory is the node's and n8n-core's), this process's memory during a
 * check, and the size of what the trigger keeps in the workflow's static data.
 */

const API_KEY = 'lik_bench_trigger_key_0001';

/** A seed of `count` inboxes in 10 pools, a tenth of them paused. */
function seedFile(count: number): string {
	const perPool = count / 10;
	const file = join(tmpdir(), `trigger-bench-seed-${count}-${process.pid}.json`);
	const pools = Array.from({ length: 10 }, (_, p) => ({
		name: `Pool ${p}`,
		inboxes: Array.from({ length: perPool }, (_, i) => ({
			emailAddress: `p${p}-box${i}@gmail.com`,
			...(i % 10 === 0 ? { status: 'paused' } : {}),
		})),
	}));
	writeFileSync(file, JSON.stringify({ accounts: [{ apiKey: API_KEY, pools }] }));
	return file;
}

/** The largest resident set and heap seen while `work` runs, sampled every 10 ms. */
async function sampled<T>(work: () => Promise<T>) {
	const peak = { rss: 0, heap: 0 };
	const sample = () => {
		const { rss, heapUsed } = process.memoryUsage();
		peak.rss = Math.max(peak.rss, rss);
		peak.heap = Math.max(peak.heap, heapUsed);
	};
	const timer = setInterval(sample, 10);
	const started = process.hrtime.bigint();
	try {
		const result = await work();
		sample();
		return { result, ms: Number(process.hrtime.bigint() - started) / 1e6, peak };
	} finally {
		clearInterval(timer);
	}
}

const MB = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

async function benchSize(count: number): Promise<void> {
	const seed = seedFile(count);
	const server = await startServerProcess(['--seed', seed, '--journal-size', '1000']);
	try {
		const admin = async (method: string, path: string, body?: unknown) =>
			await fetch(`${server.url}/__admin${path}`, {
				method,
				headers: {
					authorization: `Bearer ${server.adminToken}`,
					'content-type': 'application/json',
				},
				body: body === undefined ? undefined : JSON.stringify(body),
			});
		const accounts = (await (await admin('GET', '/accounts')).json()) as {
			accounts: Array<{ id: string; dev?: boolean }>;
		};
		const trigger = new TriggerPoller(
			{ event: 'inboxStatusChanged', statuses: ['error', 'paused'] },
			{ apiKey: API_KEY, leadsBaseUrl: server.url, inboxBaseUrl: `${server.url}/api/v1` },
			{ workflowId: `bench-${count}` },
		);
		const requests = async () => {
			const journal = await admin('GET', '/requests?method=GET&path=/api/v1/inboxes');
			return ((await journal.json()) as { requests: unknown[] }).requests.length;
		};
		/** A check, with its time, memory and the listing requests it made. */
		const check = async () => {
			const before = await requests();
			const run = await sampled(() => trigger.poll());
			return { ...run, requests: (await requests()) - before };
		};
		console.log(`\nLead Inbox Trigger, ${count.toLocaleString('en-US')} inboxes`);
		global.gc?.();
		const before = process.memoryUsage();
		line(
			'this process before the first check',
			`RSS ${MB(before.rss)}, heap ${MB(before.heapUsed)}`,
		);
		const first = await check();
		line(
			'first check (records)',
			`${first.requests} requests, ${(first.ms / 1000).toFixed(2)} s, peak RSS ${MB(first.peak.rss)}, peak heap ${MB(first.peak.heap)}`,
		);
		const state = JSON.stringify(trigger.record);
		line(
			'static data kept',
			`${(state.length / 1024).toFixed(0)} KiB (${(state.length / count).toFixed(1)} bytes an inbox)`,
		);
		trigger.staticData.__dataChanged = false as boolean;
		const quiet = await check();
		line(
			'check, nothing changed',
			`${quiet.requests} requests, ${(quiet.ms / 1000).toFixed(2)} s, ${quiet.result?.length ?? 0} items, static data written: ${String(trigger.staticData.__dataChanged)}, peak RSS ${MB(quiet.peak.rss)}`,
		);
		const accountId = accounts.accounts.find((a) => !a.dev)!.id;
		const patched = await admin('PATCH', `/accounts/${accountId}/inboxes/p7-box123@gmail.com`, {
			status: 'error',
		});
		if (patched.status !== 200) throw new Error(`PATCH answered ${patched.status}`);
		const changed = await check();
		line(
			'check, one inbox to error',
			`${changed.requests} requests (+1 GET /pools), ${(changed.ms / 1000).toFixed(2)} s, ${changed.result?.length ?? 0} item, peak RSS ${MB(changed.peak.rss)}`,
		);
	} finally {
		await server.stop();
		rmSync(seed, { force: true });
	}
}

export async function benchTrigger(): Promise<void> {
	try {
		await benchSize(10_000);
		await benchSize(50_000);
	} finally {
		stopEngineTimers();
	}
}

if (require.main === module) void benchTrigger().then(() => process.exit(0));
