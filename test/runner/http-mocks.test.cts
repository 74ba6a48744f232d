import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	checkHttp,
	checkHttpOrder,
	unansweredFailures,
} from '../../n8n-testkit/src/expect/http.cjs';
import { loadTestFile, TestFileError } from '../../n8n-testkit/src/file/load.cjs';
import type { MockSpec } from '../../n8n-testkit/src/file/schema.cjs';
import { madeUpData } from '../../n8n-testkit/src/http-mocks/credentials.cjs';
import {
	attributeRequests,
	exchangeLine,
	masked,
	parsedBody,
	type Exchange,
} from '../../n8n-testkit/src/http-mocks/exchange.cjs';
import { mailIn } from '../../n8n-testkit/src/http-mocks/mail.cjs';
import { MockSet } from '../../n8n-testkit/src/http-mocks/mock-set.cjs';

/**
 * HTTP mocks as a test file gives them: which mock answers a request (the first that matches,
 * as often as its times allow, a sequence's answers in turn), a request none answers named with
 * the nearest mock, requests checked as sent, credentials masked, and a wrong mock refused when
 * the file loads.
 */
const exchange = (method: string, url: string, more: Partial<Exchange> = {}): Exchange => {
	const u = new URL(url);
	return {
		method,
		url,
		host: u.host,
		path: u.pathname,
		query: Object.fromEntries(u.searchParams),
		headers: {},
		...more,
	};
};
const CONTACTS = 'https://crm.example.test/api/v1/contacts';
const mock = (spec: Partial<MockSpec> & Pick<MockSpec, 'request'>): MockSpec =>
	({ answer: { status: 200 }, ...spec }) as MockSpec;

