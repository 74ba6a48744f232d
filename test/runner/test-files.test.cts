import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { leadInboxTestCommand as testCommand } from '../../mock-server/src/workflow-tests/command.cjs';
import { leadInboxSchema } from '../../mock-server/src/workflow-tests/schema.cjs';
import { leadInboxService } from '../../mock-server/src/workflow-tests/service.cjs';
import { loadTestFile, TestFileError } from '../../n8n-testkit/src/file/load.cjs';
import { referenceTables } from '../../n8n-testkit/src/file/reference.cjs';
import { testFileJsonSchema } from '../../n8n-testkit/src/file/schema.cjs';
import { findTestFiles, runWorkflowTests } from '../../n8n-testkit/src/run.cjs';
import { Services } from '../../n8n-testkit/src/services/services.cjs';
import { parseShard, shardOf } from '../../n8n-testkit/src/shard.cjs';

/**
 * Test files as users write them: the project's own load, a wrong one is named with its file, line
 * and path before anything runs, and the published JSON Schema accepts what the runner accepts.
 */
const ROOT = join(__dirname, '..', '..');
/** The Lead Inbox server's schema: the runner's format with the service's fields. */
const SCHEMA = join(ROOT, 'mock-server', 'workflow-test.schema.json');
const RUNNER_SCHEMA = join(ROOT, 'n8n-testkit', 'workflow-test.schema.json');
const DOC = join(ROOT, 'n8n-testkit', 'docs', 'testing-workflows.md');
const TEST_FILES = [
	...findTestFiles(join(ROOT, 'examples', 'workflow-tests')),
	...findTestFiles(join(ROOT, 'test', 'workflow-tests', 'project', 'tests')),
];

/** A folder with the project's test workflows and the given test files. */
function project(files: Record<string, string>): string {
	const dir = mkdtempSync(join(tmpdir(), 'workflow-test-files-'));
	writeFileSync(
		join(dir, 'flow.json'),
		readFileSync(
			join(ROOT, 'test', 'workflow-tests', 'project', 'workflows', 'dentists-to-hubspot.json'),
		),
	);
	for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
	return dir;
}

const problemsOf = (dir: string, file: string) => {
	try {
		loadTestFile(file, dir, new Services([leadInboxService()]));
	} catch (error) {
		if (error instanceof TestFileError)
			return error.problems.map((p) => `${p.file}:${p.line ?? '-'}: ${p.path}: ${p.message}`);
		throw error;
	}
	return [];
};

