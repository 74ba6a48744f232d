import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { leadInboxService } from '../mock-server/src/workflow-tests/service.cjs';
import { type LoadedTestFile, loadTestFile } from '../n8n-testkit/src/file/load.cjs';
import { runCase } from '../n8n-testkit/src/run-case.cjs';
import { Services } from '../n8n-testkit/src/services/services.cjs';
import { openSession, type Session, startHost } from '../n8n-testkit/src/session.cjs';
import { ALL_LINES, installOf } from '../test/e2e/n8n-app.cjs';
import { alternatedMedians, memoryOf } from './support.cjs';

const ROOT = join(__dirname, '..');

/** A case of one of the files: the test file's name and the case's place in it. */
export interface CaseRef {
	file: string;
	case: number;
}

/**
 * Two cases of workflow test files timed against each other on each n8n line: per line, the
 * files written into a fresh folder, one warm n8n started as the runner starts it, a session per
 * test file, and the two cases alternated so drift falls on both (one of each first, not
 * counted). `report` gets the median of each, in milliseconds, and the n8n's peak RSS.
 */
export async function timeTwoCases(options: {
	lines: string[];
	runs: number;
	/** Written into the folder as JSON: the test files (named in `cases`) and any workflows. */
	files: Record<string, object>;
	cases: [CaseRef, CaseRef];
	report(version: string, medians: [number, number], peakMB: number): void;
}): Promise<void> {
	for (const version of options.lines) {
		const line = ALL_LINES.find((l) => l.version === version);
		if (!line)
			throw new Error(
				`no supported n8n line ${version}: use one of ${ALL_LINES.map((l) => l.version).join(', ')}`,
			);
		const dir = mkdtempSync(join(tmpdir(), 'bench-two-cases-'));
		for (const [name, content] of Object.entries(options.files))
			writeFileSync(join(dir, name), JSON.stringify(content));
		const host = await startHost({
			n8n: installOf(line),
			nodes: [{ folder: ROOT }],
			dir: join(dir, 'n8n'),
			progress: () => undefined,
		});
		const sessions = new Map<string, { loaded: LoadedTestFile; session: Session }>();
		try {
			for (const { file } of options.cases)
				if (!sessions.has(file)) {
					const loaded = loadTestFile(join(dir, file), dir, new Services([leadInboxService()]));
					sessions.set(file, { loaded, session: await openSession(loaded, host) });
				}
			const one = (ref: CaseRef) => async () => {
				const { loaded, session } = sessions.get(ref.file)!;
				const result = await runCase(session, loaded, loaded.spec.cases[ref.case]);
				if (!result.passed) throw new Error(JSON.stringify(result.failures));
			};
			const medians = await alternatedMedians(options.runs, [
				one(options.cases[0]),
				one(options.cases[1]),
			]);
			options.report(version, medians, memoryOf(host.app.pid!).peakMB);
		} finally {
			await Promise.all([...sessions.values()].map(({ session }) => session.close()));
			await host.close();
			rmSync(dir, { recursive: true, force: true });
		}
	}
}
