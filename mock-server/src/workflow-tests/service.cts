/**
 * The Lead Inbox reference server as a service of the workflow test runner (n8n-testkit): the
 * package's nodes run for real against a server of its own per test file, with the file's seed,
 * the case's clock, faults and changes, and `expect.service` checked against its account and
 * request journal. `lead-inbox-mock-server test` is the runner with this service given; with only
 * n8n-testkit's bin, it joins when the project has this package installed (package.json names it).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type {
	ServiceFile,
	ServiceSession,
	WorkflowTestService,
} from '../../../n8n-testkit/src/index.cjs';
import type { SharedScans } from '../api/options.cjs';
import { startMockServer } from '../api/start.cjs';
import { applyServiceChange } from './changes.cjs';
import { draftComments, draftExpect, draftFile } from './draft.cjs';
import { checkService, requestLine, serviceView } from './expect.cjs';
import { type LeadInboxCase, type LeadInboxFile, leadInboxSchema } from './schema.cjs';

const PACKAGE = 'n8n-nodes-lead-inbox.';
const TRIGGER = `${PACKAGE}leadInboxTrigger`;
const SCHEMA = 'workflow-test.schema.json';

export interface LeadInboxServiceOptions {
	/** Answers from recordings of the real services (the server's --replay). */
	replay?: string;
}

export function leadInboxService(options: LeadInboxServiceOptions = {}): WorkflowTestService {
	// The websites' scans, shared by every file's server for the run (and a watch's passes): a
	// synthetic site's flags are a function of its address, so a site is scanned once.
	const scans: SharedScans = new Map();
	return {
		name: 'Lead Inbox',
		claims: (type) => type.startsWith(PACKAGE),
		polls: (type) => type === TRIGGER,
		schema: leadInboxSchema,
		check: (spec) => {
			const { seed, credential } = spec as LeadInboxFile;
			if (credential === undefined || seed?.accounts.some((a) => a.apiKey === credential))
				return [];
			return [
				{
					path: ['credential'],
					message: `no account of the file's seed has this key: give one of ${seed?.accounts.map((a) => a.apiKey).join(', ') || "the seed's keys (the file has no seed)"}`,
				},
			];
		},
		draft: { file: draftFile, expect: draftExpect, comments: draftComments },
		// Bundled: beside the program in dist/; from the sources: mock-server/.
		jsonSchema: [join(__dirname, SCHEMA), join(__dirname, '..', '..', SCHEMA)].find(existsSync),
		open: (file) => openLeadInbox(file, { replay: options.replay, scans }),
		close: async () => scans.clear(),
	};
}

/** A server of its own for the file, seeded; the credential's account is its first (or the dev one). */
async function openLeadInbox(
	file: ServiceFile,
	options: { replay?: string; scans: SharedScans },
): Promise<ServiceSession> {
	const spec = file.spec as LeadInboxFile;
	const server = await startMockServer(
		{
			seed: spec.seed as never,
			replay: options.replay,
			log: false,
			// A site's flags, once scanned, stay: runs a clock advance apart see the same websites,
			// however a loaded machine timed the first scan.
			scanCacheTtl: 365 * 86400,
			// Twice the server's default per-site time-out: on a machine loaded with n8n processes
			// (a CI runner, test files side by side) a local site can take over a second to answer, and
			// a scan that times out leaves the site's codes unknown, so a pixel filter would drop it. The
			// synthetic sites made slow (10 s) still time out, as with the real service.
			scanTimeout: 2000,
		},
		{ scans: options.scans },
	);
	try {
		const index =
			spec.seed && spec.credential
				? spec.seed.accounts.findIndex((a) => a.apiKey === spec.credential)
				: 0;
		const apiKey = spec.seed ? spec.seed.accounts[index].apiKey : server.apiKey;
		/** The credential's account: applying the seed again changes nothing and answers each account's ID. */
		const accountOf = async () =>
			spec.seed
				? (await server.admin.seed(spec.seed as never)).accounts[index].accountId
				: (await server.admin.accounts.list()).find((a) => a.dev)!.id;
		let accountId = await accountOf();
		let before = { credits: 0, contactCount: 0 };
		const snapshot = async () => {
			const account = await server.admin.accounts.get(accountId);
			before = { credits: account.credits, contactCount: account.contactCount };
		};
		return {
			credential: {
				type: 'leadInboxApi',
				data: { apiKey, leadsBaseUrl: server.url, inboxBaseUrl: `${server.url}/api/v1` },
			},
			// Every account back to the file's seed, the clock, faults and the journal.
			reset: async () => {
				await server.admin.reset();
				accountId = await accountOf();
			},
			beginCase: async (testCase) => {
				const { seed, faults } = testCase as LeadInboxCase;
				if (seed) await server.admin.seed(seed as never);
				for (const fault of faults ?? []) await server.admin.faults.arm(fault as never);
			},
			firstRunStarts: snapshot,
			apply: (change) => applyServiceChange(server, accountId, change),
			setClock: async (ms) => {
				await server.admin.setClock(ms);
			},
			verify: async (expect) => {
				const { service } = expect as { service?: Parameters<typeof checkService>[0] };
				if (!service) return [];
				return await checkService(
					service,
					await serviceView(server, accountId, before),
					'expect.service',
				);
			},
			detail: async () => {
				const after = await server.admin.accounts.get(accountId);
				const requests = (await server.admin.requests.list()).map(requestLine);
				const creditsCharged = Math.max(0, before.credits - after.credits);
				return {
					requests,
					facts: [`${creditsCharged} credit(s) charged`],
					counts: { creditsCharged },
					report: { requests, creditsCharged },
				};
			},
			close: () => server.close(),
		};
	} catch (error) {
		await server.close();
		throw error;
	}
}
