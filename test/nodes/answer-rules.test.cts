import { matchResults, outcomeOf, poolIn, resultsIn } from '../../nodes/CreateInboxes/results';
import { answerOf, listIn, readBody, serviceWords } from '../../nodes/shared/answer';
import { formatWait, retryDelay } from '../../nodes/shared/rateLimit';
import { mayHaveActed, statusClass } from '../../nodes/shared/statuses';

/*
 * The small rules the nodes read any service's answers with, tested on their own (no service,
 * no n8n): what a status means, the service's words in the error shapes seen in the wild, the
 * wait a 429 asks for, and a creation answer's per-entry results.
 */

/** What a service said in this JSON body. */
const wordsOf = (body: unknown) =>
	serviceWords({ ...readBody(JSON.stringify(body), 'application/json'), text: '' });

describe('what a status means (shared/statuses.ts)', () => {
	it.each([
		[200, 'success'],
		[207, 'success'],
		[301, 'redirect'],
		[308, 'redirect'],
		[400, 'refused'],
		[401, 'keyRefused'],
		[402, 'refused'],
		[403, 'forbidden'],
		[404, 'notFound'],
		[405, 'notFound'],
		[409, 'refused'],
		[422, 'refused'],
		[429, 'rateLimited'],
		[500, 'serviceFailed'],
		[502, 'serviceFailed'],
		[504, 'serviceFailed'],
		[599, 'serviceFailed'],
	])('%i is %s', (status, kind) => expect(statusClass(status)).toBe(kind));

	it('a change answered by a server or gateway error may have been carried out; a refusal not', () => {
		expect(mayHaveActed('POST', 500)).toBe(true);
		expect(mayHaveActed('POST', 502)).toBe(true);
		expect(mayHaveActed('POST', 504)).toBe(true);
		expect(mayHaveActed('POST', 400)).toBe(false);
		expect(mayHaveActed('POST', 429)).toBe(false);
		// Reading changes nothing, whatever the answer.
		expect(mayHaveActed('GET', 500)).toBe(false);
	});
});

describe("the service's words (shared/answer.ts serviceWords)", () => {
	it.each([
		[{ error: 'Pool not found', code: 'pool_not_found' }, 'Pool not found', 'pool_not_found'],
		[{ message: 'Invalid key' }, 'Invalid key', undefined],
		[{ error: { message: 'Quota exceeded', code: 'QUOTA' } }, 'Quota exceeded', 'QUOTA'],
		[
			{ error: 'invalid_token', error_description: 'The token expired' },
			'The token expired',
			'invalid_token',
		],
		[
			{ type: 'https://example.com/probs/limit', title: 'Too Many Requests', detail: 'Wait 30 s' },
			'Too Many Requests: Wait 30 s',
			undefined,
		],
		[
			{ errors: [{ path: 'count', message: 'must be at most 1000' }] },
			'count: must be at most 1000',
			undefined,
		],
		[{ errors: { niche: ['is required'] } }, 'niche: is required', undefined],
	])('%j says "%s" (code %s)', (body, message, code) => {
		const words = wordsOf(body);
		expect(words.message).toBe(message);
		expect(words.code).toBe(code);
	});

	it('a generic status word gives way to the specific words beside it', () => {
		const words = wordsOf({ error: 'Bad Request', message: 'City is unknown' });
		expect(words.message).toBe('City is unknown');
	});

	it("a text body is the message; a web page is no one's words", () => {
		expect(
			serviceWords({ ...readBody('upstream timed out', 'text/plain'), text: 'upstream timed out' })
				.message,
		).toBe('upstream timed out');
		const page = '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>';
		expect(serviceWords({ ...readBody(page, 'text/html'), text: page }).message).toBeUndefined();
	});

	it('lists are found bare, under their key, or in a data envelope; anything else is not a list', () => {
		expect(listIn([1, 2], 'pools')).toEqual([1, 2]);
		expect(listIn({ pools: [1] }, 'pools')).toEqual([1]);
		expect(listIn({ data: { pools: [1] } }, 'pools')).toEqual([1]);
		expect(listIn({ data: [1] }, 'pools')).toEqual([1]);
		expect(listIn({ pools: 'none' }, 'pools')).toBeUndefined();
		expect(listIn('<html>', 'pools')).toBeUndefined();
	});

	it('the API key never appears in what an answer keeps', () => {
		const answer = answerOf(
			{ service: 'inbox', method: 'GET', url: 'http://127.0.0.1/api/v1/pools' },
			{ statusCode: 401, headers: {}, body: '{"error":"Key lik_secret_123 is revoked"}' },
			'lik_secret_123',
		);
		expect(JSON.stringify(answer)).not.toContain('lik_secret_123');
	});
});

