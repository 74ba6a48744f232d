import { executionList, finished, loadExample, runInEditor, waitFor } from '../e2e/support.cjs';
import { launchBrowser, newPage, screenshot } from '../helpers/browser.cjs';
import { n8nReady, type Rest } from '../helpers/n8n-rest.cjs';
import { podman } from '../helpers/podman.cjs';
import { waitUntil } from '../helpers/wait.cjs';
import {
	COMPOSE_VERSIONS,
	ComposeStack,
	DEMO,
	N8N_VERSION,
	onComposeCredential,
	OWNER,
	versionSettings,
} from './stack.cjs';

/*
 * compose.yaml as a user runs it: `up -d` in a fresh clone builds both images from the checkout
 * and starts n8n with the nodes and the demo credential; then what a user does on the first
 * visit, and what must survive a restart, a `down` and come back empty after `down -v`.
 */

const LEAD_PULL = 'scheduled-lead-pull-to-crm.json';
// The dashboard page's globals, for the functions run inside it.
declare const document: {
	querySelector: (selector: string) => { textContent: string | null } | null;
};
const ALERT = 'inbox-error-alert.json';
const NODE_TYPES = ['fetchLeads', 'listPools', 'listInboxes', 'createInboxes', 'leadInboxTrigger'];

describe.each(COMPOSE_VERSIONS)(
	'compose.yaml on n8n %s: n8n with the Lead Inbox nodes, and the reference server',
	(version) => {
		let stack: ComposeStack;
		let rest: Rest;
		const n8n = () => stack.container('n8n');
		const server = () => stack.container('mock-server');
		const account = () => stack.devAccount();
		const waitHealthy = async () => {
			await stack.healthy(server());
			await stack.healthy(n8n());
			rest = await stack.n8nSession();
		};
		/** What must outlive a restart: the workflows, the credential, the ledger. */
		const state = async () => ({
			workflows: ((await rest('GET', '/workflows')).body.data as any[]).map((w) => w.name).sort(),
			credentials: ((await rest('GET', '/credentials')).body.data as any[]).map((c) => c.id),
			account: await account(),
		});

		beforeAll(async () => {
			stack = await ComposeStack.create('compose.yaml', versionSettings(version));
			const output = await stack.up('--build');
			console.log(
				`compose.yaml, up -d in a fresh clone:\n${output
					.split('\n')
					.filter((l) => /^(podman (run|build)|STEP|Successfully tagged|lead-inbox:)/.test(l))
					.slice(-12)
					.join('\n')}`,
			);
			await waitHealthy();
		}, 30 * 60_000);
		afterAll(async () => {
			await stack?.remove();
		});

		it('starts n8n with the nodes installed and the credential imported, said in its log', async () => {
			const log = await stack.logs(n8n());
			expect(log).toContain('lead-inbox: credential "Lead Inbox (reference server)" imported');
			expect(log).toContain(`Version: ${version}`);
			// The node types the editor's nodes panel lists (each action node also as an AI agent's tool).
			const types = (await rest('GET', '/types/nodes.json')).body as { name: string }[];
			const ours = types
				.map((t) => t.name)
				.filter((name) => name.startsWith('n8n-nodes-lead-inbox.'));
			expect(new Set(ours)).toEqual(
				new Set([
					...NODE_TYPES.map((type) => `n8n-nodes-lead-inbox.${type}`),
					...NODE_TYPES.filter((type) => type !== 'leadInboxTrigger').map(
						(type) => `n8n-nodes-lead-inbox.${type}Tool`,
					),
				]),
			);
			// The nodes live where n8n installs community packages, owned by n8n's user.
			const installed = await podman(
				'exec',
				n8n(),
				'sh',
				'-c',
				'id -un; stat -c %U ~/.n8n/nodes/node_modules/n8n-nodes-lead-inbox; cat ~/.n8n/nodes/package.json',
			);
			const [user, owner, manifest] = installed.trim().split('\n');
			expect([user, owner]).toEqual(['node', 'node']);
			expect(Object.keys(JSON.parse(manifest).dependencies)).toEqual(['n8n-nodes-lead-inbox']);
		});

		it('the editor\'s nodes panel, searched for "Lead Inbox", lists the nodes (screenshot)', async () => {
			const OURS = ['Fetch Leads', 'List Pools', 'List Inboxes', 'Create Inboxes'];
			const browser = await launchBrowser();
			try {
				const page = await newPage(browser);
				await page.goto(`${stack.n8nUrl}/signin`);
				await page.fill('input[name=emailOrLdapLoginId]', OWNER.email);
				await page.fill('input[name=password]', OWNER.password);
				await page.click('[data-test-id=form-submit-button]');
				await page.waitForURL(/\/home/);
				await page.goto(`${stack.n8nUrl}/workflow/new`);
				await page.click('[data-test-id=canvas-plus-button]');
				await page.fill('input[data-test-id=node-creator-search-bar]', 'Lead Inbox');
				const listed = () => page.locator('[data-test-id=node-creator-item-name]').allInnerTexts();
				await waitUntil(
					async () => {
						const names = await listed();
						return OURS.every((name) => names.includes(name));
					},
					30_000,
					'the nodes panel to list the Lead Inbox nodes',
				);
				expect(await listed()).toEqual(expect.arrayContaining(OURS));
				console.log(
					`nodes panel screenshot: ${await screenshot(page, version === N8N_VERSION ? 'compose-nodes-panel-lead-inbox' : `compose-nodes-panel-lead-inbox-${version}`)}`,
				);
			} finally {
				await browser.close();
			}
		});

		it("the imported credential passes n8n's own credential test", async () => {
			const listed = (await rest('GET', '/credentials')).body.data as any[];
			expect(listed).toEqual([
				expect.objectContaining({
					id: DEMO.credentialId,
					name: DEMO.credentialName,
					type: 'leadInboxApi',
				}),
			]);
			// What the editor sends when the credential is opened and tested: its stored data, with the
			// key blanked out (n8n fills it back in from the database).
			const stored = (await rest('GET', `/credentials/${DEMO.credentialId}?includeData=true`)).body
				.data;
			expect(JSON.stringify(stored)).not.toContain(DEMO.devKey);
			const tested = await rest('POST', '/credentials/test', {
				credentials: { id: stored.id, name: stored.name, type: stored.type, data: stored.data },
			});
			expect(tested.body.data).toEqual({
				status: 'OK',
				message: expect.stringMatching(/^Connection successful/),
			});
		});

		it('runs the lead pull example in the container: the leads added to the account, one credit each', async () => {
			const before = await account();
			const workflow = onComposeCredential(loadExample(LEAD_PULL));
			const created = await rest('POST', '/workflows', workflow);
			expect(created.status).toBe(200);
			const run = await runInEditor(rest, version, created.body.data.id, 'Try it now');
			expect([run.status, run.error]).toEqual(['success', undefined]);
			const leads = run.items('Fetch Leads');
			expect(leads.length).toBeGreaterThan(0);
			expect(run.items('Save to Leads table')).toHaveLength(leads.length);
			// What the node says it was charged is what the ledger moved, one credit per contact added.
			const after = await account();
			const charged = before.credits - after.credits;
			expect(run.hints('Fetch Leads')[0]).toMatch(new RegExp(`^Charged ${charged} credits for `));
			expect(after.contactCount - before.contactCount).toBe(charged);
			console.log(
				`lead pull in the n8n ${version} container: ${leads.length} leads output, ${charged} credits charged, ` +
					`${charged} contacts added; hints: ${run.hints('Fetch Leads').join(' | ')}`,
			);

			// The server's dashboard beside it shows the pull: its charge, the contacts, the request.
			const browser = await launchBrowser();
			try {
				const page = await newPage(browser);
				await page.goto(`${stack.serverUrl}/`);
				await page.fill('#token', DEMO.adminToken);
				await page.click('button[type=submit]');
				for (const [testId, value] of [
					['credits', after.credits],
					['contact-count', after.contactCount],
				] as const)
					await page.waitForFunction(
						([id, n]) =>
							document.querySelector(`[data-testid=${id}]`)?.textContent?.replace(/\D/g, '') ===
							String(n),
						[testId, value] as const,
					);
				await page.getByRole('cell', { name: 'dentist' }).first().waitFor();
				await page.getByText('charged by a search').first().waitFor();
				await page
					.getByRole('button', { name: 'POST /api/v1/niche-finder-leads' })
					.first()
					.waitFor();
				console.log(
					`dashboard after the pull: ${await screenshot(page, version === N8N_VERSION ? 'compose-dashboard' : `compose-dashboard-${version}`)}`,
				);
			} finally {
				await browser.close();
			}
		});

		it("publishes the inbox alert: its first check reaches the server's request journal", async () => {
			await stack.admin.requests.clear();
			const workflow = onComposeCredential(loadExample(ALERT));
			const created = (await rest('POST', '/workflows', workflow)).body.data;
			const published = await rest('POST', `/workflows/${created.id}/activate`, {
				versionId: created.versionId,
			});
			expect([published.status, published.body.message]).toEqual([200, undefined]);
			// n8n checks once when it publishes the workflow: a listing of the inboxes with the demo key.
			await waitFor(
				"the trigger's first check in the journal",
				async () => {
					const journal = await stack.admin.requests.list({ path: '/api/v1/inboxes' });
					return journal.length > 0 ? journal : undefined;
				},
				60_000,
			).then((journal) => expect(journal[0]).toMatchObject({ method: 'GET', status: 200 }));
		});

		it('keeps workflows, credentials and the ledger through a restart and through down and up', async () => {
			const before = await state();
			expect(before.workflows).toHaveLength(2);

			// As a volume made by an older image: its nodes are not this image's. The restart brings
			// them up to the image's before n8n starts.
			await podman(
				'exec',
				n8n(),
				'sh',
				'-c',
				'echo older-image > ~/.n8n/nodes/.lead-inbox-nodes.sha256',
			);
			const restart = await stack.compose('restart');
			expect([restart.code, restart.output.slice(-2000)]).toEqual([0, expect.any(String)]);
			await waitHealthy();
			expect(await state()).toEqual(before);
			expect(await stack.logs(n8n())).toContain(
				"does not hold this image's Lead Inbox nodes; installing them",
			);
			const types = (await rest('GET', '/types/nodes.json')).body as { name: string }[];
			expect(types.map((t) => t.name)).toContain('n8n-nodes-lead-inbox.fetchLeads');

			expect((await stack.compose('down')).code).toBe(0);
			expect(await stack.state(n8n())).toBe('');
			await stack.up();
			await waitHealthy();
			expect(await state()).toEqual(before);
			// No execution was lost or left running by the stops.
			for (const workflow of (await rest('GET', '/workflows')).body.data as any[])
				expect((await executionList(rest, workflow.id)).every(finished)).toBe(true);
		});

		it('down -v removes them: n8n asks for an owner again, the server starts a new ledger', async () => {
			const spent = await account();
			expect(spent.contactCount).toBeGreaterThan(0);
			expect((await stack.compose('down', '-v')).code).toBe(0);
			await stack.up();
			await stack.healthy(server());
			await stack.healthy(n8n());
			await n8nReady(stack.n8nUrl);
			const settings = (await (await fetch(`${stack.n8nUrl}/rest/settings`)).json()) as any;
			expect(settings.data.userManagement.showSetupOnFirstLoad).toBe(true);
			const fresh = await account();
			expect(fresh.contactCount).toBe(0);
			expect(fresh.credits).toBeGreaterThan(spent.credits);
			// The credential is imported again into the new database.
			rest = await stack.n8nSession();
			expect(((await rest('GET', '/credentials')).body.data as any[]).map((c) => c.id)).toEqual([
				DEMO.credentialId,
			]);
		});
	},
);
