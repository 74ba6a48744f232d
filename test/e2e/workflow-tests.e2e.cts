import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { parseDocument, type YAMLMap, type YAMLSeq } from 'yaml';
import { runCompositeAction } from '../helpers/composite-action.cjs';
import { writeFailureTable } from './failure-table.cjs';
import { ALL_LINES, CACHE, n8nBinOf, NEWEST_LINE } from './n8n-app.cjs';
import { processFolder } from './process-folders.cjs';
import {
	n8nArgs,
	type Outcome,
	outcomeOf,
	pack,
	packedPackage,
	packedRunner,
	ROOT,
} from './support.cjs';

const run = promisify(execFile);

/**
 * `lead-inbox-mock-server test` as a user runs it: a project of its own that installs the two
 * packed packages (the nodes and the server) and keeps its exported workflows and their test
 * files (test/workflow-tests/project), run on each supported n8n line. The right workflows pass;
 * each workflow broken the way users break them fails, naming the case and the expectation; a
 * wrong test file, or a node of another service left unstubbed, exits 2 naming file, line and path
 * before any n8n starts.
 */
const PROJECT = join(ROOT, 'test', 'workflow-tests', 'project');
const MINUTE = 60_000;
/** The newest line's installed n8n, for the tests that need one line only. */
const LATEST_N8N = n8nBinOf(NEWEST_LINE);

/** A workflow broken as a user breaks it, and where its test must say so. */
interface Breakage {
	name: string;
	test: string;
	change(workflow: any, test: string): { workflow: any; test: string };
	/** Where the workflow and its test file are: the project (default) or examples/. */
	in?: 'examples';
	/** A breakage inside a sub-workflow: its export (in workflows/), changed. */
	sub?: { file: string; change(workflow: any): any };
	/** The case that must fail, and the start of the failed expectation's line. */
	failing: { case: string; at: string; says?: RegExp };
}

/** The example workflows a line runs: all of them, but the Data Table lead pulls need n8n 2.x. */
const exampleWorkflows = (version: string) =>
	readdirSync(join(ROOT, 'examples'))
		.filter((f) => f.endsWith('.json') && f !== 'seed.json')
		.filter((f) => !(version.startsWith('1.') && f.startsWith('scheduled-lead-pull')))
		.sort();

const node = (workflow: any, name: string) => workflow.nodes.find((n: any) => n.name === name);
const assignment = (workflow: any, nodeName: string, field: string) =>
	node(workflow, nodeName).parameters.assignments.assignments.find((a: any) => a.name === field);
const MORNING = "a morning's pull sends new dentists with a Meta pixel to HubSpot";
const FOLLOW_UP = 'the follow-up goes out three days after the first email, naming its day';
const WEEKLY =
	"run a week apart, each Monday's pull is dated that Monday, in its Schedule item and $now";

const COLD_EMAIL_LATE =
	'a reply after the two days finds the sequence gone on at the limit, not at the reply';

const CRM_PUSH =
	"the night's leads reach the CRM with its key, and sales hears how many and their ids";
const CRM_RETRY = 'a 429 from the CRM is retried, and sales hears of every lead once';
const GMAIL_INTROS = 'each lead gets an intro, and the caller hears the message ids Gmail gave';
const pushToCrm = (w: any) => node(w, 'Push to CRM');