describe('the wait a 429 asks for (shared/rateLimit.ts)', () => {
	const now = Date.parse('2026-11-25T10:00:00Z');
	const headers = (h: Record<string, string>) => ({ headers: h });

	it.each([
		[{ 'retry-after': '30' }, 30_000],
		[{ 'retry-after': 'Wed, 25 Nov 2026 10:02:00 GMT' }, 120_000],
		[{ 'x-ratelimit-reset': '45' }, 45_000],
		[{ 'x-ratelimit-reset': String(now / 1000 + 600) }, 600_000],
		[{ 'x-ratelimit-reset': String(now + 5_000) }, 5_000],
		[{ ratelimit: 'limit=1000, remaining=0, reset=0; t=90' }, 90_000],
		[{ 'retry-after': 'Wed, 25 Nov 2026 09:00:00 GMT' }, 0],
	])('%j: %i ms', (h, ms) => expect(retryDelay(headers(h), now)?.ms).toBe(ms));

	it('no readable header: no wait is made up', () => {
		expect(retryDelay(headers({}), now)).toBeUndefined();
		expect(retryDelay(headers({ 'retry-after': 'soon' }), now)).toBeUndefined();
	});

	it.each([
		[1_000, '1 s'],
		[119_000, '119 s'],
		[120_000, '2 min'],
		[3_600_000, '60 min'],
		[7_500_000, '2 h 5 min'],
	])('%i ms reads "%s"', (ms, text) => expect(formatWait(ms)).toBe(text));
});

describe("a creation answer's results (CreateInboxes/results.ts)", () => {
	it('results are found in a list, an envelope, or as one result object', () => {
		expect(resultsIn({ results: [{ emailAddress: 'a@x.com', success: true }] })).toHaveLength(1);
		expect(resultsIn({ data: { results: [{ emailAddress: 'a@x.com' }] } })).toHaveLength(1);
		expect(resultsIn({ emailAddress: 'a@x.com', inboxId: 'in_1' })).toHaveLength(1);
		expect(resultsIn({ error: 'Invalid body' })).toBeUndefined();
	});

	it('results are matched by address in any order and case, repeated addresses in turn', () => {
		const matched = matchResults(
			['a@x.com', 'B@x.com', 'a@x.com'],
			[
				{ emailAddress: 'b@x.com', n: 1 },
				{ emailAddress: 'A@X.COM', n: 2 },
				{ emailAddress: 'a@x.com', n: 3 },
			],
		);
		expect(matched.map((r) => r?.n)).toEqual([2, 1, 3]);
	});

	it('results without an address are matched by position only when there is one per entry', () => {
		expect(matchResults(['a@x.com', 'b@x.com'], [{ n: 1 }, { n: 2 }]).map((r) => r?.n)).toEqual([
			1, 2,
		]);
		expect(matchResults(['a@x.com', 'b@x.com'], [{ n: 1 }]).map((r) => r?.n)).toEqual([
			undefined,
			undefined,
		]);
	});

	it.each([
		[{ success: true }, true],
		[{ success: 'true' }, true],
		[{ status: 'created' }, true],
		[{ inboxId: 'in_1' }, true],
		[{ success: false, error: 'Exists', code: 'email_exists' }, false],
		[{ success: false, status: 409, error: 'Exists' }, false],
	])('%j created: %s', (result, created) => expect(outcomeOf(result).created).toBe(created));

	it("a refused entry keeps the service's code, else one read from its HTTP status", () => {
		expect(outcomeOf({ success: false, error: 'Taken', code: 'email_exists' })).toEqual({
			created: false,
			code: 'email_exists',
			reason: 'Taken',
		});
		expect(outcomeOf({ success: false, statusCode: 422, message: 'IMAP login failed' })).toEqual({
			created: false,
			code: 'connection_failed',
			reason: 'IMAP login failed',
		});
		expect(outcomeOf({ success: false })).toEqual({
			created: false,
			code: 'failed',
			reason: 'The service refused the entry without saying why.',
		});
	});

	it('the new pool is read from `pool`, another pool-shaped field, or a top-level poolId', () => {
		expect(poolIn({ results: [], pool: { id: 'pool_1', name: 'Q4' } })).toEqual({
			id: 'pool_1',
			name: 'Q4',
		});
		expect(poolIn({ results: [], createdPool: { id: 7, name: 'Q4' } })).toEqual({
			id: '7',
			name: 'Q4',
		});
		expect(poolIn({ results: [], poolId: 'pool_2' })).toEqual({ id: 'pool_2' });
		expect(poolIn({ results: [] })).toBeUndefined();
	});
});
