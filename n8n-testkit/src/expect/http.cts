/**
 * What the workflow's real nodes sent to other services, checked as sent (expect.http), and the
 * requests no mock answered, each a failure naming its method, URL and the nearest mock.
 */
import type { HttpExpectation, HttpStep } from '../file/schema.cjs';
import { type Exchange, exchangeLine, masked, nodeOf } from '../http-mocks/exchange.cjs';
import { mailIn } from '../http-mocks/mail.cjs';
import { type MockSet, urlMatches } from '../http-mocks/mock-set.cjs';
import { NO_MOCK } from '../http-mocks/proxy.cjs';
import { checkItems, type Failure } from './check.cjs';
import { fieldOf, shown, valueMatches } from './match.cjs';

/** A request as expectations read it: its parts, and the status it was answered with. */
const recordOf = (e: Exchange): Record<string, unknown> => ({
	method: e.method,
	url: e.url,
	host: e.host,
	path: e.path,
	query: e.query,
	headers: e.headers,
	body: e.body,
	status: e.dropped ? 'dropped' : e.never ? 'never' : e.status,
	mail: mailIn(e.body),
	node: e.node,
});

/** Which requests an expectation or a step is about: by method, URL and the node that sent them. */
type Selector = Pick<HttpExpectation, 'method' | 'url' | 'node'>;

const selects = (selector: Selector, e: Exchange): boolean =>
	(!selector.method || selector.method.toUpperCase() === e.method) &&
	urlMatches(selector.url, e) &&
	(!selector.node || (e.node === selector.node && !e.workflow));

const describeSelector = (selector: Selector): string =>
	`${selector.method ? `${selector.method.toUpperCase()} ` : ''}${selector.url}${selector.node ? ` from "${selector.node}"` : ''}`;

/**
 * Requests as sent against expect.http: matched on what was sent, shown with the test's secrets
 * masked (a failure prints the request whole).
 */
export function checkHttp(
	expectations: HttpExpectation[],
	mocks: Pick<MockSet, 'journal' | 'secrets'>,
	at: string,
): Failure[] {
	const { journal, secrets } = mocks;
	return expectations.flatMap((e, i) => {
		const sent = journal.filter((x) => selects(e, x));
		const others = journal.length - sent.length;
		return checkItems(
			sent.map(recordOf),
			{ items: e.requests, every: e.every, some: e.some, none: e.none },
			`${at}.${i}`,
			` to ${describeSelector(e)}`,
			sent.length
				? ''
				: ` (${others ? `the nodes sent ${others} other request(s), the first: ${exchangeLine(masked(journal[0], secrets))}` : 'the nodes sent no request to another service'})`,
			'request',
			(index) => recordOf(masked(sent[index], secrets)),
		);
	});
}

/**
 * Requests in an order: for each step, a request after the one the step before took (the first
 * that fits). A step none fits is named, with the requests that came after the step before.
 */
export function checkHttpOrder(
	steps: HttpStep[],
	mocks: Pick<MockSet, 'journal' | 'secrets'>,
	at: string,
): Failure[] {
	const { journal, secrets } = mocks;
	let from = 0;
	for (const [i, step] of steps.entries()) {
		const fits = (e: Exchange) =>
			selects(step, e) &&
			Object.entries(step.has ?? {}).every(([field, value]) =>
				valueMatches(value, fieldOf(recordOf(e), field)),
			);
		const found = journal.findIndex((e, j) => j >= from && fits(e));
		if (found >= 0) {
			from = found + 1;
			continue;
		}
		const earlier = journal.slice(0, from).some(fits);
		const after = journal.slice(from).map((e) => exchangeLine(masked(e, secrets)));
		return [
			{
				at: `${at}.${i}`,
				message: `expected ${describeSelector(step)}${step.has ? ` with ${shown(step.has)}` : ''} ${i ? `after step ${i} (request ${from})` : 'among the requests'}${earlier ? ': one came, but before' : ''}; ${after.length ? `the requests ${i ? 'after it' : 'sent'}: ${after.slice(0, 6).join(', ')}${after.length > 6 ? ', ...' : ''}` : `no request came ${i ? 'after it' : 'at all'}`}`,
			},
		];
	}
	return [];
}

/**
 * The requests no mock answered, one failure per method and URL: the node whose error shows it
 * where one does, how many times, the first one's body, the nearest mock and how to add one.
 */
export function unansweredFailures(
	mocks: MockSet,
	nodeErrors: { node: string; text: string }[],
): Failure[] {
	const byTarget = new Map<string, Exchange[]>();
	// Named with the test's secrets masked (a token in the URL), as the proxy's 501 names them.
	for (const e of mocks.unanswered().map((x) => masked(x, mocks.secrets))) {
		const target = `${e.method} ${e.url}`;
		byTarget.set(target, [...(byTarget.get(target) ?? []), e]);
	}
	return [...byTarget].map(([target, sent]) => {
		const [first] = sent;
		// The node running when it came; else the node whose error shows the proxy's 501 for it.
		const errorNode = nodeErrors.find((n) => n.text.includes(`${NO_MOCK} ${target}`))?.node;
		const node = first.node ? nodeOf(first) : errorNode && `"${errorNode}"`;
		const body = first.body === undefined ? '' : `, the first with body ${shown(first.body, 200)}`;
		return {
			at: 'http',
			message: `${node ? `${node} sent ` : ''}${target}${sent.length > 1 ? ` (${sent.length} times${body})` : body.replace(', the first', '')}, and no mock answers it (n8n's node got 501). The nearest mock: ${mocks.nearest(first)}. Add one: mocks: [{ request: { method: ${first.method}, url: ${first.url.split('?')[0]} }, answer: { status: 200, json: { ... } } }]`,
		};
	});
}

/**
 * Requests a mock never answered whose client set no time-out: in production the node would wait
 * forever, which the case cannot show (n8n was answered with a closed connection instead).
 */
export function neverFailures(mocks: MockSet): Failure[] {
	return mocks.journal
		.filter((e) => e.never && !e.timedOut)
		.map((e) => {
			const shown = masked(e, mocks.secrets);
			return {
				at: 'http',
				message: `${shown.method} ${shown.url}, which ${mocks.placeOf(e.mock!)} never answers, was sent with no time-out: the node would wait forever (n8n's request was closed instead). Give the node a time-out (the HTTP Request node's Options > Timeout), or an answer`,
			};
		});
}
