/**
 * Changes a case makes before a run (or a trigger check): the clock, the answers of other services
 * (a mock), and whatever a service of the file owns (its seed, a fault, an account's credits).
 */
import type { CaseClock } from './clock/case-clock.cjs';
import { type Change, seconds } from './file/schema.cjs';
import type { MockSet } from './http-mocks/mock-set.cjs';
import type { ServiceSession } from './services/service.cjs';

export async function applyChange(
	services: ServiceSession[],
	change: Change,
	context: { clock: CaseClock; mocks: MockSet; at: string },
): Promise<void> {
	// The case's clock: n8n's and the services' together.
	if ('advanceClock' in change) await context.clock.advance(seconds(change.advanceClock));
	// Another service's answer, tried before the mocks given so far.
	else if ('mock' in change) context.mocks.add(change.mock, `${context.at}.mock`);
	else {
		for (const service of services)
			if (await service.apply(change as Record<string, unknown>)) return;
		// The file's schema took it: a service of the run defines it, but the file does not use that service.
		throw new Error(
			`${context.at}: ${Object.keys(change).join(', ')} is a change to a service this test file does not use`,
		);
	}
}