describe('HTTP mocks', () => {
	it('answers with the first mock that takes the request: method, URL (exact or /pattern/), query, headers, body', () => {
		const mocks = new MockSet([
			{
				spec: mock({
					request: { method: 'post', url: CONTACTS, body: { 'contact.email': '/@/' } },
					answer: { status: 201, json: { id: 'c_1' } },
				}),
				at: 'mocks.0',
			},
			{
				spec: mock({
					request: { url: '/\\/contacts\\?page=\\d+$/', headers: { authorization: '/^Bearer /' } },
					answer: { text: 'page' },
				}),
				at: 'mocks.1',
			},
		]);
		const post = exchange('POST', `${CONTACTS}/`, { body: { contact: { email: 'a@b.test' } } });
		expect(mocks.answer(post)).toMatchObject({ status: 201 });
		expect(
			JSON.parse(
				String(
					(
						mocks.answer(
							exchange('POST', CONTACTS, { body: { contact: { email: 'x@y.test' } } }),
						) as { body: Buffer }
					).body,
				),
			),
		).toEqual({ id: 'c_1' });
		// A body without the field is not taken; neither is a GET without its header.
		expect(mocks.answer(exchange('POST', CONTACTS, { body: { contact: {} } }))).toBeUndefined();
		expect(mocks.answer(exchange('GET', `${CONTACTS}?page=2`))).toBeUndefined();
		const get = mocks.answer(
			exchange('GET', `${CONTACTS}?page=2`, { headers: { authorization: 'Bearer t' } }),
		);
		expect(get).toMatchObject({
			status: 200,
			headers: { 'content-type': 'text/plain; charset=utf-8' },
		});
		expect(mocks.journal.map((e) => [e.mock, e.status])).toEqual([
			[0, 201],
			[0, 201],
			[undefined, 501],
			[undefined, 501],
			[1, 200],
		]);
	});

	it("a sequence's answers in turn (the last repeats), times, then the next mock; a run's mock is tried first", () => {
		const mocks = new MockSet([
			{
				spec: mock({
					request: { url: CONTACTS },
					answers: [{ status: 429 }, { status: 201 }],
					times: 3,
					answer: undefined,
				}),
				at: 'cases.0.mocks.0',
			},
			{ spec: mock({ request: { url: CONTACTS }, answer: { status: 200 } }), at: 'mocks.0' },
		]);
		const statuses = () => (mocks.answer(exchange('POST', CONTACTS)) as { status: number }).status;
		expect([statuses(), statuses(), statuses(), statuses()]).toEqual([429, 201, 201, 200]);
		mocks.add(
			mock({ request: { url: CONTACTS }, answer: { drop: true } }),
			'cases.0.runs.1.before.0',
		);
		expect(mocks.answer(exchange('POST', CONTACTS))).toEqual({ drop: true, delayMs: undefined });
		expect(mocks.journal.at(-1)).toMatchObject({ dropped: true, mock: 0 });
		expect(mocks.placeOf(0)).toBe('cases.0.runs.1.before.0');
	});

	it('a request no mock answers fails the case once per method and URL, naming the node, the nearest mock and what differs', () => {
		const mocks = new MockSet([
			{ spec: mock({ request: { method: 'POST', url: CONTACTS } }), at: 'mocks.0' },
			{
				spec: mock({ request: { method: 'GET', url: 'https://other.example.test/x' } }),
				at: 'mocks.1',
			},
		]);
		for (let i = 0; i < 2; i++)
			mocks.answer(exchange('PUT', CONTACTS, { body: { email: `l${i}@x.test` } }));
		expect(
			unansweredFailures(mocks, [
				{
					node: 'Push to CRM',
					text: `The service failed: 501 - No mock of the workflow test answers PUT ${CONTACTS}: add one to the test file's mocks`,
				},
			]),
		).toEqual([
			{
				at: 'http',
				message: `"Push to CRM" sent PUT ${CONTACTS} (2 times, the first with body {"email":"l0@x.test"}), and no mock answers it (n8n's node got 501). The nearest mock: mocks.0 (POST ${CONTACTS}), whose method differs. Add one: mocks: [{ request: { method: PUT, url: ${CONTACTS} }, answer: { status: 200, json: { ... } } }]`,
			},
		]);
	});

	it('checks requests as they were sent: how many, and fields on every, some or none', () => {
		const journal = [
			exchange('POST', CONTACTS, {
				headers: { 'x-api-key': 'k1' },
				body: { email: 'a@x.test' },
				status: 429,
			}),
			exchange('POST', CONTACTS, {
				headers: { 'x-api-key': 'k1' },
				body: { email: 'a@x.test' },
				status: 201,
			}),
			exchange('GET', 'https://crm.example.test/api/v1/me', { status: 200 }),
		];
		expect(
			checkHttp(
				[
					{
						method: 'post',
						url: CONTACTS,
						requests: 2,
						every: { 'headers.x-api-key': 'k1' },
						some: { status: 429 },
					},
					{ url: '/\\/me$/', none: { method: 'POST' } },
				],
				{ journal, secrets: [] },
				'expect.http',
			),
		).toEqual([]);
		expect(
			checkHttp(
				[{ method: 'POST', url: CONTACTS, every: { 'body.mail': '/@/' }, requests: 1 }],
				{ journal, secrets: [] },
				'expect.http',
			),
		).toEqual([
			{
				at: 'expect.http.0.requests',
				message: `expected exactly 1 request(s) to POST ${CONTACTS}, got 2`,
			},
			expect.objectContaining({ at: 'expect.http.0.every.body.mail' }),
		]);
		// A failure shows the request whole, the test's secrets masked in it.
		const [failure] = checkHttp(
			[{ method: 'POST', url: CONTACTS, every: { 'body.email': 'b@x.test' } }],
			{ journal, secrets: ['k1'] },
			'expect.http',
		);
		expect(failure.message).toContain('"x-api-key":"***"');
		expect(failure.message).not.toContain('k1');
	});

	it('checks requests in order, each step after the one before, naming the step that did not come', () => {
		const TOKEN = 'https://auth.example.test/token';
		const journal = [
			exchange('POST', CONTACTS, { status: 401 }),
			exchange('POST', TOKEN, { status: 200, body: { grant_type: 'refresh_token' } }),
			exchange('POST', CONTACTS, { status: 201 }),
		];
		expect(
			checkHttpOrder(
				[
					{ url: CONTACTS, has: { status: 401 } },
					{ url: TOKEN, has: { 'body.grant_type': 'refresh_token' } },
					{ method: 'post', url: CONTACTS, has: { status: 201 } },
				],
				{ journal, secrets: [] },
				'expect.httpOrder',
			),
		).toEqual([]);
		// The token came, but before the 401 it should answer.
		expect(
			checkHttpOrder(
				[{ url: CONTACTS, has: { status: 201 } }, { url: TOKEN }],
				{ journal, secrets: [] },
				'expect.httpOrder',
			),
		).toEqual([
			{
				at: 'expect.httpOrder.1',
				message: `expected ${TOKEN} after step 1 (request 3): one came, but before; no request came after it`,
			},
		]);
	});

	it('puts each request on the node n8n was running when it came, the innermost where runs nest', () => {
		const journal = [
			// Within the leeway of its start (the clocks are one offset apart).
			exchange('POST', CONTACTS, { at: 995, status: 201 }),
			exchange('POST', CONTACTS, { at: 1_030, status: 201 }),
			exchange('POST', 'https://slack.com/api/chat.postMessage', { at: 1_203, status: 200 }),
			exchange('GET', 'https://x.test/late', { at: 5_000 }),
			// At the instant one run ends and the next starts: the one that ended sent it.
			exchange('POST', CONTACTS, { at: 1_048, status: 201 }),
		];
		attributeRequests(journal, [
			{ node: 'Push to CRM', startTime: 998, executionTime: 50 },
			{ node: 'Collect ids', startTime: 1_048, executionTime: 1 },
			{ node: 'Call CRM workflow', startTime: 1_150, executionTime: 100 },
			{ node: 'Tell sales', workflow: 'Notify', startTime: 1_180, executionTime: 30 },
		]);
		expect(journal.map(exchangeLine)).toEqual([
			`"Push to CRM": POST ${CONTACTS} -> 201`,
			`"Push to CRM": POST ${CONTACTS} -> 201`,
			'"Tell sales" (sub-workflow "Notify"): POST https://slack.com/api/chat.postMessage -> 200',
			'GET https://x.test/late -> no answer',
			`"Push to CRM": POST ${CONTACTS} -> 201`,
		]);
		// An expectation by node counts only that node's requests (of the workflow tested).
		expect(
			checkHttp(
				[
					{ url: CONTACTS, node: 'Push to CRM', requests: 3 },
					{ url: '/slack/', node: 'Tell sales', requests: 0 },
				],
				{ journal, secrets: [] },
				'expect.http',
			),
		).toEqual([]);
	});

	it('reads an email sent whole (Gmail raw) as what it says, encoded words and quoted-printable decoded', () => {
		const message = [
			'From: Sales <sales@example.test>',
			'To: dana@example.test',
			'Subject: =?UTF-8?Q?Caf=C3=A9_leads?=',
			'Content-Type: text/plain; charset=utf-8',
			'Content-Transfer-Encoding: quoted-printable',
			'',
			'Hi Dana, a caf=C3=A9 list is =',
			'ready.',
		].join('\r\n');
		expect(mailIn({ raw: Buffer.from(message).toString('base64url') })).toEqual({
			from: 'Sales <sales@example.test>',
			to: 'dana@example.test',
			subject: 'Caf\u00e9 leads',
			text: 'Hi Dana, a caf\u00e9 list is ready.',
		});
		expect(mailIn({ raw: 'not a message' })).toBeUndefined();
		expect(mailIn({ email: 'x' })).toBeUndefined();
	});

	it('masks credentials in reports, parses JSON and form bodies, and makes up a credential from its type', () => {
		expect(
			masked(
				exchange('GET', CONTACTS, {
					headers: { authorization: 'Bearer s3cret', 'x-api-key': 'k', accept: '*/*' },
				}),
			).headers,
		).toEqual({ authorization: 'Bearer ***', 'x-api-key': '***', accept: '*/*' });
		expect(parsedBody('application/json; charset=utf-8', '{"a":1}')).toEqual({ a: 1 });
		expect(parsedBody('application/x-www-form-urlencoded', 'a=1&b=2&b=3')).toEqual({
			a: '1',
			b: ['2', '3'],
		});
		const types = new Map([
			['oAuth2Api', { name: 'oAuth2Api', properties: [{ name: 'clientId', type: 'string' }] }],
			[
				'googleOAuth2Api',
				{
					name: 'googleOAuth2Api',
					extends: ['oAuth2Api'],
					properties: [{ name: 'scope', type: 'hidden', default: 'mail' }],
				},
			],
			[
				'httpHeaderAuth',
				{
					name: 'httpHeaderAuth',
					properties: [
						{ name: 'name', type: 'string' },
						{ name: 'value', type: 'string', typeOptions: { password: true } },
					],
				},
			],
		]);
		expect(madeUpData('httpHeaderAuth', types, { name: 'X-Api-Key' })).toEqual({
			name: 'X-Api-Key',
			value: 'test-secret-value',
		});
		expect(madeUpData('googleOAuth2Api', types)).toEqual({
			clientId: 'test-clientId',
			scope: 'mail',
			oauthTokenData: expect.objectContaining({ access_token: 'test-access-token' }),
		});
	});

	it('refuses a wrong mock when the file loads, and lets a node run for real only where a case has mocks', () => {
		const dir = mkdtempSync(join(tmpdir(), 'http-mocks-'));
		writeFileSync(
			join(dir, 'flow.json'),
			JSON.stringify({
				name: 'flow',
				nodes: [
					{
						id: '1',
						name: 'Start',
						type: 'n8n-nodes-base.manualTrigger',
						typeVersion: 1,
						position: [0, 0],
						parameters: {},
					},
					{
						id: '2',
						name: 'Call',
						type: 'n8n-nodes-base.httpRequest',
						typeVersion: 4.2,
						position: [200, 0],
						parameters: { url: CONTACTS },
					},
					{
						id: '3',
						name: 'Save',
						type: 'n8n-nodes-base.postgres',
						typeVersion: 2,
						position: [400, 0],
						parameters: {},
					},
				],
				connections: {
					Start: { main: [[{ node: 'Call', type: 'main', index: 0 }]] },
					Call: { main: [[{ node: 'Save', type: 'main', index: 0 }]] },
				},
			}),
		);
		const problems = (text: string) => {
			writeFileSync(join(dir, 't.test.yaml'), text);
			try {
				loadTestFile('t.test.yaml', dir);
				return [];
			} catch (error) {
				if (!(error instanceof TestFileError)) throw error;
				return error.problems.map((p) => `${p.line}: ${p.path}: ${p.message}`);
			}
		};
		expect(
			problems(
				[
					'workflow: flow.json', // 1
					'stubs: { Save: passThrough }', // 2
					'mocks:', // 3
					'  - request: { method: POST }', // 4
					'    answer: { headers: { x: y } }', // 5
					'  - request: { url: https://a.test }', // 6
					'    answer: { status: 200 }', // 7
					'    answers: [{ status: 200 }]', // 8
					'cases: [{ name: a }]', // 9
					'',
				].join('\n'),
			),
		).toEqual([
			'4: mocks.0.request.url: missing: give a string',
			'5: mocks.0.answer: an answer gives a status or a body (json, text or base64), or drop: true, or never: true',
			'6: mocks.1: give answer (one) or answers (a sequence)',
		]);
		// Values for a credential no node names are refused, with the names the nodes give.
		expect(
			problems(
				'workflow: flow.json\nstubs: { Call: passThrough, Save: passThrough }\ncredentials: { CRM kye: { value: x } }\ncases: [{ name: a }]\n',
			),
		).toEqual([
			'3: credentials.CRM kye: no node of the workflow names a credential "CRM kye" (they name: none): give the credential\'s name as the export has it',
		]);
		// No mocks: the HTTP Request node must be stubbed; with mocks it runs for real, Postgres never.
		expect(problems('workflow: flow.json\ncases: [{ name: a }]\n')).toEqual([
			expect.stringMatching(
				/^1: workflow: node "Call" \(n8n-nodes-base\.httpRequest\) would call another service: stub it .*, or let it run for real and answer its requests with mocks/,
			),
			expect.stringMatching(
				/^1: workflow: node "Save" \(n8n-nodes-base\.postgres\) would call another service over a protocol the runner's HTTP mocks cannot answer: stub it/,
			),
		]);
		expect(
			problems(
				[
					'workflow: flow.json',
					'stubs: { Save: passThrough }',
					'cases:',
					'  - name: mocked',
					'    mocks: [{ request: { url: "https://crm.example.test/api/v1/contacts" }, answer: { json: {} } }]',
					'  - name: not mocked',
					'',
				].join('\n'),
			),
		).toEqual([
			'6: cases.1.name: node "Call" (n8n-nodes-base.httpRequest) would call another service: stub it in the test file (stubs: { "Call": passThrough }, or { items: [...] } for what it should hand on), or let it run for real and answer its requests with mocks (mocks: [{ request: { url: ... }, answer: { json: ... } }]) (other cases stub or mock it; this one does not)',
		]);
		// A URL written out in the node, whose host no mock of the file answers: said before n8n
		// starts. A mock of its host taking another method or path is the case's to fail on.
		expect(
			problems(
				[
					'workflow: flow.json',
					'stubs: { Save: passThrough }',
					'mocks: [{ request: { method: POST, url: "https://billing.example.test/api/v1/leads" }, answer: { json: {} } }]',
					'cases: [{ name: a }]',
					'',
				].join('\n'),
			),
		).toEqual([
			`3: mocks: node "Call" sends GET ${CONTACTS}, and no mock of the file answers crm.example.test: add mocks: [{ request: { method: GET, url: ${CONTACTS} }, answer: { status: 200, json: { ... } } }], or stub the node`,
		]);
	});

	it("shipped answers: use a service or one operation, its answer overridden key by key, echoing the request on the case's clock", () => {
		const mocks = new MockSet([
			{
				spec: { use: 'slack.postMessage', answer: { json: { message: { username: 'ops-bot' } } } },
				at: 'mocks.0',
			},
			{ spec: { use: 'gmail' }, at: 'mocks.1' },
		]);
		mocks.now = () => Date.parse('2027-03-01T09:00:00Z');
		const body = (answer: ReturnType<MockSet['answer']>) =>
			JSON.parse(String((answer as { body: Buffer }).body));
		const posted = body(
			mocks.answer(
				exchange('POST', 'https://slack.com/api/chat.postMessage', {
					body: { channel: 'C0OPS', text: '3 new leads' },
				}),
			),
		);
		// Slack's answer names the channel and text posted; the override kept the rest.
		expect(posted).toMatchObject({
			ok: true,
			channel: 'C0OPS',
			ts: '1803891600.000101',
			message: { text: '3 new leads', username: 'ops-bot', bot_id: 'B0123456789' },
		});
		// gmail: every operation, each named with the operation it answers as.
		const sent = body(
			mocks.answer(exchange('POST', 'https://www.googleapis.com/gmail/v1/users/me/messages/send')),
		);
		expect(sent).toEqual({
			id: '18f2b0d5c6e4a11',
			threadId: '18f2a9c4e1b7d3a0',
			labelIds: ['SENT'],
		});
		const got = body(
			mocks.answer(
				exchange(
					'GET',
					'https://www.googleapis.com/gmail/v1/users/me/messages/18f2b0d5c6e4a11?format=metadata',
				),
			),
		);
		expect(got.id).toBe('18f2b0d5c6e4a11');
		expect(mocks.placeOf(mocks.journal[2].mock!)).toBe('mocks.1 (gmail.get)');
		expect(
			body(mocks.answer(exchange('POST', 'https://oauth2.googleapis.com/token'))).access_token,
		).toBe('test-refreshed-access-token-1');
		// A message the shipped answers do not cover is named with the nearest.
		mocks.answer(exchange('DELETE', 'https://slack.com/api/chat.postMessage'));
		expect(mocks.nearest(mocks.unanswered()[0])).toBe(
			'mocks.0 (slack.postMessage) (POST https://slack.com/api/chat.postMessage), whose method differs',
		);
	});

	it('refuses a shipped answer that does not exist, or an override of a whole service', () => {
		const dir = mkdtempSync(join(tmpdir(), 'use-'));
		writeFileSync(
			join(dir, 'flow.json'),
			JSON.stringify({
				nodes: [
					{ name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {}, position: [0, 0] },
					{
						name: 'Call',
						type: 'n8n-nodes-base.httpRequest',
						parameters: { url: 'https://x.test' },
						position: [1, 0],
					},
				],
				connections: { Start: { main: [[{ node: 'Call', type: 'main', index: 0 }]] } },
			}),
		);
		const problems = (mocks: string[]) => {
			writeFileSync(
				join(dir, 't.test.yaml'),
				['workflow: flow.json', 'mocks:', ...mocks, 'cases: [{ name: a }]', ''].join('\n'),
			);
			try {
				loadTestFile('t.test.yaml', dir);
				return [];
			} catch (error) {
				return (error as TestFileError).problems.map((p) => `${p.line}: ${p.path}: ${p.message}`);
			}
		};
		expect(
			problems([
				'  - use: gmal',
				'  - use: slack.post',
				'  - { use: gmail, answer: { status: 500 } }',
				'  - { request: { url: https://x.test }, answer: { status: 204 } }',
			]),
		).toEqual([
			expect.stringMatching(
				/^3: mocks\.0\.use: no shipped answers are called "gmal": use one of gmail, google-sheets, /,
			),
			expect.stringMatching(
				/^4: mocks\.1\.use: slack has no operation "post": use one of slack\.postMessage$/,
			),
			expect.stringMatching(
				/^5: mocks\.2\.use: an answer overrides one operation's: write use: gmail\.<operation> \(send, get, labels, profile, refreshToken\)$/,
			),
		]);
		// The shape first: a request beside use is refused before the workflow is read.
		expect(problems(['  - { use: slack, request: { url: https://x.test } }'])).toEqual([
			expect.stringMatching(/^3: mocks\.0\.request: use: slack gives the requests it answers/),
		]);
	});
});
