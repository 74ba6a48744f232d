/**
 * Changes a case makes before a run (or a trigger check): to the service (any admin API call),
 * the clock, and the answers of other services (a mock).
 */
import type { MockServer } from '../../mock-server/src/api/start.cjs';
import type { CaseClock } from './clock/case-clock.cjs';
import { type Change, seconds } from './file/schema.cjs';
import type { MockSet } from './http-mocks/mock-set.cjs';

export async function applyChange(
	server: MockServer,
	accountId: string,
	change: Change,
	context: { clock: CaseClock; mocks: MockSet; at: string },
): Promise<void> {
	const { admin } = server;
	// The case's clock: n8n's and the service's together.
	if ('advanceClock' in change) await context.clock.advance(seconds(change.advanceClock));
	// Another service's answer, tried before the mocks given so far.
	else if ('mock' in change) context.mocks.add(change.mock, `${context.at}.mock`);
	else if ('inboxStatus' in change)
		await admin.setInboxStatus(accountId, change.inboxStatus.inbox, change.inboxStatus.status);
	else if ('credits' in change) await admin.accounts.update(accountId, { credits: change.credits });
	else if ('fault' in change) await admin.faults.arm(change.fault as never);
	else if ('clearFaults' in change) await admin.faults.clear();
	else if ('seed' in change) await admin.seed(change.seed as never);
	else {
		const { method, path, body } = change.admin;
		await admin.call(method, path.replaceAll('{accountId}', accountId), body);
	}
}
