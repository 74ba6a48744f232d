import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { runStep, StepFailed } from './runner-step.cjs';

/*
 * Runs a composite action's steps the way GitHub's runner does, as far as this repository's action
 * uses it: inputs with their defaults, `${{ inputs.x }}`, `${{ github.action_path }}` and
 * `${{ steps.id.outputs.x }}`, each `run` in `bash --noprofile --norc -eo pipefail`, the
 * GITHUB_OUTPUT, GITHUB_ENV and GITHUB_PATH files, environment carried to the next step, and the
 * action's outputs. An expression it does not know fails loudly rather than running as text.
 */

export interface ActionRun {
	outputs: Record<string, string>;
	/** What the steps added to the job's environment (GITHUB_ENV). */
	env: Record<string, string>;
	/** Everything the steps printed (stdout and stderr). */
	log: string;
	/** Values the steps asked the runner to mask (::add-mask::). */
	masked: string[];
}

interface Step {
	id?: string;
	shell?: string;
	env?: Record<string, string>;
	run?: string;
}

export async function runCompositeAction(
	actionDir: string,
	inputs: Record<string, string>,
	context: {
		workspace: string;
		runnerTemp: string;
		env?: Record<string, string>;
		/**
		 * A composite action's steps have no limit of their own: the calling job's applies (30 min
		 * here, as workflow-job.cts gives a step).
		 */
		timeoutMs?: number;
	},
): Promise<ActionRun> {
	const action = parse(readFileSync(join(actionDir, 'action.yml'), 'utf8'));
	if (action.runs?.using !== 'composite') throw new Error('not a composite action');
	for (const name of Object.keys(inputs))
		if (!(name in action.inputs)) throw new Error(`the action has no input "${name}"`);
	const given: Record<string, string> = Object.fromEntries(
		Object.entries(action.inputs as Record<string, { default?: string }>).map(([name, spec]) => [
			name,
			inputs[name] ?? spec.default ?? '',
		]),
	);
	const steps: Record<string, Record<string, string>> = {};
	const evaluate = (text: string) =>
		text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, expression: string) => {
			let match;
			if ((match = expression.match(/^inputs\.([\w-]+)$/))) return given[match[1]] ?? '';
			if (expression === 'github.action_path') return actionDir;
			if ((match = expression.match(/^steps\.([\w-]+)\.outputs\.([\w-]+)$/)))
				return steps[match[1]]?.[match[2]] ?? '';
			throw new Error(`expression not supported by this runner: ${expression}`);
		});

	const jobEnv: Record<string, string> = { ...(context.env ?? {}) };
	const scratch = mkdtempSync(join(tmpdir(), 'action-'));
	let log = '';
	for (const [index, step] of (action.runs.steps as Step[]).entries()) {
		if (!step.run) throw new Error('only run steps are supported');
		if (step.shell !== 'bash') throw new Error(`step ${index}: shell must be bash`);
		const env = {
			...process.env,
			...jobEnv,
			...Object.fromEntries(
				Object.entries(step.env ?? {}).map(([k, v]) => [k, evaluate(String(v))]),
			),
			GITHUB_ACTION_PATH: actionDir,
			GITHUB_WORKSPACE: context.workspace,
			RUNNER_TEMP: context.runnerTemp,
			GITHUB_ACTIONS: 'true',
		};
		try {
			const done = await runStep(evaluate(step.run), {
				scratch,
				index,
				cwd: context.workspace,
				env,
				timeoutMs: context.timeoutMs ?? 30 * 60_000,
			});
			log += done.printed;
			if (step.id) steps[step.id] = done.outputs;
			Object.assign(jobEnv, done.env);
		} catch (error) {
			if (!(error instanceof StepFailed)) throw error;
			log += error.printed;
			throw Object.assign(
				new Error(`step ${step.id ?? index} failed (exit ${error.code}):\n${log}`),
				{
					log,
				},
			);
		}
	}
	const outputs = Object.fromEntries(
		Object.entries((action.outputs ?? {}) as Record<string, { value: string }>).map(
			([name, spec]) => [name, evaluate(spec.value)],
		),
	);
	const masked = [...log.matchAll(/^::add-mask::(.*)$/gm)].map((m) => m[1]);
	const added = Object.fromEntries(
		Object.entries(jobEnv).filter(([key]) => !(key in (context.env ?? {}))),
	);
	return { outputs, env: added, log, masked };
}
