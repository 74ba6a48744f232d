import {
	executionList,
	executionsOf,
	finished,
	loadExample,
	startInEditor,
	waitFor,
} from '../e2e/support.cjs';
import { COMPOSE_VERSIONS, ComposeStack, onComposeCredential, versionSettings } from './stack.cjs';

/*
 * compose.queue.yaml as a user runs it: PostgreSQL, Redis, the reference server, n8n's main
 * instance and two workers, all n8n containers from the image with the nodes built in. The lead
 * pull example is run 20 times through the main instance; the workers run the executions.
 */

const RUNS = 20;

describe.each(COMPOSE_VERSIONS)(
	'compose.queue.yaml on n8n %s: n8n in queue mode with the Lead Inbox nodes',
	(version) => {
		let stack: ComposeStack;
		const workers = () => [stack.container('n8n-worker', 1), stack.container('n8n-worker', 2)];

		beforeAll(async () => {
			stack = await ComposeStack.create('compose.queue.yaml', versionSettings(version));
			await stack.up('--build');
			for (const service of ['postgres', 'redis', 'mock-server', 'n8n'])
				await stack.healthy(stack.container(service));
			for (const worker of workers()) await stack.healthy(worker);
		}, 30 * 60_000);
		afterAll(async () => {
			await stack?.remove();
		});

		it(`runs the lead pull ${RUNS} times through the main instance: both workers take executions, each credit charged is a contact added`, async () => {
			const rest = await stack.n8nSession();
			// Enough credits that runs side by side, each asking deeper than the others, never run out.
			const accountId = (await stack.devAccount()).id;
			const before = await stack.admin.accounts.update(accountId, { credits: 100_000 });

			const workflow = onComposeCredential(loadExample('scheduled-lead-pull-to-crm.json'));
			const created = (await rest('POST', '/workflows', workflow)).body.data;
			/** "Execute workflow" in the editor: the main instance puts the run on the queue. */
			const runOnce = () => startInEditor(rest, created.id, 'Try it now');
			const allFinished = async (count: number) =>
				await waitFor(
					`${count} executions to finish`,
					async () => {
						const list = await executionList(rest, created.id);
						return list.length >= count && list.every(finished) ? list : undefined;
					},
					5 * 60_000,
				);
			// The first run creates the Leads table; the other runs then go side by side.
			const ids = [await runOnce()];
			await allFinished(1);
			ids.push(...(await Promise.all(Array.from({ length: RUNS - 1 }, runOnce))));
			await allFinished(RUNS);

			const executions = await executionsOf(rest, version, created.id);
			expect(executions.map((e) => [e.id, e.status, e.error])).toEqual(
				expect.arrayContaining(ids.map((id) => [id, 'success', undefined])),
			);
			expect(executions).toHaveLength(RUNS);

			// Which worker ran which execution, from their logs ("Worker started execution 12 (job 7)").
			const perWorker = await Promise.all(
				workers().map(async (worker) =>
					[...(await stack.logs(worker)).matchAll(/Worker started execution (\d+)/g)].map(
						(m) => m[1],
					),
				),
			);
			expect(new Set(perWorker.flat())).toEqual(new Set(ids));
			for (const taken of perWorker) expect(taken.length).toBeGreaterThan(0);

			const after = await stack.admin.accounts.get(accountId);
			const charged = before.credits - after.credits;
			expect(after.contactCount - before.contactCount).toBe(charged);
			const hinted = executions.reduce(
				(sum, e) => sum + Number(/^Charged (\d+) credits/.exec(e.hints('Fetch Leads')[0])?.[1]),
				0,
			);
			expect(hinted).toBe(charged);
			console.log(
				`queue mode under compose: ${RUNS} lead pulls, executions per worker ${perWorker.map((t) => t.length).join(' / ')}, ` +
					`${charged} credits charged for ${charged} contacts added`,
			);
		});
	},
);
