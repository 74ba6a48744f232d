/**
 * When a workflow's Schedule fires, read from its rules as n8n reads them: each rule becomes the
 * cron expression n8n's Schedule Trigger registers (its seconds, which n8n picks at random, as
 * 0), evaluated by `cron`, the library n8n itself schedules with, in the Schedule's zone (the
 * workflow's timezone, else the runner's n8n default, UTC), clock changes included. Rules of
 * every n-th hour, day, week or month fire on a subset n8n keeps by its last run; here each one
 * counts, as n8n's first firing after activation does. The old Cron and Interval nodes are not read.
 */
import { CronTime } from 'cron';
import { readable } from '../clock/zoned.cjs';
import type { Workflow, WorkflowNode } from './workflow.cjs';

export const SCHEDULE_TRIGGER = 'n8n-nodes-base.scheduleTrigger';

/** The zone a workflow's schedule and its clock are read in. */
export function workflowZone(workflow: Workflow): string {
	const zone = (workflow.settings as { timezone?: unknown } | undefined)?.timezone;
	return typeof zone === 'string' && zone && zone !== 'DEFAULT' ? zone : 'UTC';
}

interface Rule {
	field?: string;
	expression?: string;
	minutesInterval?: number;
	hoursInterval?: number;
	daysInterval?: number;
	weeksInterval?: number;
	monthsInterval?: number;
	triggerAtMinute?: number;
	triggerAtHour?: number;
	triggerAtDay?: number[];
	triggerAtDayOfMonth?: number;
}

/**
 * The cron expressions a Schedule node fires on (minutes and above: a rule every few seconds
 * fires at every minute too), or why they cannot be known before n8n runs it.
 */
export function scheduleCrons(node: WorkflowNode): string[] | string {
	if (node.type !== SCHEDULE_TRIGGER)
		return `"${node.name}" is not a Schedule Trigger (${node.type}): name one`;
	const rules = (node.parameters?.rule as { interval?: Rule[] } | undefined)?.interval ?? [{}];
	const crons: string[] = [];
	for (const rule of rules) {
		// n8n's defaults, which an export leaves out.
		const field = rule.field ?? 'days';
		const minute = rule.triggerAtMinute ?? 0;
		const hour = rule.triggerAtHour ?? 0;
		if (field === 'cronExpression') {
			if (!rule.expression || rule.expression.includes('{{'))
				return `"${node.name}" sets its cron expression by an expression: give the clock as an instant`;
			crons.push(rule.expression);
		} else if (field === 'seconds') crons.push('0 * * * * *');
		else if (field === 'minutes') crons.push(`0 */${rule.minutesInterval ?? 5} * * * *`);
		else if (field === 'hours') crons.push(`0 ${minute} */${rule.hoursInterval ?? 1} * * *`);
		else if (field === 'days') crons.push(`0 ${minute} ${hour} * * *`);
		else if (field === 'weeks') {
			const days = rule.triggerAtDay ?? [0];
			crons.push(`0 ${minute} ${hour} * * ${days.length ? days.join(',') : '*'}`);
		} else if (field === 'months')
			crons.push(
				`0 ${minute} ${hour} ${rule.triggerAtDayOfMonth ?? 1} */${rule.monthsInterval ?? 1} *`,
			);
		else return `"${node.name}" has a rule the runner does not read (${field})`;
	}
	return crons;
}

/** The first firing of any of the crons after `after` (epoch ms), in `zone`. */
export function nextFiring(crons: string[], after: number, zone: string): number {
	// cron moves on from the start's next second: a firing at `after` itself comes next.
	const from = new Date(after - 1000);
	return Math.min(
		...crons.map((cron) => new CronTime(cron, zone).getNextDateFrom(from, zone).toMillis()),
	);
}

/** The workflow's Schedule Trigger nodes, enabled. */
export const schedulesOf = (workflow: Workflow): WorkflowNode[] =>
	workflow.nodes.filter((n) => n.type === SCHEDULE_TRIGGER && !n.disabled);

/** How long after a Schedule's firing a run may start and still be that firing's run. */
const FIRING_SLACK_MS = 5 * 60_000;

/**
 * For a workflow started by a Schedule Trigger: what says that a run starts at a time the
 * Schedule never fires (advanceClock: 1d from a Friday 9:00 in Berlin lands on 10:00 after the
 * clock change), its next firing named; undefined where its firings cannot be known.
 */
export function offScheduleCheck(
	workflow: Workflow,
	startNode: string,
): ((at: number) => string | undefined) | undefined {
	const node = workflow.nodes.find((n) => n.name === startNode);
	const crons = node ? scheduleCrons(node) : undefined;
	if (!node || !Array.isArray(crons)) return undefined;
	const zone = workflowZone(workflow);
	return (at) =>
		nextFiring(crons, at - FIRING_SLACK_MS, zone) <= at
			? undefined
			: `the run starts at ${readable(at, zone)} (${zone}), a time "${node.name}" never fires at; its next firing is ${readable(nextFiring(crons, at, zone), zone)}. Set the run's clock to a firing (clock: { nextFiringAfter: ... })`;
}
