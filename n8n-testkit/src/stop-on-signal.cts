/**
 * A runner told to stop (SIGTERM from `timeout`, a cancelled CI job or a supervisor; SIGINT from
 * Ctrl-C; SIGHUP from a closed terminal) ends what it started before it exits: every n8n, its task
 * runner included, through n8n's graceful shutdown, bounded (N8nApp.stop). It says so in one line,
 * and exits as a process ended by that signal does (128 + its number). A second signal while it
 * stops kills them at once. (A runner killed outright, SIGKILL, cannot do this: each n8n then
 * notices the runner gone and stops itself, n8n-clock.cjs.)
 */
import { constants } from 'node:os';
import { stopEveryApp } from './n8n/app.cjs';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/** Installs the handlers; the function returned takes them away again. */
export function stopOnSignals(say: (line: string) => void): () => void {
	let stopping = false;
	const handler = (signal: NodeJS.Signals) => {
		const code = 128 + constants.signals[signal];
		if (stopping) process.exit(code); // the exit handler kills what is left
		stopping = true;
		const started = Date.now();
		void stopEveryApp()
			.catch(() => 0)
			.then((apps) => {
				say(
					`${signal}: stopped ${apps} n8n instance(s) and their task runners in ${((Date.now() - started) / 1000).toFixed(1)} s; nothing the run started is left running`,
				);
				process.exit(code);
			});
	};
	for (const signal of SIGNALS) process.on(signal, handler);
	return () => {
		for (const signal of SIGNALS) process.off(signal, handler);
	};
}
