import { cpus } from 'node:os';
import { benchBurstMemory } from './burst-memory.bench.cjs';
import { benchCreateInboxesNode } from './create-inboxes-node.bench.cjs';
import { benchDashboard } from './dashboard.bench.cjs';
import { benchInboxes } from './inboxes.bench.cjs';
import { benchLeads } from './leads.bench.cjs';
import { benchMemory } from './memory.bench.cjs';
import { benchNewLeads } from './new-leads.bench.cjs';
import { benchScan } from './scan.bench.cjs';
import { benchSearchSpeed } from './search-speed.bench.cjs';
import { benchStartup } from './startup.bench.cjs';
import { benchTrigger } from './trigger.bench.cjs';

/** npm run bench: every benchmark, one after the other (each can also run on its own with tsx). */
async function main(): Promise<void> {
	console.log(`node ${process.version}, ${cpus().length} cores`);
	await benchStartup();
	await benchScan();
	await benchLeads();
	await benchSearchSpeed();
	await benchInboxes();
	await benchCreateInboxesNode();
	await benchTrigger();
	await benchNewLeads();
	await benchMemory();
	await benchBurstMemory();
	await benchDashboard();
	process.exit(0);
}

void main();