describe('workflow test files', () => {
	it.each(TEST_FILES.map((f) => [f.slice(ROOT.length + 1)]))('%s loads', (file) => {
		expect(problemsOf(ROOT, file)).toEqual([]);
	});

	it('names each problem with its line and path: unknown field, wrong value, missing field, union forms', () => {
		const dir = project({
			'a.test.yaml': [
				'workflow: flow.json', // 1
				'stubs: { HubSpot: passThrough }', // 2
				'cases:', // 3
				'  - name: one', // 4
				'    runs: 0', // 5
				'    expect:', // 6
				'      nodes:', // 7
				'        Fetch Leads: { items: { atLeast: -1 } }', // 8
				'        HubSpot: { every: { email: "/@/" }, itemz: 3 }', // 9
				'      service: { inboxes: { status: { broken: 1 } } }', // 10
				'  - expect: {}', // 11
				'',
			].join('\n'),
		});
		expect(problemsOf(dir, 'a.test.yaml')).toEqual([
			'a.test.yaml:5: cases.0.runs: Too small: expected number to be >=1',
			'a.test.yaml:8: cases.0.expect.nodes.Fetch Leads.items.atLeast: Too small: expected number to be >=0',
			'a.test.yaml:9: cases.0.expect.nodes.HubSpot: unknown field "itemz"',
			expect.stringMatching(
				/^a\.test\.yaml:10: cases\.0\.expect\.service\.inboxes\.status\.broken: /,
			),
			'a.test.yaml:11: cases.1.name: missing: give a string',
		]);
	});

	it('names nodes the workflow does not have, and the node left to call another service, in one pass', () => {
		const dir = project({
			'b.test.yaml':
				'workflow: flow.json\nstubs: { Hubspot: passThrough }\ncases:\n  - name: x\n    expect: { error: { node: Fetch leads } }\n',
		});
		expect(problemsOf(dir, 'b.test.yaml')).toEqual([
			'b.test.yaml:2: stubs.Hubspot: the workflow has no node named "Hubspot" (it has: Every morning, Fetch Leads, CRM contact, HubSpot)',
			'b.test.yaml:5: cases.0.expect.error.node: the workflow has no node named "Fetch leads" (it has: Every morning, Fetch Leads, CRM contact, HubSpot)',
			'b.test.yaml:2: stubs: node "HubSpot" (n8n-nodes-base.hubspot) would call another service: stub it in the test file (stubs: { "HubSpot": passThrough }, or { items: [...] } for what it should hand on), or let it run for real and answer its requests with mocks (mocks: [{ use: hubspot }], the answers shipped for it)',
		]);
	});

	it("names wrong node names beside the problems of the file's shape, and a stub missing in one case", () => {
		const dir = project({
			'g.test.yaml': [
				'workflow: flow.json',
				'cases:',
				'  - name: stubbed',
				'    stubs: { HubSpot: passThrough }',
				'    runs: many',
				'  - name: not stubbed',
				'    expect: { nodes: { Hubspot: { items: 1 } } }',
				'',
			].join('\n'),
		});
		expect(problemsOf(dir, 'g.test.yaml')).toEqual([
			'g.test.yaml:5: cases.0.runs: expected a number or an array',
			'g.test.yaml:7: cases.1.expect.nodes.Hubspot: the workflow has no node named "Hubspot" (it has: Every morning, Fetch Leads, CRM contact, HubSpot)',
		]);
		// Its shape right, the case that does not stub HubSpot is named.
		writeFileSync(
			join(dir, 'g.test.yaml'),
			'workflow: flow.json\ncases:\n  - name: stubbed\n    stubs: { HubSpot: passThrough }\n  - name: not stubbed\n',
		);
		expect(problemsOf(dir, 'g.test.yaml')).toEqual([
			'g.test.yaml:5: cases.1.name: node "HubSpot" (n8n-nodes-base.hubspot) would call another service: stub it in the test file (stubs: { "HubSpot": passThrough }, or { items: [...] } for what it should hand on), or let it run for real and answer its requests with mocks (mocks: [{ use: hubspot }], the answers shipped for it) (other cases stub or mock it; this one does not)',
		]);
	});

	it('says where the YAML itself is broken, and what is wrong with the workflow file', () => {
		const dir = project({
			'c.test.yaml': 'workflow: flow.json\ncases:\n  - name: x\n    expect: { status: success\n',
			'd.test.yaml': 'workflow: missing.json\ncases: [{ name: x }]\n',
			'e.test.json': JSON.stringify({ workflow: 'e.test.json', cases: [{ name: 'x' }] }),
			'f.test.yaml':
				'workflow: flow.json\nseed: { accounts: [{ apiKey: lik_seeded_key_000001 }] }\ncredential: lik_other_key_0000001\ncases: [{ name: x }]\n',
		});
		expect(problemsOf(dir, 'c.test.yaml')[0]).toMatch(/^c\.test\.yaml:[45]: : /);
		expect(problemsOf(dir, 'd.test.yaml')).toEqual([
			expect.stringMatching(
				/^d\.test\.yaml:1: workflow: no such file: .*missing\.json \(the path is relative to the test file\)$/,
			),
		]);
		expect(problemsOf(dir, 'f.test.yaml')).toEqual([
			"f.test.yaml:3: credential: no account of the file's seed has this key: give one of lik_seeded_key_000001",
			'f.test.yaml:1: workflow: node "HubSpot" (n8n-nodes-base.hubspot) would call another service: stub it in the test file (stubs: { "HubSpot": passThrough }, or { items: [...] } for what it should hand on), or let it run for real and answer its requests with mocks (mocks: [{ use: hubspot }], the answers shipped for it)',
		]);
		expect(problemsOf(dir, 'e.test.json')).toEqual([
			expect.stringMatching(
				/^e\.test\.json:1: workflow: .* is not an n8n workflow \(no nodes and connections\)/,
			),
		]);
	});

	it('refuses a body to a form, form fields to a Webhook and a field the form lacks', () => {
		const workflows = join(ROOT, 'test', 'workflow-tests', 'project', 'workflows');
		const dir = project({
			'form.json': readFileSync(join(workflows, 'lead-request-form.json'), 'utf8'),
			'hook.json': readFileSync(join(workflows, 'lead-request-webhook.json'), 'utf8'),
			'f.test.yaml': [
				'workflow: form.json',
				'stubs: { Add to sheet: passThrough }',
				'cases:',
				'  - name: a body',
				'    request: { body: { Niche: dentist } }',
				'  - name: a field the form lacks',
				'    request: { form: { Niche: dentist, Town: Austin } }',
				'',
			].join('\n'),
			'w.test.yaml': [
				'workflow: hook.json',
				'stubs: { Add to sheet: passThrough }',
				'cases: [{ name: fields, request: { form: { niche: dentist } } }]',
				'',
			].join('\n'),
		});
		expect(problemsOf(dir, 'f.test.yaml')).toEqual([
			'f.test.yaml:5: cases.0.request.body: "Lead request form" is a Form Trigger: give its fields as form: { <label>: value } (it has: Niche, City, How many, Only with a Meta pixel)',
			'f.test.yaml:7: cases.1.request.form.Town: the form of "Lead request form" has no field "Town" (it has: Niche, City, How many, Only with a Meta pixel)',
		]);
		expect(problemsOf(dir, 'w.test.yaml')).toEqual([
			'w.test.yaml:3: cases.0.request.form: "Lead request" is a Webhook, not a Form Trigger: send what it takes as body (JSON or text)',
		]);
	});

	it('refuses a request to a workflow that does not start at a Webhook, and an answer no request asked for', () => {
		const dir = project({
			'h.test.yaml': [
				'workflow: flow.json',
				'stubs: { HubSpot: passThrough }',
				'cases:',
				'  - name: a request to a schedule',
				'    request: { body: { a: 1 } }',
				'  - name: an answer without a request',
				'    expect: { response: { status: 200 } }',
				'',
			].join('\n'),
		});
		expect(problemsOf(dir, 'h.test.yaml')).toEqual([
			'h.test.yaml:5: cases.0.request: the workflow starts at "Every morning" (n8n-nodes-base.scheduleTrigger), not a Webhook or a Form Trigger: a request calls one of those; give input items instead',
			'h.test.yaml:7: cases.1.expect.response: the case sends no request, so there is no answer to check: give it a request',
		]);
	});

	it('refuses a clock that is not an instant, a clock moved backwards, a resume with nothing to resume, a field the waiting form lacks and a timeout of a wait with no time limit', () => {
		const dir = project({
			'c.test.yaml': [
				'workflow: flow.json', // 1
				'clock: 2027-03-01 09:00', // 2
				'stubs: { HubSpot: passThrough }', // 3
				'cases:', // 4
				'  - name: a local time is no instant', // 5
				'    clock: 2027-03-01T09:00:00', // 6
				'    advanceClock: -1d', // 7
				'    runs:', // 8
				'      - before: [{ advanceClock: -3600 }]', // 9
				'      - clock: 2027-03-32T09:00:00Z', // 10
				'',
			].join('\n'),
		});
		const instant =
			'must be an instant with its time zone, like 2027-03-01T09:00:00Z or 2027-03-01T10:00:00+01:00';
		expect(problemsOf(dir, 'c.test.yaml').sort()).toEqual([
			'c.test.yaml:10: cases.0.runs.1.clock: 2027-03-32 is not a date: that month has 31 days',
			`c.test.yaml:2: clock: ${instant}`,
			`c.test.yaml:6: cases.0.clock: ${instant}`,
			'c.test.yaml:7: cases.0.advanceClock: the clock only moves forward: give how far, like 1d',
			'c.test.yaml:9: cases.0.runs.0.before.0.advanceClock: the clock only moves forward: give a number of seconds of 1 or more',
		]);
		const resumes = project({
			'r.test.yaml': [
				'workflow: flow.json', // 1
				'stubs: { HubSpot: passThrough }', // 2
				'cases:', // 3
				'  - name: resumes where nothing waits', // 4
				'    runs:', // 5
				'      - resume: { body: { approved: true } }', // 6
				'      - { input: [{}], resume: {} }', // 7
				'      - resume: {}', // 8
				'      - resume: { timeout: true }', // 9
				'',
			].join('\n'),
		});
		expect(problemsOf(resumes, 'r.test.yaml')).toEqual([
			'r.test.yaml:6: cases.0.runs.0.resume: the first run has nothing to resume: a resume continues the execution an earlier run left waiting (status: waiting)',
			'r.test.yaml:7: cases.0.runs.1.resume: a run starts the workflow (input) or resumes a waiting execution (resume), not both: make them two runs',
			'r.test.yaml:8: cases.0.runs.2.resume: no node of the workflow waits for a request (a Wait resuming on a webhook or a form, a Form node, a send-and-wait): there is nothing to resume',
			'r.test.yaml:9: cases.0.runs.3.resume.timeout: no node of the workflow waits for a request with a time limit (a Wait on a webhook or a form with Limit Wait Time on): there is nothing to time out',
		]);
		writeFileSync(
			join(resumes, 't.test.yaml'),
			[
				'workflow: flow.json', // 1
				'stubs: { HubSpot: passThrough }', // 2
				'cases:', // 3
				'  - name: a timeout that is not', // 4
				'    runs: [{}, { resume: { timeout: false } }]', // 5
				'',
			].join('\n'),
		);
		expect(problemsOf(resumes, 't.test.yaml')).toEqual([
			't.test.yaml:5: cases.0.runs.1.resume.timeout: expected true: leave timeout out to resume by a request',
		]);
		// A timeout sends nothing, so nothing answers it.
		const approval = join(
			ROOT,
			'test',
			'workflow-tests',
			'project',
			'workflows',
			'lead-approval.json',
		);
		writeFileSync(
			join(resumes, 'a.test.yaml'),
			[
				`workflow: ${approval}`, // 1
				'cases:', // 2
				'  - name: an answer to a timeout', // 3
				'    runs:', // 4
				'      - request: { body: {} }', // 5
				'      - resume: { timeout: true }', // 6
				'        expect: { response: { status: 200 } }', // 7
				'',
			].join('\n'),
		);
		expect(problemsOf(resumes, 'a.test.yaml')).toEqual([
			'a.test.yaml:7: cases.0.runs.1.expect.response: the run lets the time limit pass (resume: { timeout: true }): no request is sent, so there is no answer to check',
		]);
		// A form's fields, checked against the form that waits for them.
		const form = join(
			ROOT,
			'test',
			'workflow-tests',
			'project',
			'workflows',
			'approval-by-form.json',
		);
		writeFileSync(
			join(resumes, 'f.test.yaml'),
			[
				`workflow: ${form}`, // 1
				'cases:', // 2
				'  - name: a field the form lacks', // 3
				'    runs:', // 4
				'      - {}', // 5
				"      - resume: { form: { Decison: 'yes' } }", // 6
				'      - resume: { timeout: true }', // 7
				"      - resume: { timeout: true, form: { Decision: 'yes' } }", // 8
				'',
			].join('\n'),
		);
		expect(problemsOf(resumes, 'f.test.yaml')).toEqual([
			'f.test.yaml:6: cases.0.runs.1.resume.form.Decison: the form of "Approve the leads" has no field "Decison" (it has: Decision)',
			'f.test.yaml:7: cases.0.runs.2.resume.timeout: no node that waits for a request has a time limit ("Approve the leads": Limit Wait Time is off): only a request resumes it',
			"f.test.yaml:8: cases.0.runs.3.resume: a resume sends a request or lets the wait's time limit pass (timeout), not both: leave out form, or timeout",
		]);
	});

	it('refuses an impossible date, and takes weeks as a duration', () => {
		const dir = project({
			'd.test.yaml': [
				'workflow: flow.json', // 1
				'clock: 2027-02-30T09:00:00Z', // 2
				'stubs: { HubSpot: passThrough }', // 3
				'cases:', // 4
				'  - name: two weeks on', // 5
				'    clock: 2028-02-29T09:00:00Z', // 6
				'    advanceClock: 2w', // 7
				'    runs: [{}, { clock: 2027-13-01T00:00:00Z }, { before: [{ advanceClock: 1.5w }] }]', // 8
				'',
			].join('\n'),
		});
		expect(problemsOf(dir, 'd.test.yaml')).toEqual([
			'd.test.yaml:2: clock: 2027-02-30 is not a date: that month has 28 days',
			'd.test.yaml:8: cases.0.runs.1.clock: 2027-13-01 is not a date: months go from 01 to 12',
		]);
	});

	it('refuses a resume n8n would not take: a method the Wait does not listen for, a body on a GET, naming both', () => {
		const dir = project({});
		const approval = JSON.parse(
			readFileSync(
				join(ROOT, 'test', 'workflow-tests', 'project', 'workflows', 'lead-approval.json'),
				'utf8',
			),
		);
		writeFileSync(join(dir, 'approval.json'), JSON.stringify(approval));
		const approvalOnGet = structuredClone(approval);
		approvalOnGet.nodes.find((n: any) => n.name === 'Approval').parameters.httpMethod = 'GET';
		writeFileSync(join(dir, 'approval-get.json'), JSON.stringify(approvalOnGet));
		const file = (workflow: string, resume: string) =>
			[
				`workflow: ${workflow}`, // 1
				'cases:', // 2
				'  - name: a resume', // 3
				'    runs:', // 4
				'      - request: { body: {} }', // 5
				`      - resume: ${resume}`, // 6
				'',
			].join('\n');
		writeFileSync(join(dir, 'm.test.yaml'), file('approval.json', '{ method: GET }'));
		writeFileSync(
			join(dir, 'g.test.yaml'),
			file('approval-get.json', '{ body: { approved: true } }'),
		);
		writeFileSync(
			join(dir, 'ok.test.yaml'),
			file('approval-get.json', '{ query: { approved: "yes" } }'),
		);
		expect(problemsOf(dir, 'm.test.yaml')).toEqual([
			'm.test.yaml:6: cases.0.runs.1.resume.method: no waiting node listens for GET ("Approval" listens for POST): n8n would answer and resume nothing. Leave method out (the waiting node\'s own is used), or change the node\'s HTTP Method',
		]);
		expect(problemsOf(dir, 'g.test.yaml')).toEqual([
			'g.test.yaml:6: cases.0.runs.1.resume.body: a GET request carries no body ("Approval" listens for GET): send what it reads as query, or set the node\'s HTTP Method to POST',
		]);
		expect(problemsOf(dir, 'ok.test.yaml')).toEqual([]);
	});

	it('refuses a model script on a node that is not a chat model, and a turn calling a tool the workflow lacks', () => {
		const dir = project({
			'm.test.yaml': [
				'workflow: flow.json',
				'stubs:',
				'  HubSpot:',
				'    model:',
				'      - toolCalls: [{ tool: Fetch leads }]',
				'      - answer: done',
				'cases: [{ name: x }]',
				'',
			].join('\n'),
		});
		expect(problemsOf(dir, 'm.test.yaml')).toEqual([
			'm.test.yaml:5: stubs.HubSpot.model: "HubSpot" (n8n-nodes-base.hubspot) is not a chat model: a model script stubs a chat model sub-node (stub this node with passThrough or items)',
			'm.test.yaml:5: stubs.HubSpot.model.0.toolCalls.0.tool: turn 1 calls "Fetch leads", which the workflow does not have (its tools are nodes: Every morning, Fetch Leads, CRM contact, HubSpot)',
		]);
	});

	it('finds sub-workflows by their ID beside the workflow or under workflows:, and names each one it cannot follow', () => {
		const workflows = join(ROOT, 'test', 'workflow-tests', 'project', 'workflows');
		const dir = mkdtempSync(join(tmpdir(), 'workflow-test-files-'));
		const sweep = JSON.parse(readFileSync(join(workflows, 'lead-sweep.json'), 'utf8'));
		writeFileSync(join(dir, 'sweep.json'), JSON.stringify(sweep));
		// The caller with its call chosen by an expression, and a sub-workflow that calls itself.
		sweep.nodes[2].parameters.workflowId.value = '={{ $json.flow }}';
		writeFileSync(join(dir, 'by-expression.json'), JSON.stringify(sweep));
		const sub = JSON.parse(readFileSync(join(workflows, 'send-lead-to-crm.json'), 'utf8'));
		const looping = structuredClone(sub);
		looping.nodes.push({ ...sweep.nodes[2], name: 'Again', parameters: { workflowId: sub.id } });
		mkdirSync(join(dir, 'elsewhere'));
		writeFileSync(join(dir, 'elsewhere', 'crm.json'), JSON.stringify(sub));
		writeFileSync(join(dir, 'elsewhere', 'looping.json'), JSON.stringify(looping));
		const file = (workflow: string, extra = '') =>
			`workflow: ${workflow}\n${extra}stubs: { HubSpot: passThrough }\ncases: [{ name: x, expect: { workflows: { Send a lead to the CRM: { executions: 1 } } } }]\n`;
		writeFileSync(join(dir, 'missing.test.yaml'), file('sweep.json'));
		writeFileSync(
			join(dir, 'listed.test.yaml'),
			file('sweep.json', 'workflows: [elsewhere/crm.json]\n'),
		);
		writeFileSync(
			join(dir, 'loop.test.yaml'),
			file('sweep.json', 'workflows: [elsewhere/looping.json]\n'),
		);
		writeFileSync(
			join(dir, 'expression.test.yaml'),
			file('by-expression.json', 'workflows: [elsewhere/crm.json]\n'),
		);
		writeFileSync(
			join(dir, 'stubbed.test.yaml'),
			'workflow: sweep.json\nstubs: { Send to CRM: passThrough }\ncases: [{ name: x }]\n',
		);

		expect(problemsOf(dir, 'missing.test.yaml')).toEqual([
			'missing.test.yaml:1: workflow: node "Send to CRM" (in "Plumbers to the CRM through a sub-workflow") calls workflow ID crmSubflow000001 ("Send a lead to the CRM"), which is none of the exports looked at (the *.json beside sweep.json): export it from n8n into ., list its file under workflows:, or stub the node',
			expect.stringMatching(
				/^missing\.test\.yaml:2: stubs\.HubSpot: the workflow has no node named "HubSpot"/,
			),
			'missing.test.yaml:3: cases.0.expect.workflows.Send a lead to the CRM: the workflow calls no sub-workflow named "Send a lead to the CRM" (it calls none the runner creates)',
		]);
		expect(problemsOf(dir, 'listed.test.yaml')).toEqual([]);
		expect(
			loadTestFile('listed.test.yaml', dir, new Services([leadInboxService()])).subWorkflows.map(
				(s) => s.name,
			),
		).toEqual(['Send a lead to the CRM']);
		expect(problemsOf(dir, 'loop.test.yaml')).toEqual([
			'loop.test.yaml:2: workflows: workflows call each other (Send a lead to the CRM → Send a lead to the CRM): the runner creates a sub-workflow before its callers, so it cannot create a cycle; stub node "Again"',
		]);
		expect(problemsOf(dir, 'expression.test.yaml')).toEqual([
			expect.stringMatching(
				/^expression\.test\.yaml:2: workflows: node "Send to CRM" \(in "Plumbers to the CRM through a sub-workflow"\) chooses the workflow it calls with an expression/,
			),
			expect.stringMatching(/stubs\.HubSpot: the workflow has no node named "HubSpot"/),
			expect.stringMatching(/calls no sub-workflow named "Send a lead to the CRM"/),
		]);
		// A call stubbed for the whole file needs no sub-workflow.
		expect(problemsOf(dir, 'stubbed.test.yaml')).toEqual([]);
	});

	it('--shard i/n deals the files out: every file in exactly one shard, the same split every time', () => {
		const shards = [1, 2, 3, 4].map((i) => shardOf(TEST_FILES, parseShard(`${i}/4`), ROOT));
		expect(shards.flat().sort()).toEqual([...TEST_FILES].sort());
		expect(shards.map((s) => s.length)).toEqual(
			[0, 1, 2, 3].map((i) => Math.ceil((TEST_FILES.length - i) / 4)),
		);
		expect(shardOf([...TEST_FILES].reverse(), parseShard('2/4'), ROOT)).toEqual(shards[1]);
		for (const wrong of ['0/4', '5/4', '2', 'a/b'])
			expect(() => parseShard(wrong)).toThrow(/--shard takes i\/n/);
	});

	it('--watch refuses the options that report on a whole run, and --n8n-memory takes a size in MB (exit 2)', async () => {
		const said: string[] = [];
		const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
			said.push(String(chunk));
			return true;
		});
		try {
			expect(await testCommand(['--watch', '--coverage', 'c', '--junit', 'j.xml'])).toBe(2);
			expect(await testCommand(['--n8n-memory', '10'])).toBe(2);
		} finally {
			spy.mockRestore();
		}
		expect(said).toEqual([
			'Error: --junit, --coverage report on a whole run: leave them out with --watch, which reruns files as they change\n',
			'Error: --n8n-memory must be a whole number of at least 64, not 10\n',
		]);
	});

	it('the upgrade check takes two --n8n with --compare, and --n8n-node once or once per --n8n (exit 2 otherwise, saying how)', async () => {
		const said: string[] = [];
		const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
			said.push(String(chunk));
			return true;
		});
		try {
			expect(await testCommand(['--n8n', '2.40.7', '--compare'])).toBe(2);
			expect(await testCommand(['--n8n', '1.123.81', '--n8n', '2.40.7'])).toBe(2);
			expect(
				await testCommand([
					'--n8n',
					'1.123.81',
					'--n8n',
					'2.40.7',
					'--compare',
					...['--n8n-node', 'a', '--n8n-node', 'b', '--n8n-node', 'c'],
				]),
			).toBe(2);
			expect(await testCommand(['--watch', '--compare'])).toBe(2);
		} finally {
			spy.mockRestore();
		}
		expect(said).toEqual([
			'Error: --compare checks an upgrade between two n8n versions: give --n8n twice (e.g. --n8n 1.123.81 --n8n 2.40.7 --compare), not 1\n',
			'Error: --n8n is given more than once: add --compare to run the suite on both and see what differs (two versions), or run once per version\n',
			'Error: --n8n-node is given 3 times for 2 --n8n: give it once (every version runs on it) or once per --n8n, in the same order\n',
			'Error: --compare checks an upgrade between two n8n versions: give --n8n twice (e.g. --n8n 1.123.81 --n8n 2.40.7 --compare), not 0\n',
		]);
	});

	it('takes a bare subcommand name (init, coverage) as the subcommand, and a folder of that name written as a path', async () => {
		const dir = project({});
		mkdirSync(join(dir, 'init'));
		writeFileSync(
			join(dir, 'init', 'a.test.yaml'),
			'workflow: nowhere.json\ncases: [{ name: x }]\n',
		);
		const said: string[] = [];
		const write = (chunk: unknown) => (said.push(String(chunk)), true);
		const out = jest.spyOn(process.stdout, 'write').mockImplementation(write);
		const err = jest.spyOn(process.stderr, 'write').mockImplementation(write);
		const cwd = process.cwd();
		try {
			process.chdir(dir);
			// init with no workflow, beside a folder named init: init's usage, not the folder's tests.
			for (const args of [['init'], ['init', '--show']]) {
				said.length = 0;
				expect(await testCommand(args)).toBe(2);
				expect(said.join('')).toContain(
					'to run the test files of a folder named init, give it as ./init',
				);
			}
			// Written as a path, the folder's test file is read (and refused: its workflow is missing).
			for (const folder of ['./init', 'init/']) {
				said.length = 0;
				expect(await testCommand([folder, '--show'])).toBe(2);
				expect(said.join('')).toMatch(/init\/a\.test\.yaml:1: workflow: no such file/);
			}
		} finally {
			process.chdir(cwd);
			out.mockRestore();
			err.mockRestore();
		}
	});

	it('runs nothing while any file is wrong, and lists every problem of every file (exit 2)', async () => {
		const dir = project({
			'ok.test.yaml':
				'workflow: flow.json\nstubs: { HubSpot: passThrough }\ncases: [{ name: fine }]\n',
			'bad.test.yaml': 'workflow: flow.json\ncases: [{ name: x, runs: many }]\n',
			// A forgotten stub is found here too: before any n8n is resolved or started.
			'forgot.test.yaml': 'workflow: flow.json\ncases: [{ name: y }]\n',
		});
		const lines: string[] = [];
		const result = await runWorkflowTests({
			services: [leadInboxService()],
			paths: ['.'],
			cwd: dir,
			n8n: 'never-resolved',
			nodes: [ROOT],
			out: (l) => lines.push(l),
			progress: (l) => lines.push(l),
		});
		expect(result.exitCode).toBe(2);
		expect(result.files).toEqual([]);
		expect(lines).toEqual([
			'bad.test.yaml:2: cases.0.runs: expected a number or an array',
			'forgot.test.yaml:1: workflow: node "HubSpot" (n8n-nodes-base.hubspot) would call another service: stub it in the test file (stubs: { "HubSpot": passThrough }, or { items: [...] } for what it should hand on), or let it run for real and answer its requests with mocks (mocks: [{ use: hubspot }], the answers shipped for it)',
			'\n2 problem(s) in the test files: nothing was run.',
		]);
	});

	it('names a nodes package packed or cloned without a build, before anything runs (exit 2)', async () => {
		// The package as `npm pack` makes it without its prepack (the build), and as a folder.
		const unbuilt = mkdtempSync(join(tmpdir(), 'unbuilt-nodes-'));
		writeFileSync(join(unbuilt, 'package.json'), readFileSync(join(ROOT, 'package.json')));
		const tarball = join(
			unbuilt,
			execFileSync('npm', ['pack', '--ignore-scripts', '--silent'], {
				cwd: unbuilt,
				encoding: 'utf8',
			})
				.trim()
				.split('\n')
				.pop()!,
		);
		const dir = project({
			'ok.test.yaml':
				'workflow: flow.json\nstubs: { HubSpot: passThrough }\ncases: [{ name: fine }]\n',
		});
		for (const [nodes, fix] of [
			[tarball, 'run npm run build in the package, then npm pack again'],
			[unbuilt, 'run npm run build in it'],
		]) {
			const lines: string[] = [];
			const result = await runWorkflowTests({
				services: [leadInboxService()],
				paths: ['.'],
				cwd: dir,
				n8n: 'never-resolved',
				nodes: [nodes],
				out: (l) => lines.push(l),
				progress: (l) => lines.push(l),
			});
			expect(result.exitCode).toBe(2);
			expect(lines[0]).toBe(
				`--nodes: ${nodes} has no dist/ (n8n would load nothing from it: dist/credentials/LeadInboxApi.credentials.js is missing, and 5 more): ${fix}`,
			);
		}
	});

	it("the published JSON Schemas are generated from the runner's own and the Lead Inbox service's (UPDATE_SCHEMA=1 rewrites them)", () => {
		for (const [path, generated] of [
			[RUNNER_SCHEMA, testFileJsonSchema()],
			[
				SCHEMA,
				testFileJsonSchema(
					'https://github.com/n8n-nodes-lead-inbox/n8n-nodes-lead-inbox/blob/main/mock-server/workflow-test.schema.json',
					[leadInboxSchema],
					'Lead Inbox workflow test file',
				),
			],
		] as const) {
			const text = `${JSON.stringify(generated, null, '\t')}\n`;
			if (process.env.UPDATE_SCHEMA) writeFileSync(path, text);
			expect(readFileSync(path, 'utf8')).toBe(text);
		}
	});

	it("the docs' format reference is generated from the JSON Schema (UPDATE_SCHEMA=1 rewrites it)", () => {
		const doc = readFileSync(DOC, 'utf8');
		const table = referenceTables(JSON.parse(readFileSync(RUNNER_SCHEMA, 'utf8')));
		// As the repository's Prettier lays the page out (its tables padded).
		const generated = execFileSync(
			join(ROOT, 'node_modules', '.bin', 'prettier'),
			['--stdin-filepath', DOC],
			{
				encoding: 'utf8',
				input: doc.replace(
					/(<!-- reference:start -->\n)[\s\S]*(<!-- reference:end -->)/,
					`$1${table}\n$2`,
				),
			},
		);
		if (process.env.UPDATE_SCHEMA) writeFileSync(DOC, generated);
		expect(doc).toBe(generated);
	});

	it('the JSON Schema accepts every test file the runner accepts and refuses what it refuses', () => {
		const ajv = new Ajv2020({ strict: false, allErrors: true });
		addFormats(ajv);
		const validate = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')));
		for (const file of TEST_FILES)
			expect({
				file,
				valid: validate(parse(readFileSync(file, 'utf8'))),
				errors: validate.errors,
			}).toEqual({ file, valid: true, errors: null });
		expect(
			validate({
				workflow: 'x.json',
				cases: [{ name: 'x', expect: { nodes: { A: { itemz: 1 } } } }],
			}),
		).toBe(false);
		expect(validate({ workflow: 'x.json', cases: [{ name: 'x', runs: 0 }] })).toBe(false);
	});
});
