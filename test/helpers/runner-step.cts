import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/*
 * One `run` step as GitHub's runner runs it, for the two runners of this repository's tests
 * (composite-action.cts, workflow-job.cts): the script in `bash --noprofile --norc -eo pipefail`,
 * fresh GITHUB_OUTPUT, GITHUB_ENV and GITHUB_PATH files, and what the step wrote to them read back.
 */

/** `name=value` lines and `name<<DELIMITER` blocks, as the runner reads GITHUB_OUTPUT and GITHUB_ENV. */
export function readCommandFile(text: string): Record<string, string> {
	const values: Record<string, string> = {};
	const lines = text.split('\n');
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i];
		const heredoc = line.match(/^([^=]+)<<(.+)$/);
		if (heredoc) {
			const end = lines.indexOf(heredoc[2], i + 1);
			if (end < 0) throw new Error(`unterminated ${heredoc[2]} block for ${heredoc[1]}`);
			values[heredoc[1]] = lines.slice(i + 1, end).join('\n');
			i = end;
		} else if (line.includes('=')) {
			values[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
		} else if (line.trim()) throw new Error(`unreadable line in a command file: ${line}`);
	}
	return values;
}

export interface StepRun {
	/** What the step printed, stdout then stderr. */
	printed: string;
	/** GITHUB_OUTPUT: the step's outputs. */
	outputs: Record<string, string>;
	/** GITHUB_ENV: what later steps get in their environment. */
	env: Record<string, string>;
	/** GITHUB_PATH: folders later steps get first on PATH. */
	path: string[];
}

/** A step that exited non-zero: what it printed, and its exit code. */
export class StepFailed extends Error {
	constructor(
		readonly printed: string,
		readonly code: number | undefined,
	) {
		super(`exit ${code}`);
	}
}

export async function runStep(
	script: string,
	options: {
		/** A folder of the runner's own for this job's files; `index` keeps steps apart in it. */
		scratch: string;
		index: number;
		cwd: string;
		env: Record<string, string | undefined>;
		timeoutMs: number;
	},
): Promise<StepRun> {
	const files = Object.fromEntries(
		['GITHUB_OUTPUT', 'GITHUB_ENV', 'GITHUB_PATH'].map((name) => {
			const file = join(options.scratch, `${name}-${options.index}`);
			writeFileSync(file, '');
			return [name, file];
		}),
	);
	const file = join(options.scratch, `step-${options.index}.sh`);
	writeFileSync(file, script);
	try {
		const { stdout, stderr } = await run(
			'bash',
			['--noprofile', '--norc', '-eo', 'pipefail', file],
			{
				cwd: options.cwd,
				env: { ...options.env, ...files },
				timeout: options.timeoutMs,
				maxBuffer: 256 * 1024 * 1024,
			},
		);
		return {
			printed: stdout + stderr,
			outputs: readCommandFile(readFileSync(files.GITHUB_OUTPUT, 'utf8')),
			env: readCommandFile(readFileSync(files.GITHUB_ENV, 'utf8')),
			path: readFileSync(files.GITHUB_PATH, 'utf8').split('\n').filter(Boolean),
		};
	} catch (error) {
		const e = error as { stdout?: string; stderr?: string; code?: number; killed?: boolean };
		// Killed by the limit: say so, as a runner does ("exceeded the maximum execution time").
		const limit = e.killed
			? `\nthe step was stopped after its time limit of ${options.timeoutMs / 1000} s\n`
			: '';
		throw new StepFailed((e.stdout ?? '') + (e.stderr ?? '') + limit, e.code);
	}
}
