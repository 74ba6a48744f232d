/**
 * A run that resumes the execution the last run left waiting: a real request to its resume URL
 * (a Wait on a webhook or a form, a Form page), or its time limit passing on the case's clock.
 */
import { type RunView } from '../expect/check.cjs';
import { shown } from '../expect/match.cjs';
import type { WorkflowNode } from '../file/load.cjs';
import { type RequestSpec, type ResumeSpec } from '../file/schema.cjs';
import { type Execution, readExecution } from '../n8n/executions.cjs';
import { n8nFetch, until } from '../n8n/rest.cjs';
import { formData } from '../workflow/form.cjs';
import { resumeMethod, resumesOnForm } from '../workflow/node-kinds.cjs';
import { type Published, settled, totalRuns, viewOf, responseOf, asText } from './published.cjs';

/**
 * A run that resumes the execution the last run left waiting, by a request or by its time limit
 * passing (timeout), and what the execution did after it (its node runs before the wait left out).
 */
export async function resumeRun(
	workflow: Published,
	resume: ResumeSpec,
	at: string,
): Promise<RunView> {
	const left = workflow.waiting;
	if (!left)
		throw new Error(
			'there is nothing to resume: the previous run left no execution waiting for a request (expect it with status: waiting)',
		);
	const { execution } = left;
	const timedOut = workflow.waits.timedOutAt(execution.id);
	let response: RunView['response'];
	// A limit the clock passed already: the run shows what the execution did when it timed out.
	if (timedOut && !resume.timeout)
		throw new Error(
			`${at}: "${execution.waiting!.node.name}" timed out at ${timedOut}, when its time limit ended with no request, before this run (the clock is at ${new Date(workflow.waits.now()).toISOString()}): n8n went on without a request, and a request now resumes nothing. To check what ran when it timed out, give this run resume: { timeout: true }; to resume it by a request, move the clock less far`,
		);
	if (resume.timeout && !timedOut) await workflow.waits.passLimit(execution);
	else if (!resume.timeout) {
		const sent = await sendResume(workflow, execution, resume);
		response = sent.response;
		if (response.status >= 400 && (await stillWaiting(workflow, left)))
			throw new Error(
				`${at}: n8n answered ${response.status} to ${sent.method} ${sent.url} and resumed nothing: "${execution.waiting!.node.name}" still waits (execution ${execution.id}). n8n said: ${shown(response.body, 300)}`,
			);
	}
	const [again] = await settled(workflow, 0, { id: execution.id, runs: totalRuns(execution) });
	const view = viewOf([again], undefined);
	// What ran after the resume: each node's runs past those it had when the execution waited.
	for (const [name, runs] of Object.entries(view.nodes)) {
		const after = runs.slice(left.runs[name] ?? 0);
		if (after.length) view.nodes[name] = after;
		else delete view.nodes[name];
	}
	return response ? { ...view, response, resumed: { node: execution.waiting!.node.name } } : view;
}

/**
 * The request to a waiting execution's resume URL as n8n makes it (`$execution.resumeUrl`, or
 * `resumeFormUrl` for a form; with 2.40's token), and n8n's answer.
 */
async function sendResume(
	workflow: Published,
	execution: Execution,
	resume: ResumeSpec,
): Promise<{ method: string; url: string; response: NonNullable<RunView['response']> }> {
	const { node, resumeToken } = execution.waiting!;
	const form = resumesOnForm(node);
	const options = node.parameters?.options as { webhookSuffix?: unknown } | undefined;
	const suffix = (resume.path ?? asText(options?.webhookSuffix)).replace(/^\/+/, '');
	const url = new URL(
		`${workflow.session.app.url}/${form ? 'form-waiting' : 'webhook-waiting'}/${execution.id}${resumeToken || !suffix ? '' : `/${suffix}`}`,
	);
	// n8n 2.40 reads its token, and a suffix after it, from the signature parameter.
	if (resumeToken)
		url.searchParams.set('signature', suffix ? `${resumeToken}/${suffix}` : resumeToken);
	for (const [key, value] of Object.entries(resume.query ?? {})) url.searchParams.set(key, value);
	const method = resume.method ?? (form ? 'POST' : resumeMethod(node));
	const response = await responseOf(
		await sendOnce(url.toString(), method, resume, form ? (node as WorkflowNode) : undefined),
	);
	return { method, url: url.pathname, response };
}

/** How long n8n may take to show an execution a request resumed as resumed (a bound, not a speed claim). */
const RESUMING_MS = 5_000;

/**
 * Whether an execution still waits as it did, a while after a request n8n answered with an
 * error: a workflow's own answer (a Respond to Webhook's 4xx) comes from a resumed execution,
 * n8n's refusal (an unknown path, another method) from one still waiting.
 */
async function stillWaiting(
	workflow: Published,
	left: NonNullable<Published['waiting']>,
): Promise<boolean> {
	const { rest, app } = workflow.session;
	const before = totalRuns(left.execution);
	try {
		await until(
			async () => {
				const now = await readExecution(rest, app.runDataReader, left.execution.id);
				return now.status !== 'waiting' || totalRuns(now) > before;
			},
			RESUMING_MS,
			'the execution to resume',
			100,
		);
		return false;
	} catch {
		return true;
	}
}

/**
 * A request to n8n as a test gives it: a form's fields as its page sends them (multipart), JSON (an
 * object, a list, a number) as JSON, text as it is.
 */
export function sendOnce(
	url: string,
	method: string,
	request: Pick<RequestSpec, 'headers' | 'body' | 'form'>,
	form: WorkflowNode | undefined,
): Promise<Response> {
	const asText = typeof request.body === 'string' ? request.body : undefined;
	const json = request.body !== undefined && asText === undefined;
	return n8nFetch(url, {
		method,
		headers: { ...(json ? { 'content-type': 'application/json' } : {}), ...request.headers },
		body: form
			? formData(form, request.form ?? {})
			: method === 'GET' || method === 'HEAD' || request.body === undefined
				? undefined
				: (asText ?? JSON.stringify(request.body)),
	});
}
