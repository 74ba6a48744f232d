/** The changes a case makes to the service before a run (the file format's, schema.cts). */
import type { MockServer } from '../api/start.cjs';

/** Applies a change if it is the service's; false when it is not (the runner tries the others). */
export async function applyServiceChange(
	server: MockServer,
	accountId: string,
	change: Record<string, unknown>,
): Promise<boolean> {
	const { admin } = server;
	const c = change as {
		inboxStatus?: { inbox: string; status: string };
		credits?: number;
		fault?: unknown;
		clearFaults?: true;
		seed?: unknown;
		admin?: { method: string; path: string; body?: unknown };
	};
	if (c.inboxStatus)
		await admin.setInboxStatus(accountId, c.inboxStatus.inbox, c.inboxStatus.status as never);
	else if (c.credits !== undefined) await admin.accounts.update(accountId, { credits: c.credits });
	else if (c.fault) await admin.faults.arm(c.fault as never);
	else if (c.clearFaults) await admin.faults.clear();
	else if (c.seed) await admin.seed(c.seed as never);
	else if (c.admin)
		await admin.call(
			c.admin.method,
			c.admin.path.replaceAll('{accountId}', accountId),
			c.admin.body,
		);
	else return false;
	return true;
}
