import { loadWorkflow, outputOf, runWorkflow, stopEngineTimers } from '../test/helpers/n8n.cjs';
import { startServer } from '../test/helpers/server.cjs';
import { line, PeakMemory } from './support.cjs';

/** The Create Inboxes node with 1,000 input items through n8n's engine (simulated tests). */
export async function benchCreateInboxesNode(): Promise<void> {
	const server = await startServer();
	try {
		const { apiKey } = await server.newAccount();
		const items = Array.from({ length: 1000 }, (_, i) => ({
			email: `node-bench-${i}@gmail.com`,
			appPassword: 'app-password',
		}));
		const requests = () => server.requestCount('POST', '/api/v1/inboxes');
		const before = requests();
		const memory = new PeakMemory();
		const started = Date.now();
		const run = await runWorkflow(loadWorkflow('create-inboxes.json'), {
			credentials: { apiKey, leadsBaseUrl: server.url, inboxBaseUrl: `${server.url}/api/v1` },
			pinData: { "When clicking 'Execute workflow'": items },
		});
		console.log('\nCreate Inboxes node, 1,000 items');
		line('status', run.status);
		line('inboxes created', outputOf(run, 'Create Inboxes').length);
		line('requests made', requests() - before);
		line('wall time', `${Date.now() - started} ms`);
		line('peak RSS', memory.stop());
	} finally {
		await server.close();
		stopEngineTimers();
	}
}

if (require.main === module) void benchCreateInboxesNode().then(() => process.exit(0));