const BREAKAGES: Breakage[] = [
	// Real HTTP Request, Slack and Gmail nodes against the test's mocks: what they sent, how they
	// met the answers, and what the workflow made of them.
	{
		name: 'crm-body-field-renamed',
		test: 'morning-leads-crm-slack',
		change: (w, t) => (
			(pushToCrm(w).parameters.jsonBody = pushToCrm(w).parameters.jsonBody.replace(
				'email:',
				'mail:',
			)),
			{ workflow: w, test: t }
		),
		failing: { case: CRM_PUSH, at: 'expect.http.0.every.body.email' },
	},
	{
		name: 'crm-put-for-post',
		test: 'morning-leads-crm-slack',
		change: (w, t) => ((pushToCrm(w).parameters.method = 'PUT'), { workflow: w, test: t }),
		failing: {
			case: CRM_PUSH,
			at: 'http',
			says: /^ {4}http: "Push to CRM" sent PUT https:\/\/crm\.example\.test\/api\/v1\/contacts .*no mock answers it.*The nearest mock: mocks\.0 \(POST https:\/\/crm\.example\.test\/api\/v1\/contacts\), whose method differs/,
		},
	},
	{
		name: 'crm-retry-off',
		test: 'morning-leads-crm-slack',
		change: (w, t) => ((pushToCrm(w).retryOnFail = false), { workflow: w, test: t }),
		failing: { case: CRM_RETRY, at: 'expect.status', says: /got error \(node "Push to CRM"/ },
	},
	{
		name: 'slack-wrong-channel',
		test: 'morning-leads-crm-slack',
		change: (w, t) => (
			(node(w, 'Tell sales').parameters.channelId.value = 'C0GENERAL1'),
			{ workflow: w, test: t }
		),
		failing: { case: CRM_PUSH, at: 'expect.nodes.Tell sales.every.channel' },
	},
	{
		// The node's own time-out taken away: n8n's default (5 minutes) is what passes at once.
		name: 'score-timeout-left-to-n8n',
		test: 'enrich-lead-auth-modes',
		change: (w, t) => (
			(node(w, 'Score (bearer auth)').parameters.options = {}),
			{ workflow: w, test: t }
		),
		failing: {
			case: 'the scoring API never answers, the node times out, and the lead goes on unscored',
			at: 'expect.nodes.Score (bearer auth).every.error',
			says: /timeout of 300000ms exceeded/,
		},
	},
	{
		// Gmail's answer has id and threadId; messageId is the Message-ID header's name, not a field.
		name: 'respond-reads-a-field-gmail-never-returns',
		test: 'lead-intros-gmail',
		change: (w, t) => (
			(node(w, 'Answer').parameters.responseBody = node(
				w,
				'Answer',
			).parameters.responseBody.replace('i.json.id)', 'i.json.messageId)')),
			{ workflow: w, test: t }
		),
		failing: {
			case: GMAIL_INTROS,
			at: 'expect.response.body',
			says: /got \{"sent":2,"messageIds":\[null,null\]/,
		},
	},
	{
		// A reply window widened from two days to four: the sequence goes on two days later.
		name: 'reply-window-widened',
		test: 'cold-email-sequence',
		in: 'examples',
		change: (w, t) => (
			(node(w, 'Wait for a reply').parameters.resumeAmount = 4),
			{ workflow: w, test: t }
		),
		failing: {
			case: COLD_EMAIL_LATE,
			at: 'runs.1.expect.nodes.Email 2.sent.every.message',
			says: /Sent 2027-03-05\./,
		},
	},
	{
		name: 'mapping-to-a-missing-field',
		test: 'dentists-to-hubspot',
		change: (w, t) => (
			(assignment(w, 'CRM contact', 'email').value = '={{ $json.mail }}'),
			{ workflow: w, test: t }
		),
		failing: { case: MORNING, at: 'expect.nodes.HubSpot.every.email' },
	},
	{
		// Inside the stubbed node's own parameters, where a passThrough stub saw nothing.
		name: 'mapping-inside-a-stubbed-node',
		test: 'dentists-to-hubspot',
		change: (w, t) => (
			(node(w, 'HubSpot').parameters.email = '={{ $json.mail }}'),
			{ workflow: w, test: t }
		),
		failing: { case: MORNING, at: 'expect.nodes.HubSpot.sent.every.email' },
	},
	{
		name: 'expression-n8n-cannot-resolve-in-a-stubbed-node',
		test: 'dentists-to-hubspot',
		change: (w, t) => (
			(node(w, 'HubSpot').parameters.additionalFields.companyName =
				"={{ $('Company sheet').item.json.name }}"),
			{ workflow: w, test: t }
		),
		failing: {
			case: MORNING,
			at: 'expect.nodes.HubSpot.sent',
			says: /n8n could not resolve parameter "additionalFields\.companyName" of "HubSpot" \(for 10 of 10 item\(s\), the first item 1\): /,
		},
	},
	{
		// The answer built from a field the items do not have.
		name: 'respond-to-webhook-reads-a-missing-field',
		test: 'lead-request-webhook',
		change: (w, t) => (
			(node(w, 'Answer the caller').parameters.responseBody = '={{ { "added": $json.length } }}'),
			{ workflow: w, test: t }
		),
		failing: {
			case: 'a request for dentists is answered with the leads added to the sheet',
			at: 'expect.response.body',
		},
	},
	{
		// The agent's tool without its filter: the model's call is the same, the search is not.
		name: 'agent-tool-without-its-filter',
		test: 'lead-agent',
		change: (w, t) => (delete node(w, 'Fetch Leads').parameters.metaAds, { workflow: w, test: t }),
		failing: {
			case: 'the agent fetches dentists that run Meta ads, and is told what they cost',
			at: 'expect.service.requests.0',
		},
	},
	{
		// Inside a sub-workflow: its expectations fail as the main workflow's do.
		name: 'sub-workflow-maps-a-missing-field',
		test: 'lead-sweep',
		change: (w, t) => ({ workflow: w, test: t }),
		sub: {
			file: 'send-lead-to-crm',
			change: (w) => ((node(w, 'HubSpot').parameters.email = '={{ $json.mail }}'), w),
		},
		failing: {
			case: 'every plumber goes through the CRM sub-workflow, once each',
			at: 'expect.workflows.Send a lead to the CRM.nodes.HubSpot.sent.every.email',
		},
	},
	{
		name: 'wrong-count-mode',
		test: 'dentists-to-hubspot',
		change: (w, t) => (
			(node(w, 'Fetch Leads').parameters.countMode = 'requested'),
			{ workflow: w, test: t }
		),
		failing: {
			case: 'three mornings bring new dentists each, never one twice',
			at: 'expect.distinct',
		},
	},
	{
		name: 'dropped-filter',
		test: 'dentists-to-hubspot',
		change: (w, t) => (delete node(w, 'Fetch Leads').parameters.metaAds, { workflow: w, test: t }),
		failing: { case: MORNING, at: 'expect.nodes.Fetch Leads.every.runsMetaAds' },
	},
	{
		name: 'unwired-failed-output',
		test: 'onboard-inboxes',
		change: (w, t) => (w.connections['Create Inboxes'].main.splice(1), { workflow: w, test: t }),
		failing: {
			case: "the sheet's inboxes are created and a bad one is reported to the team",
			at: 'expect.nodes.Tell the team.items',
		},
	},
	{
		name: 'password-from-the-wrong-column',
		test: 'onboard-inboxes',
		change: (w, t) => (
			(node(w, 'Create Inboxes').parameters.imapPassword = '={{ $json.password }}'),
			{ workflow: w, test: t }
		),
		failing: {
			case: "the sheet's inboxes are created and a bad one is reported to the team",
			at: 'expect.nodes.Welcome note.items',
		},
	},
	{
		name: 'trigger-watching-the-wrong-event',
		test: 'inbox-alert',
		change: (w, t) => (
			(node(w, 'Inbox broke').parameters.event = 'newInbox'),
			{ workflow: w, test: t }
		),
		failing: {
			case: 'an inbox that breaks raises one alert on the next check',
			at: 'runs.1.expect.nodes.Alert text.items',
		},
	},
	// Time: the follow-up example, on its fixed clock, and the approval resumed by a request.
	{
		name: 'wait-of-2-days',
		test: 'follow-up-after-3-days',
		in: 'examples',
		change: (w, t) => ((node(w, 'Wait 3 days').parameters.amount = 2), { workflow: w, test: t }),
		failing: {
			case: FOLLOW_UP,
			at: 'expect.nodes.Days since first email.every.daysWaited',
			says: /expected every item to have daysWaited = 3; item 1 of 5 has 2 /,
		},
	},
	{
		// The follow-up dated from the clock now instead of from the node that stamped the first email.
		name: 'date-taken-from-the-wrong-node',
		test: 'follow-up-after-3-days',
		in: 'examples',
		change: (w, t) => (
			(node(w, 'Send follow-up').parameters.subject =
				'=Following up: my email of {{ $now.toISODate() }}'),
			{ workflow: w, test: t }
		),
		failing: {
			case: FOLLOW_UP,
			at: 'expect.nodes.Send follow-up.sent.every.subject',
			says: /"Following up: my email of 2027-03-04"/,
		},
	},
	{
		name: 'last-weeks-date',
		test: 'follow-up-after-3-days',
		in: 'examples',
		change: (w, t) => (
			(assignment(w, 'Stamp the first email', 'week').value =
				"={{ $now.minus({ weeks: 1 }).startOf('week').toISODate() }}"),
			{ workflow: w, test: t }
		),
		failing: {
			case: WEEKLY,
			at: 'runs.0.expect.nodes.Stamp the first email.every.week',
			says: /"2027-02-22"/,
		},
	},
	{
		// The approval read from the wrong field: the resume's body is under body.
		name: 'approval-read-from-the-wrong-field',
		test: 'lead-approval',
		change: (w, t) => (
			(node(w, 'Approved?').parameters.conditions.conditions[0].leftValue =
				'={{ $json.approved }}'),
			{ workflow: w, test: t }
		),
		failing: {
			case: 'a lead request waits for approval, and the approval two hours later fetches the leads',
			at: 'runs.1.expect.response.body',
			says: /"declined"/,
		},
	},
	{
		// No answer taken for a yes: a request nobody approved in time fetches leads anyway.
		name: 'no-answer-taken-for-approval',
		test: 'lead-approval',
		change: (w, t) => (
			(node(w, 'Approved?').parameters.conditions.conditions[0].leftValue =
				'={{ $json.body.approved !== false }}'),
			{ workflow: w, test: t }
		),
		failing: {
			case: "a request nobody answers within the Approval's two days expires, and fetches nothing",
			at: 'runs.1.expect.nodes.Fetch Leads.ran',
		},
	},
];

describe('lead-inbox-mock-server test, in a user project', () => {
	let project: string;
	let failureCases: number;
	let serverTarball: string;
	let runnerTarball: string;
	const bin = (program = 'lead-inbox-mock-server') =>
		join(project, 'node_modules', '.bin', program);
	/** `<bin> test ...` in the project: lead-inbox-mock-server's, or n8n-testkit's own. */
	const runTests = (
		args: string[],
		env: Record<string, string> = {},
		program: 'lead-inbox-mock-server' | 'n8n-testkit' = 'lead-inbox-mock-server',
	): Promise<Outcome> => outcomeOf(bin(program), ['test', ...args], { cwd: project, env });
	const n8nOf = n8nArgs;

	beforeAll(async () => {
		const nodes = packedPackage();
		serverTarball = pack(join(ROOT, 'mock-server'), 'pack-server');
		// The workflow test runner the server depends on (n8n-testkit), from its packed tarball.
		runnerTarball = packedRunner();
		project = processFolder(CACHE, 'workflow-tests-project');
		cpSync(PROJECT, project, { recursive: true });
		writeFileSync(join(project, 'package.json'), '{"name":"my-n8n-workflows","private":true}\n');
		// The user's install; offline from npm's cache (tests reach only loopback). The nodes'
		// peer (n8n-workflow) comes with n8n, not with the project.
		await run(
			'npm',
			[
				'install',
				'--no-audit',
				'--no-fund',
				'--prefer-offline',
				'--legacy-peer-deps',
				'--save-dev',
				nodes,
				serverTarball,
				runnerTarball,
			],
			{ cwd: project },
		);
		// Every node × failure × On Error setting, as workflows and test files of their own.
		failureCases = writeFailureTable(join(project, 'failures'));
		// The broken workflows, each with its test file, in a folder of their own.
		mkdirSync(join(project, 'broken'));
		for (const b of BREAKAGES) {
			const [workflows, tests] =
				b.in === 'examples'
					? [join(ROOT, 'examples'), join(ROOT, 'examples', 'workflow-tests')]
					: [join(PROJECT, 'workflows'), join(PROJECT, 'tests')];
			const workflow = JSON.parse(readFileSync(join(workflows, `${b.test}.json`), 'utf8'));
			const test = readFileSync(join(tests, `${b.test}.test.yaml`), 'utf8').replace(
				/^workflow: .*$/m,
				`workflow: ./${b.name}.json`,
			);
			const changed = b.change(workflow, test);
			if (b.sub) {
				// The broken copy, named in the test file: it wins over the right one found by its ID.
				const sub = JSON.parse(
					readFileSync(join(PROJECT, 'workflows', `${b.sub.file}.json`), 'utf8'),
				);
				writeFileSync(
					join(project, 'broken', `${b.name}.sub.json`),
					JSON.stringify(b.sub.change(sub)),
				);
				changed.test = changed.test.replace(
					/^workflow: .*$/m,
					(line) => `${line}\nworkflows: [./${b.name}.sub.json]`,
				);
			}
			// Only the case that must fail: the others would pass or fail for the same reason.
			const file = parseDocument(changed.test);
			const cases = file.get('cases') as YAMLSeq<YAMLMap>;
			cases.items = cases.items.filter((c) => c.get('name') === b.failing.case);
			writeFileSync(join(project, 'broken', `${b.name}.json`), JSON.stringify(changed.workflow));
			writeFileSync(join(project, 'broken', `${b.name}.test.yaml`), file.toString());
		}
	}, 15 * MINUTE);

	describe.each(ALL_LINES)('on n8n $version', (line) => {
		test(
			"every case of the right workflows and of the examples' test files passes; JUnit and the job summary say so",
			async () => {
				const summary = join(project, `summary-${line.version}.md`);
				// The example workflows' test files too (the Data Table lead pull needs n8n 2.x).
				const examples = join(ROOT, 'examples', 'workflow-tests');
				const exampleFiles = line.version.startsWith('1.')
					? exampleWorkflows(line.version).map((f) =>
							join(examples, f.replace(/\.json$/, '.test.yaml')),
						)
					: [examples];
				const outcome = await runTests(
					[
						'tests',
						...exampleFiles,
						...n8nOf(line),
						'--jobs',
						'2',
						'--junit',
						`reports/${line.version}.xml`,
						'--show',
						'--report',
						`reports/cases-${line.version}`,
						'--coverage',
						`reports/coverage-${line.version}`,
					],
					{ GITHUB_STEP_SUMMARY: summary },
				);
				const passed = Number(/(\d+) passed, 0 failed/.exec(outcome.stdout)?.[1]);
				expect({ code: outcome.code, out: outcome.stdout, passed: passed >= 10 }).toEqual({
					code: 0,
					out: outcome.stdout,
					passed: true,
				});
				expect(outcome.stdout).toContain(
					`\u2713 tests/inbox-alert.test.yaml \u203a an inbox that breaks raises one alert on the next check`,
				);
				expect(outcome.stdout).toContain(
					'\u2713 tests/dentists-to-hubspot.test.yaml \u203a three mornings bring new dentists each, never one twice',
				);
				// Every AI Agent version the line offers (3, 2.2, the 1.9 Tools Agent) tells its model
				// why a tool call failed (a tool that throws reaches Agent 2.x as an empty string).
				for (const file of ['lead-agent', 'lead-agent-v2', 'lead-agent-v1'])
					for (const told of [
						'the agent is told the search was refused for credits (402), and why',
						'the agent is told Max Credits per Run refused the search, and nothing was sent',
					])
						expect(outcome.stdout).toContain(`\u2713 tests/${file}.test.yaml \u203a ${told}`);
				// Time: a Wait of 3 days passed at once on the case's clock, said by --show; a Wait
				// for a request resumed by the next run's request.
				expect(outcome.stdout).toContain(`follow-up-after-3-days.test.yaml \u203a ${FOLLOW_UP} (`);
				expect(outcome.stdout).toMatch(
					/"Wait 3 days" waited on time: the clock moved from 2027-03-01T09:00:\S+ to 2027-03-04T09:00:\S+ at once/,
				);
				expect(outcome.stdout).toContain(
					'\u2713 tests/lead-approval.test.yaml \u203a a lead request waits for approval, and the approval two hours later fetches the leads',
				);
				// A moved clock passes a Wait's limit at the limit: Email 2 is dated the day it ended.
				expect(outcome.stdout).toContain(
					`cold-email-sequence.test.yaml \u203a ${COLD_EMAIL_LATE} (`,
				);
				expect(outcome.stdout).toMatch(
					/"Wait for a reply" timed out, no request having come: the clock moved from 2027-03-01T09:00:\S+ to 2027-03-03T09:00:\S+ at once/,
				);
				// Each run's clock, in the workflow's zone too; a run the Schedule would never start, warned of.
				expect(outcome.stdout).toMatch(
					/clock 2027-03-29T07:00:\S+ \u2192 \S+ \(Europe\/Berlin: Mon 2027-03-29 09:00:\d\d \+02:00 \u2192 /,
				);
				expect(outcome.stdout).toMatch(
					/ {4}warning: runs\.3: the run starts at Mon 2027-03-29 10:00:\d\d \+02:00 \(Europe\/Berlin\), a time "Weekdays at 9" never fires at; its next firing is Tue 2027-03-30 09:00:00 \+02:00\./,
				);
				// A real HTTP Request node against the test's mocks: its requests listed with their answers.
				expect(outcome.stdout).toContain(
					`\u2713 tests/morning-leads-crm-slack.test.yaml \u203a ${CRM_RETRY} (`,
				);
				expect(outcome.stdout).toMatch(
					/ {8}"Push to CRM": POST https:\/\/crm\.example\.test\/api\/v1\/contacts -> 201 \(answered by mocks\.0\) body \{"email":/,
				);
				// Shipped answers, a Gmail message shown as what it says, an OAuth2 token refreshed.
				expect(outcome.stdout).toMatch(
					/ {8}"Tell sales": POST https:\/\/slack\.com\/api\/chat\.postMessage -> 200 \(answered by mocks\.1 \(slack\.postMessage\)\) body \{"channel":"C0SALES42"/,
				);
				expect(outcome.stdout).toMatch(
					/ {8}"Send intro": POST https:\/\/www\.googleapis\.com\/gmail\/v1\/users\/me\/messages\/send -> 200 \(answered by mocks\.0 \(gmail\.send\)\) mail \{"to":"nguyen\.dentist\.71@inbox-mail\.test","subject":"A quick question for Nguyen Dentist"/,
				);
				expect(outcome.stdout).toContain(
					'\u2713 tests/lead-intros-gmail.test.yaml \u203a an expired token is refreshed at Google once, and the intro is sent again with the new one (',
				);
				// A workflow's error workflow runs when a run fails, and is checked.
				expect(outcome.stdout).toContain(
					'\u2713 tests/morning-pull-with-alert.test.yaml \u203a the lead search is down, and the error workflow alerts the team naming the node and why',
				);
				expect(outcome.stderr).toContain(`starting n8n ${line.version}`);
				// What a passing case did, on the console (--show) and as JSON (--report).
				expect(outcome.stdout).toContain(
					'      sub-workflow "Send a lead to the CRM": 8 executions, success',
				);
				// Coverage: a line per workflow, coverage.json and a page per workflow.
				expect(outcome.stdout).toContain('  Send a lead to the CRM: nodes 4/4, branches 2/2');
				const coverage = JSON.parse(
					readFileSync(
						join(project, 'reports', `coverage-${line.version}`, 'coverage.json'),
						'utf8',
					),
				);
				expect(coverage.n8nVersions).toEqual([line.version]);
				// The examples' test files run every node of every example this line runs (both
				// triggers of the scheduled pulls included); their branch coverage goes to CI's log.
				const examplesRun = coverage.workflows.filter((w: any) => w.file.includes('examples/'));
				expect(examplesRun.map((w: any) => basename(w.file)).sort()).toEqual(
					exampleWorkflows(line.version),
				);
				expect(
					examplesRun.filter((w: any) => w.nodes.covered < w.nodes.total).map((w: any) => w.name),
				).toEqual([]);
				console.log(
					`Coverage of the examples on n8n ${line.version}:\n${outcome.stdout
						.split('\n')
						.filter((l) => examplesRun.some((w: any) => l.startsWith(`  ${w.name}: `)))
						.join('\n')}`,
				);
				expect(
					coverage.workflows.find((w: any) => w.name === 'Send a lead to the CRM').cases,
				).toEqual([
					'tests/lead-sweep.test.yaml \u203a every plumber goes through the CRM sub-workflow, once each',
				]);
				const sweep = JSON.parse(
					readFileSync(
						join(
							project,
							'reports',
							`cases-${line.version}`,
							'tests__lead-sweep.test.yaml',
							'01-every-plumber-goes-through-the-CRM-sub-workflow-once-each.json',
						),
						'utf8',
					),
				);
				expect(sweep.case.detail.workflows['Send a lead to the CRM']).toMatchObject({
					executions: 8,
					nodes: { 'Has email?': { items: [6, 2] }, HubSpot: { items: [6] } },
					sent: { HubSpot: { items: 6 } },
				});
				const junit = readFileSync(join(project, 'reports', `${line.version}.xml`), 'utf8');
				expect(junit).toContain(
					`<testsuites name="n8n workflow tests" tests="${passed}" failures="0">`,
				);
				expect(junit.match(/<testcase /g)).toHaveLength(passed);
				expect(readFileSync(summary, 'utf8')).toMatch(
					new RegExp(
						`all passed, ${passed} passed[\\s\\S]*\\| \u2705 \\| tests/onboard-inboxes\\.test\\.yaml \\|`,
					),
				);
			},
			20 * MINUTE,
		);

		test(
			'every failure reaches the user: each node of the package × each failure kind × each On Error setting',
			async () => {
				const outcome = await runTests(['failures', ...n8nOf(line), '--jobs', '2']);
				expect({ code: outcome.code, out: outcome.stdout }).toEqual({
					code: 0,
					out: expect.stringContaining(`\u2713 ${failureCases} passed, 0 failed`),
				});
			},
			15 * MINUTE,
		);

		test(
			'a workflow broken as users break it fails, naming the case and the expectation that failed',
			async () => {
				const summary = join(project, `broken-${line.version}.md`);
				const outcome = await runTests(
					[
						'broken',
						...n8nOf(line),
						'--jobs',
						'2',
						'--junit',
						`reports/broken-${line.version}.xml`,
					],
					{ GITHUB_STEP_SUMMARY: summary },
				);
				expect(outcome.code).toBe(1);
				const lines = outcome.stdout.split('\n');
				for (const b of BREAKAGES) {
					const head = lines.indexOf(
						lines.find((l) =>
							l.startsWith(`\u2717 broken/${b.name}.test.yaml \u203a ${b.failing.case} (`),
						)!,
					);
					expect({ breakage: b.name, failed: head >= 0 }).toEqual({
						breakage: b.name,
						failed: true,
					});
					const failures = lines
						.slice(head + 1)
						.filter((_, i, rest) => rest.slice(0, i + 1).every((l) => l.startsWith('    ')));
					const named = failures.find((l) => l.startsWith(`    ${b.failing.at}`));
					expect({ breakage: b.name, failures, named: named !== undefined }).toEqual({
						breakage: b.name,
						failures,
						named: true,
					});
					if (b.failing.says) expect(named).toMatch(b.failing.says);
				}
				const junit = readFileSync(join(project, 'reports', `broken-${line.version}.xml`), 'utf8');
				expect(junit).toMatch(/<failure message="/);
				expect(readFileSync(summary, 'utf8')).toMatch(
					/#### What failed[\s\S]*broken\/dropped-filter\.test\.yaml/,
				);
			},
			20 * MINUTE,
		);
	});

	test(
		"the same test files through n8n-testkit's own bin: the server's package is installed, so the Lead Inbox service joins, and the results are the same",
		async () => {
			const args = ['tests', ...n8nOf(NEWEST_LINE), '--jobs', '2', '--report', 'reports/testkit'];
			const viaServer = await runTests([...args.slice(0, -1), 'reports/testkit-server']);
			const viaTestkit = await runTests(args, {}, 'n8n-testkit');
			// Each case's line (its name and verdict), without its time.
			const verdicts = (out: string) =>
				out
					.split('\n')
					.filter((l) => /^[\u2713\u2717] tests\//.test(l))
					.map((l) => l.replace(/ \([^)]*\)$/, ''))
					.sort();
			expect({ code: viaTestkit.code, out: viaTestkit.stdout }).toEqual({
				code: 0,
				out: viaTestkit.stdout,
			});
			expect(verdicts(viaTestkit.stdout)).toEqual(verdicts(viaServer.stdout));
			expect(verdicts(viaTestkit.stdout).length).toBeGreaterThan(10);
			// The same reports: every case's file, passed, with what the Lead Inbox service got.
			const cases = (dir: string) =>
				readdirSync(join(project, dir), { recursive: true })
					.map(String)
					.filter((f) => f.endsWith('.json'))
					.sort();
			expect(cases('reports/testkit')).toEqual(cases('reports/testkit-server'));
		},
		20 * MINUTE,
	);

	test(
		"coverage merged over the run's lines is the union of each line's",
		async () => {
			const lines = ALL_LINES.map((l) => join('reports', `coverage-${l.version}`));
			const outcome = await runTests([
				'coverage',
				'merge',
				...lines,
				'--out',
				'reports/coverage-all',
			]);
			expect(outcome).toMatchObject({ code: 0 });
			const read = (dir: string) =>
				JSON.parse(readFileSync(join(project, dir, 'coverage.json'), 'utf8'));
			const merged = read('reports/coverage-all');
			const perLine = lines.map(read);
			expect(merged.n8nVersions.sort()).toEqual(ALL_LINES.map((l) => l.version).sort());
			// Every workflow any line ran, with the nodes and branches any line covered.
			const covered = (w: any) => ({
				nodes: w.graph.nodes
					.filter((n: any) => n.cases.length)
					.map((n: any) => n.name)
					.sort(),
				branches: w.graph.nodes
					.flatMap((n: any) =>
						n.outputs.length > 1
							? n.outputs.filter((o: any) => o.items).map((o: any) => `${n.name} ${o.index}`)
							: [],
					)
					.sort(),
			});
			const union = new Map<string, { nodes: Set<string>; branches: Set<string> }>();
			for (const file of perLine)
				for (const w of file.workflows) {
					const into = union.get(w.file) ?? { nodes: new Set(), branches: new Set() };
					covered(w).nodes.forEach((n: string) => into.nodes.add(n));
					covered(w).branches.forEach((b: string) => into.branches.add(b));
					union.set(w.file, into);
				}
			expect(Object.fromEntries(merged.workflows.map((w: any) => [w.file, covered(w)]))).toEqual(
				Object.fromEntries(
					[...union].map(([file, u]) => [
						file,
						{ nodes: [...u.nodes].sort(), branches: [...u.branches].sort() },
					]),
				),
			);
			expect(outcome.stdout).toContain(`Coverage of ${ALL_LINES.length} run(s)`);
		},
		5 * MINUTE,
	);

	test(
		"four shards of the examples' tests run every file once, and their merged coverage equals the unsharded run's",
		async () => {
			// As a CI matrix of four jobs runs them: side by side, each with its own n8n and coverage.
			const examples = join(ROOT, 'examples', 'workflow-tests');
			const shards = await Promise.all(
				[1, 2, 3, 4].map((i) =>
					runTests([
						examples,
						'--n8n',
						LATEST_N8N,
						'--shard',
						`${i}/4`,
						'--jobs',
						'1',
						'--coverage',
						`reports/coverage-shard-${i}`,
					]),
				),
			);
			expect(shards.map((s) => (s.code ? s.stdout : 0))).toEqual([0, 0, 0, 0]);
			const filesOf = (stdout: string) => [
				...new Set([...stdout.matchAll(/^\u2713 (\S+\.test\.yaml) \u203a/gm)].map((m) => m[1])),
			];
			const ran = shards.flatMap((s) => filesOf(s.stdout));
			const all = readdirSync(examples).filter((f) => f.endsWith('.test.yaml'));
			expect(ran.map((f) => basename(f)).sort()).toEqual(all.sort());
			expect(shards.every((s) => filesOf(s.stdout).length > 0)).toBe(true);
			const merged = await runTests([
				'coverage',
				'merge',
				...[1, 2, 3, 4].map((i) => `reports/coverage-shard-${i}`),
				'--out',
				'reports/coverage-shards',
			]);
			expect(merged.code).toBe(0);
			// The unsharded run: the newest line's run of the same files (with the project's own).
			const read = (dir: string) =>
				JSON.parse(readFileSync(join(project, 'reports', dir, 'coverage.json'), 'utf8'))
					.workflows as any[];
			const byFile = (workflows: any[]) =>
				Object.fromEntries(
					workflows
						.filter((w) => w.file.includes('examples/'))
						.map((w) => [w.file, { nodes: w.nodes, branches: w.branches, cases: w.cases }]),
				);
			expect(byFile(read('coverage-shards'))).toEqual(
				byFile(read(`coverage-${NEWEST_LINE.version}`)),
			);
		},
		15 * MINUTE,
	);

	test(
		"n8n's Data Tables are emptied between test files unless a file keeps them, and a worker's n8n past --n8n-memory is started afresh",
		async () => {
			// Three files of one workflow that adds a row to its Data Table, run in order on one n8n.
			const state = join(ROOT, 'test', 'workflow-tests', 'n8n-state');
			const files = ['a-first', 'b-second', 'c-kept'].map((f) => join(state, `${f}.test.yaml`));
			const kept = await runTests([...files, '--n8n', LATEST_N8N, '--jobs', '1']);
			expect({ code: kept.code, out: kept.stdout }).toEqual({ code: 0, out: kept.stdout });
			expect(kept.stderr).toContain(
				'emptied what the files before left in n8n: 1 Data Table(s), 0 variable(s)',
			);
			expect(kept.stderr.match(/starting n8n /g)).toHaveLength(1);
			// A limit every n8n is past: the second file gets a fresh n8n (and the first's table is gone).
			const small = await runTests([
				...files.slice(0, 2),
				'--n8n',
				LATEST_N8N,
				'--jobs',
				'1',
				'--n8n-memory',
				'64',
			]);
			expect({ code: small.code, out: small.stdout }).toEqual({ code: 0, out: small.stdout });
			expect(small.stderr).toMatch(
				/\[\S*b-second\.test\.yaml\] n8n uses \d+ MB, past the limit of 64 MB \(--n8n-memory\): starting a fresh one/,
			);
			expect(small.stderr.match(/starting n8n /g)).toHaveLength(2);
		},
		10 * MINUTE,
	);

	test(
		'--watch keeps n8n running and reruns what a change touches: a test file, a workflow export; Enter reruns all, q quits',
		async () => {
			const dir = join(project, 'watched');
			mkdirSync(join(dir, 'workflows'), { recursive: true });
			for (const f of ['dentists-to-hubspot', 'inbox-alert'])
				cpSync(join(PROJECT, 'workflows', `${f}.json`), join(dir, 'workflows', `${f}.json`));
			const testOf = (f: string) =>
				readFileSync(join(PROJECT, 'tests', `${f}.test.yaml`), 'utf8').replace(
					/^workflow: .*$/m,
					`workflow: ./workflows/${f}.json`,
				);
			const hubspot = join(dir, 'hubspot.test.yaml');
			const alert = join(dir, 'alert.test.yaml');
			// One case each: the first of the project's file.
			const firstCase = (text: string) => {
				const file = parseDocument(text);
				(file.get('cases') as YAMLSeq).items.splice(1);
				return file.toString();
			};
			writeFileSync(hubspot, firstCase(testOf('dentists-to-hubspot')));
			writeFileSync(alert, firstCase(testOf('inbox-alert')));
			// A memory limit no pass reaches: the n8n started for the first pass serves them all.
			const watcher = spawn(
				bin(),
				['test', 'watched', '--watch', '--n8n', LATEST_N8N, '--n8n-memory', '8192'],
				{
					cwd: project,
					stdio: ['pipe', 'pipe', 'pipe'],
				},
			);
			let out = '';
			let err = '';
			watcher.stdout.on('data', (chunk) => (out += chunk));
			watcher.stderr.on('data', (chunk) => (err += chunk));
			const exited = new Promise<number | null>((resolve) => watcher.once('exit', resolve));
			/** Waits for the watch's n-th pass to end (its "Watching" line); the passes' text. */
			const passes = async (n: number) => {
				const deadline = Date.now() + 5 * MINUTE;
				while (out.split('\nWatching ').length - 1 < n) {
					if (Date.now() > deadline || watcher.exitCode !== null)
						throw new Error(`no pass ${n} of --watch:\n${out}\n${err.slice(-3000)}`);
					await new Promise((resolve) => setTimeout(resolve, 100));
				}
				return out.split('\nWatching ').slice(0, n);
			};
			try {
				const [first] = await passes(1);
				expect(first).toContain('Running all 2 test file(s)');
				expect(first).toMatch(/\u2713 2 passed, 0 failed, in 2 file\(s\)/);
				// A test file changed: it alone reruns, and fails as changed.
				writeFileSync(hubspot, readFileSync(hubspot, 'utf8').replace(/items: 10\b/, 'items: 9'));
				const second = (await passes(2))[1];
				expect(second).toContain('Running 1 changed test file(s): watched/hubspot.test.yaml');
				expect(second).toMatch(
					/expect\.nodes\.Fetch Leads\.items: expected exactly 9 item\(s\), got 10/,
				);
				expect(second).not.toContain('watched/alert.test.yaml');
				// Saved without a change (the test file), then a workflow export changed: only the
				// file that runs that workflow reruns.
				writeFileSync(hubspot, readFileSync(hubspot, 'utf8'));
				const workflow = join(dir, 'workflows', 'inbox-alert.json');
				const changed = JSON.parse(readFileSync(workflow, 'utf8'));
				changed.name = `${changed.name} (renamed)`;
				writeFileSync(workflow, JSON.stringify(changed, null, 2));
				const third = (await passes(3))[2];
				expect(third).toContain('Running 1 changed test file(s): watched/alert.test.yaml');
				expect(third).not.toContain('watched/hubspot.test.yaml');
				// Enter: every file.
				watcher.stdin.write('\n');
				const fourth = (await passes(4))[3];
				expect(fourth).toContain('Running all 2 test file(s)');
				// n8n was started once, for the first pass, and kept.
				expect(err.match(/starting n8n /g)).toHaveLength(1);
				watcher.stdin.write('q');
				// Exit status 1: hubspot.test.yaml fails as last run.
				expect(await exited).toBe(1);
			} finally {
				watcher.kill();
			}
		},
		15 * MINUTE,
	);

	test(
		'a suite that skips a branch: coverage names it on the console, in coverage.json and on its page, and --coverage-min fails',
		async () => {
			// The CRM sub-workflow tested on its own, with leads that all have an email.
			mkdirSync(join(project, 'skips'), { recursive: true });
			writeFileSync(
				join(project, 'skips', 'crm.test.yaml'),
				[
					'workflow: ../workflows/send-lead-to-crm.json',
					'stubs: { HubSpot: passThrough }',
					'cases:',
					'  - name: leads with an email go to HubSpot',
					'    input: [{ name: Blue Sky Plumbing, email: office@blue-sky.test }, { name: Ace Plumbing, email: hi@ace.test }]',
					'    expect: { nodes: { HubSpot: { items: 2 } } }',
					'',
				].join('\n'),
			);
			const outcome = await runTests([
				'skips',
				'--n8n',
				LATEST_N8N,
				'--coverage',
				'reports/coverage-skips',
				'--coverage-min',
				'nodes=100,branches=80',
			]);
			expect(outcome.code).toBe(1);
			expect(outcome.stdout).toContain(
				'\u2713 skips/crm.test.yaml \u203a leads with an email go to HubSpot',
			);
			expect(outcome.stdout).toContain(
				'  Send a lead to the CRM: nodes 3/4, branches 1/2; never: "No email", Has email? \u203a false',
			);
			expect(outcome.stdout).toContain(
				'coverage: nodes 75 % (3/4) is below --coverage-min nodes=100; never: "No email" (Send a lead to the CRM)',
			);
			expect(outcome.stdout).toContain(
				'coverage: branches 50 % (1/2) is below --coverage-min branches=80; never: Has email? \u203a false (Send a lead to the CRM)',
			);
			const dir = join(project, 'reports', 'coverage-skips');
			const [workflow] = JSON.parse(readFileSync(join(dir, 'coverage.json'), 'utf8')).workflows;
			expect(workflow).toMatchObject({
				nodes: { total: 4, covered: 3, missed: ['No email'] },
				branches: { total: 2, covered: 1, missed: [{ node: 'Has email?', output: 'false' }] },
			});
			const page = readFileSync(join(dir, '01-Send-a-lead-to-the-CRM.html'), 'utf8');
			expect(page).toContain('never: &#34;No email&#34;, Has email? › false');
		},
		10 * MINUTE,
	);

	test(
		'test init writes a first test file for each example workflow, and each passes as written',
		async () => {
			const examples = readdirSync(join(ROOT, 'examples'))
				.filter((f) => f.endsWith('.json') && f !== 'seed.json')
				.map((f) => join(ROOT, 'examples', f));
			const n8n = ['--n8n', LATEST_N8N];
			const init = await runTests(['init', ...examples, '--out', 'first-tests', ...n8n]);
			expect({
				code: init.code,
				stderr: init.stderr.split('\n').filter((l) => l.startsWith('Error')),
			}).toEqual({ code: 0, stderr: [] });
			for (const example of examples)
				expect(init.stdout).toContain(
					`Wrote ${join(project, 'first-tests', basename(example).replace(/\.json$/, '.test.yaml'))}: it passes as written.`,
				);
			// Each file names a schema an editor loads: the installed package's, relative to the file.
			for (const example of examples) {
				const written = join(
					project,
					'first-tests',
					basename(example).replace(/\.json$/, '.test.yaml'),
				);
				const schema = /^# yaml-language-server: \$schema=(.+)$/m.exec(
					readFileSync(written, 'utf8'),
				)?.[1];
				expect(schema).toBe(
					'../node_modules/lead-inbox-mock-server/dist/workflow-test.schema.json',
				);
				expect(existsSync(join(dirname(written), schema!))).toBe(true);
			}
			// The Webhook example's request carries the fields its workflow reads, with sample values:
			// its first case follows the happy path (a search, leads answered).
			const webhook = parseDocument(
				readFileSync(join(project, 'first-tests', 'lead-request-webhook.test.yaml'), 'utf8'),
			).toJS();
			expect(webhook.cases[0].request.body).toEqual({
				niche: expect.any(String),
				city: expect.any(String),
				count: expect.any(Number),
			});
			expect(webhook.cases[0].expect.status).toBe('success');
			expect(webhook.seed.accounts[0].pools).toBeUndefined();
			// A workflow reading the time plays at the minute its file was written; one that does not
			// runs on the machine's time (its file names no clock).
			expect(webhook.clock).toBeUndefined();
			const followUp = parseDocument(
				readFileSync(join(project, 'first-tests', 'follow-up-after-3-days.test.yaml'), 'utf8'),
			).toJS();
			// A scheduled one plays at the Schedule's first firing after that minute.
			expect(followUp.clock).toEqual({
				nextFiringAfter: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00Z$/),
			});
			// A Wait for a request with a limit: a case resumes it by a request (with what the
			// workflow reads of it), a case lets the limit pass; each says what ran after the Wait.
			const sequence = parseDocument(
				readFileSync(join(project, 'first-tests', 'cold-email-sequence.test.yaml'), 'utf8'),
			).toJS();
			expect(sequence.cases.map((c: any) => c.runs[1].resume)).toEqual([
				{ body: { reply: expect.any(String) } },
				{ timeout: true },
			]);
			expect(sequence.cases[1].runs[1].expect.nodes['Email 3']).toMatchObject({ items: 1 });
			// A stubbed Gmail node could run for real: the advice names the answers shipped for it.
			expect(
				readFileSync(join(project, 'first-tests', 'follow-up-after-3-days.test.yaml'), 'utf8'),
			).toMatch(
				/take away its stub and answer its requests with mocks: "Send first email": mocks: \[\{ use: gmail \}\]/,
			);
			const cases = readdirSync(join(project, 'first-tests'))
				.filter((f) => f.endsWith('.test.yaml'))
				.reduce(
					(n, f) =>
						n +
						parseDocument(readFileSync(join(project, 'first-tests', f), 'utf8')).toJS().cases
							.length,
					0,
				);
			// Written again only when asked.
			const again = await runTests(['init', examples[0], '--out', 'first-tests', ...n8n]);
			expect(again.code).toBe(2);
			expect(again.stderr).toMatch(/exists: pass --force to write over it/);
			const outcome = await runTests(['first-tests', ...n8n, '--jobs', '2']);
			expect({ code: outcome.code, out: outcome.stdout }).toEqual({ code: 0, out: outcome.stdout });
			expect(outcome.stdout).toContain(`\u2713 ${cases} passed, 0 failed`);
		},
		15 * MINUTE,
	);

	test(
		'the composite action runs the tests (tests input) and fills the job summary',
		async () => {
			const summary = join(project, 'action-summary.md');
			writeFileSync(summary, '');
			const action = await runCompositeAction(
				join(ROOT, 'mock-server'),
				{
					package: `${serverTarball} ${runnerTarball}`,
					tests: 'tests/inbox-alert.test.yaml',
					n8n: LATEST_N8N,
					junit: 'reports/action.xml',
					report: 'reports/action-cases',
					show: 'true',
				},
				{
					workspace: project,
					runnerTemp: processFolder(CACHE, 'workflow-tests-runner-temp'),
					env: { GITHUB_STEP_SUMMARY: summary },
				},
			);
			expect(action.log).toContain(
				'\u2713 tests/inbox-alert.test.yaml \u203a an inbox that breaks raises one alert on the next check',
			);
			expect(readFileSync(join(project, 'reports', 'action.xml'), 'utf8')).toContain(
				'tests="1" failures="0"',
			);
			expect(readFileSync(summary, 'utf8')).toContain('all passed, 1 passed');
			expect(action.log).toMatch(/^ {6}run 2: success$/m);
			expect(
				JSON.parse(
					readFileSync(
						join(
							project,
							'reports',
							'action-cases',
							'tests__inbox-alert.test.yaml',
							'01-an-inbox-that-breaks-raises-one-alert-on-the-next-check.json',
						),
						'utf8',
					),
				).case.detail.runs,
			).toHaveLength(3);
		},
		5 * MINUTE,
	);

	test('a wrong test file, a forgotten stub or a sub-workflow not found exits 2 naming its file, line and path, and no n8n starts', async () => {
		mkdirSync(join(project, 'wrong'), { recursive: true });
		writeFileSync(
			join(project, 'wrong', 'typos.test.yaml'),
			[
				'workflow: ../workflows/dentists-to-hubspot.json',
				'stubs: { HubSpot: passThrough }',
				'cases:',
				'  - name: typos',
				'    expect:',
				'      nodes:',
				'        HubSpot: { items: 3 }',
				'        Fetch Leads: { items: many }',
				'      servce: { creditsCharged: 0 }',
				'',
			].join('\n'),
		);
		writeFileSync(
			join(project, 'wrong', 'names.test.yaml'),
			'workflow: ../workflows/dentists-to-hubspot.json\nstubs: { HubSpot: passThrough }\ncases:\n  - name: a node name with a typo\n    expect:\n      nodes: { Hubspot: { ran: true } }\n',
		);
		// The project's own test of a workflow with HubSpot, its stubs left out.
		writeFileSync(
			join(project, 'wrong', 'forgot.test.yaml'),
			readFileSync(join(PROJECT, 'tests', 'dentists-to-hubspot.test.yaml'), 'utf8')
				.replace(/^workflow: .*$/m, 'workflow: ../workflows/dentists-to-hubspot.json')
				.replace(/^stubs:\n(  .*\n)+/m, ''),
		);
		// A sub-workflow's HubSpot without its stub.
		writeFileSync(
			join(project, 'wrong', 'forgot-in-sub.test.yaml'),
			readFileSync(join(PROJECT, 'tests', 'lead-sweep.test.yaml'), 'utf8')
				.replace(/^workflow: .*$/m, 'workflow: ../workflows/lead-sweep.json')
				.replace(/^stubs:\n(  .*\n)+/m, ''),
		);
		// The workflow copied without the sub-workflow it calls.
		mkdirSync(join(project, 'alone'), { recursive: true });
		cpSync(
			join(PROJECT, 'workflows', 'lead-sweep.json'),
			join(project, 'alone', 'lead-sweep.json'),
		);
		writeFileSync(
			join(project, 'wrong', 'sub-missing.test.yaml'),
			readFileSync(join(PROJECT, 'tests', 'lead-sweep.test.yaml'), 'utf8').replace(
				/^workflow: .*$/m,
				'workflow: ../alone/lead-sweep.json',
			),
		);
		const outcome = await runTests(['wrong', '--n8n', LATEST_N8N]);
		expect(outcome.code).toBe(2);
		expect(outcome.stdout).toContain(
			'wrong/typos.test.yaml:9: cases.0.expect: unknown field "servce"',
		);
		expect(outcome.stdout).toContain(
			'wrong/typos.test.yaml:8: cases.0.expect.nodes.Fetch Leads.items: expected a number or an object',
		);
		expect(outcome.stdout).toContain(
			'wrong/names.test.yaml:6: cases.0.expect.nodes.Hubspot: the workflow has no node named "Hubspot"',
		);
		expect(outcome.stdout).toMatch(
			/^wrong\/forgot\.test\.yaml:2: workflow: node "HubSpot" \(n8n-nodes-base\.hubspot\) would call another service: stub it/m,
		);
		expect(outcome.stdout).toMatch(
			/^wrong\/forgot-in-sub\.test\.yaml:\d+: workflow: node "HubSpot" \(n8n-nodes-base\.hubspot\) in sub-workflow "Send a lead to the CRM" would call another service: stub it/m,
		);
		expect(outcome.stdout).toMatch(
			/^wrong\/sub-missing\.test\.yaml:\d+: workflow: node "Send to CRM" \(in "Plumbers to the CRM through a sub-workflow"\) calls workflow ID crmSubflow000001 \("Send a lead to the CRM"\), which is none of the exports looked at/m,
		);
		expect(outcome.stdout).toContain('nothing was run');
		expect(outcome.stderr).not.toContain('starting n8n');
	});

	test("time edges: a reply after the Wait timed out fails at once saying when, a resume n8n refuses fails with its answer, and --show gives each run's clock", async () => {
		const dir = join(project, 'time-edges');
		mkdirSync(dir, { recursive: true });
		cpSync(join(ROOT, 'examples', 'cold-email-sequence.json'), join(dir, 'sequence.json'));
		writeFileSync(
			join(dir, 'edges.test.yaml'),
			[
				'workflow: sequence.json',
				'clock: 2027-03-01T09:00:00Z',
				'seed: { accounts: [{ apiKey: lik_my_test_account_0001, credits: 100 }] }',
				'stubs: { Email 1: passThrough, Email 2: passThrough, Email 3: passThrough }',
				'cases:',
				'  - name: a reply three days on',
				'    runs:',
				"      - { request: { body: { niche: dentist, city: 'Austin, TX' } }, expect: { status: waiting } }",
				'      - { before: [{ advanceClock: 3d }], resume: { body: { reply: "yes" } } }',
				'  - name: a resume to a path the Wait does not listen on',
				'    runs:',
				"      - { request: { body: { niche: dentist, city: 'Austin, TX' } }, expect: { status: waiting } }",
				'      - resume: { path: elsewhere, body: { reply: "yes" } }',
				'',
			].join('\n'),
		);
		const outcome = await runTests(['time-edges', '--n8n', LATEST_N8N, '--show']);
		expect(outcome.code).toBe(1);
		// Before: the late reply was taken (the "yes" path a day after the limit).
		expect(outcome.stdout).toMatch(
			/\u2717 time-edges\/edges\.test\.yaml \u203a a reply three days on \((?!0\.0 s)[\d.]+ s\)\n {4}run: the case could not run: runs\.1\.resume: "Wait for a reply" timed out at 2027-03-03T09:00:\S+, when its time limit ended with no request, before this run \(the clock is at 2027-03-04T09:00:\S+\)/,
		);
		// Before: it waited 300 s, then "timed out after 300000 ms", with no word of n8n's answer.
		expect(outcome.stdout).toMatch(
			/runs\.1\.resume: n8n answered 404 to POST \/webhook-waiting\/\d+ and resumed nothing: "Wait for a reply" still waits \(execution \d+\)\. n8n said: /,
		);
		expect(outcome.stdout).not.toContain('timed out after 300000 ms');
	});

	test('outputs are named as n8n shows them: Leads, Spend and the error output are read; a name the node lacks exits 2 listing its names, and no n8n starts', async () => {
		// The morning pull's Fetch Leads with its Spend output and On Error = Continue (using error
		// output): a climb whose second request fails after the first brought nothing new.
		const workflow = JSON.parse(
			readFileSync(join(PROJECT, 'workflows', 'dentists-to-hubspot.json'), 'utf8'),
		);
		const fetch = node(workflow, 'Fetch Leads');
		Object.assign(fetch, { onError: 'continueErrorOutput' });
		Object.assign(fetch.parameters, { countMode: 'newLeads', spendOutput: true });
		workflow.connections['Fetch Leads'].main.push([], []);
		mkdirSync(join(project, 'outputs'), { recursive: true });
		writeFileSync(join(project, 'outputs', 'pull.json'), JSON.stringify(workflow));
		const file = (leads: string, spend: string, error: string) =>
			[
				'workflow: pull.json',
				'seed: { accounts: [{ apiKey: lik_my_test_account_0001, credits: 200 }] }',
				'stubs: { HubSpot: passThrough }',
				'cases:',
				'  - name: leads on Leads, the spend on Spend, nothing on the error output',
				'    expect:',
				`      nodes: { Fetch Leads: [{ output: ${leads}, items: 10 }, { output: ${spend}, items: 1 }, { output: ${error}, items: 0 }] }`,
				'  - name: a failed climb reaches the error output',
				'    faults:',
				'      - { route: POST /api/v1/niche-finder-leads, status: 200, body: { contacts: [], chargedCredits: 0 }, times: 1 }',
				'      - { route: POST /api/v1/niche-finder-leads, status: 503, times: 10 }',
				'    expect:',
				'      status: success',
				`      nodes: { Fetch Leads: [{ output: ${leads}, items: 0 }, { output: ${error}, items: 1 }], HubSpot: { ran: false } }`,
				'',
			].join('\n');
		writeFileSync(join(project, 'outputs', 'pull.test.yaml'), file('Spent', 'Spend', 'Failed'));
		const wrong = await runTests(['outputs', '--n8n', LATEST_N8N]);
		expect(wrong.code).toBe(2);
		expect(wrong.stdout).toContain(
			'outputs/pull.test.yaml:7: cases.0.expect.nodes.Fetch Leads.0.output: node "Fetch Leads" has no output named "Spent": its outputs are "Leads", "Spend", "error" (or an index from 0)',
		);
		expect(wrong.stdout).toMatch(/pull\.test\.yaml:\d+: .*no output named "Failed"/);
		expect(wrong.stderr).not.toContain('starting n8n');
		writeFileSync(join(project, 'outputs', 'pull.test.yaml'), file('Leads', 'Spend', 'Error'));
		const right = await runTests(['outputs', '--n8n', LATEST_N8N]);
		expect(right).toMatchObject({ code: 0, stdout: expect.stringContaining('✓ 2 passed') });
	});
});
