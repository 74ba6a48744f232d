/**
 * How a run starts, by the start node's kind (prepare.cts's plan): the runner's webhook in the
 * start node's place (a trigger run as if it fired), a real request to the workflow's own Webhook
 * or Form Trigger, or one poll of a service's polling trigger.
 */
import { type RunView } from '../expect/check.cjs';
import { type RequestSpec } from '../file/schema.cjs';
import { executionList } from '../n8n/executions.cjs';
import { n8nFetch } from '../n8n/rest.cjs';
import type { StartPlan } from '../workflow/prepare.cjs';
import {
	type Published,
	publish,
	settled,
	viewOf,
	whenRegistered,
	responseOf,
} from './published.cjs';
import { sendOnce } from './resume.cjs';
import { byIndex } from './views.cjs';

/** One run started through the webhook in the start node's place; its execution read once it ends. */
async function webhookRun(workflow: Published, items: unknown[], first: boolean): Promise<RunView> {
	const { session, start } = workflow;
	if (first) await publish(workflow);
	const call = () =>
		n8nFetch(`${session.app.url}/webhook/${start.webhookPath}`, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ items }),
		});
	const answer = await whenRegistered(call, "n8n to register the workflow's webhook");
	if (!answer.ok)
		throw new Error(
			`n8n did not start the run (${answer.status}): ${(await answer.text()).slice(0, 500)}`,
		);
	return viewOf(await settled(workflow, 1), start);
}

/** Statuses n8n answers a webhook call with when it starts no execution. */
const NOT_STARTED = new Set([401, 403, 404, 405]);

/**
 * One run started by a real request to the workflow's Webhook (its production URL): what the caller
 * got, and the execution it started once it ends (a call n8n refuses, 401 to 405, starts none).
 */
async function requestRun(
	workflow: Published,
	request: RequestSpec,
	first: boolean,
): Promise<RunView> {
	const { session, start } = workflow;
	if (first) await publish(workflow);
	const method = request.method ?? start.method ?? 'GET';
	const path = (request.path ?? start.webhookPath ?? '').replace(/^\/+/, '');
	const under = start.form ? 'form' : 'webhook';
	const url = `${session.app.url}/${under}/${path}${request.query ? `?${new URLSearchParams(request.query).toString()}` : ''}`;
	const call = () => sendOnce(url, method, request, start.form);
	// A path or method the Webhook does not have stays 404, and is said so.
	const answer = first
		? await whenRegistered(
				call,
				`n8n to answer ${method} /${under}/${path} (404: is it the node's method and path?)`,
			)
		: await call();
	const response = await responseOf(answer);
	if (NOT_STARTED.has(answer.status))
		return {
			status: 'error',
			error: { node: start.node, message: `n8n answered ${answer.status} and started no run` },
			nodes: {},
			outputIndex: byIndex,
			response,
		};
	return { ...viewOf(await settled(workflow, 1), start), response };
}

/**
 * One check of a service's polling trigger (the Lead Inbox Trigger): an activation of the published
 * workflow, which polls once (n8n's own schedule never comes during a test). A check that finds changes starts an execution;
 * one that finds none starts nothing. An activation n8n refuses is the check's error.
 */
async function pollOnce(workflow: Published, first: boolean): Promise<RunView> {
	const { session, start } = workflow;
	const eventsBefore = session.triggerEvents(workflow.name);
	if (!first) await workflow.deactivate();
	const answer = await workflow.activate();
	if (answer.status !== 200) {
		const message = (answer.body?.message ?? JSON.stringify(answer.body)).replace(
			/^There was a problem activating the workflow: "?|"$/g,
			'',
		);
		return {
			status: 'error',
			error: { node: start.node, message },
			nodes: { [start.node]: [{ outputs: [[]], hints: [], error: { message } }] },
			outputIndex: () => 0,
		};
	}
	// n8n logged the check's event (if it found changes) before it answered; one more call to n8n
	// lets this process read what n8n wrote by then.
	await executionList(session.rest, workflow.id);
	const events = session.triggerEvents(workflow.name) - eventsBefore;
	return viewOf(await settled(workflow, events), start);
}

/** What a run's start is given: the items a trigger hands on, the request, whether it is the first. */
interface StartContext {
	items: unknown[];
	request: RequestSpec;
	first: boolean;
}

/** How a run starts, by the kind of start prepare.cts planned. */
export const STARTS: Record<
	StartPlan['kind'],
	(w: Published, c: StartContext) => Promise<RunView>
> = {
	webhook: (w, c) => webhookRun(w, c.items, c.first),
	request: (w, c) => requestRun(w, c.request, c.first),
	poll: (w, c) => pollOnce(w, c.first),
};
