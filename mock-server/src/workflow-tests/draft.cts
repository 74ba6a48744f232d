/**
 * What `test init` writes for a workflow with Lead Inbox nodes: a seed (an account with credits,
 * and a pool of two inboxes where the workflow uses inboxes), and `expect.service` from what the
 * first run did (the credits charged and every request).
 */
import type { ServiceDetail, ServiceNode } from '../../../n8n-testkit/src/index.cjs';

const LEAD_SEARCH = '/api/v1/niche-finder-leads';

/** The package's nodes that read or add to an account's pools and inboxes. */
const INBOX_NODES = ['listPools', 'listInboxes', 'createInboxes', 'leadInboxTrigger'];

const usesInboxes = (nodes: ServiceNode[]): boolean =>
	nodes.some((n) =>
		INBOX_NODES.some((type) => n.type.replace(/Tool$/, '') === `n8n-nodes-lead-inbox.${type}`),
	);

export function draftFile(nodes: ServiceNode[]): Record<string, unknown> {
	return {
		seed: {
			accounts: [
				{
					apiKey: 'lik_test_init_account_01',
					credits: 1000,
					// Inboxes only for a workflow that reads or adds to them.
					...(usesInboxes(nodes)
						? {
								pools: [
									{
										name: 'Test pool',
										inboxes: [
											{ emailAddress: 'sales@gmail.com' },
											{ emailAddress: 'team@outlook.com', status: 'paused' },
										],
									},
								],
							}
						: {}),
				},
			],
		},
	};
}

export function draftExpect(detail: ServiceDetail): Record<string, unknown> {
	const requests = new Map<string, number>();
	for (const line of detail.requests) {
		const [method, path] = line.split(' ');
		const key = `${method} ${path}`;
		requests.set(key, (requests.get(key) ?? 0) + 1);
	}
	// How many lead searches a run makes, and what they charge, depends on the websites' scans
	// (New Leads Wanted searches deeper when fewer match a pixel filter): a range, not that run's.
	const searched = [...requests.keys()].some((key) => key.endsWith(LEAD_SEARCH));
	const charged = detail.counts.creditsCharged ?? 0;
	return {
		service: {
			creditsCharged: searched && charged > 0 ? { atLeast: 1 } : charged,
			requests: [...requests].map(([key, times]) => {
				const [method, path] = key.split(' ');
				return { method, path, times: path === LEAD_SEARCH ? { atLeast: 1 } : times };
			}),
			nothingElse: true,
		},
	};
}

export const draftComments = {
	file: {
		seed: 'The service before every case: an account with credits (and a pool of two inboxes where the workflow uses inboxes); make it what the workflow expects.',
	},
	expect: {
		service:
			"What the reference server saw: the credits charged and every request (nothingElse: no other); lead searches as ranges (how many, and what they charge, depends on the websites' scans).",
	},
};
