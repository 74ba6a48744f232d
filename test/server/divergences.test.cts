import type { IDataObject } from 'n8n-workflow';
import {
	type Kind,
	KINDS,
	nodeEffect,
	type Operation,
	OPERATIONS,
} from '../../mock-server/src/proxy/index.cjs';
import {
	errorOf,
	hintsOf,
	loadWorkflow,
	outputOf,
	runWorkflow,
	stopEngineTimers,
} from '../helpers/n8n.cjs';
import {
	type Handler,
	type OtherService,
	type Reply,
	startOtherService,
} from '../helpers/other-service.cjs';
import { startProxyFor, type TestServer } from '../helpers/server.cjs';

/*
 * The divergence report in front of stand-in services that answer in every way the specs allow
 * and in ways they do not: each case is one kind of difference. An n8n node runs through the
 * proxy against the stand-in, so one run shows both sides: the report must name the difference
 * with its class and say what the nodes do with it, and the node must do exactly that (handled:
 * it works; notice: it works and says so; breaks: what the entry says goes wrong does). A kind
 * without a case fails the coverage test.
 */

const TRIGGER = "When clicking 'Execute workflow'";
const WORKFLOWS: Record<Operation, { file: string; node: string }> = {
	leads: { file: 'fetch-leads.json', node: 'Fetch Leads' },
	pools: { file: 'list-pools-and-inboxes.json', node: 'List Pools' },
	list: { file: 'list-pools-and-inboxes.json', node: 'List Inboxes' },
	create: { file: 'create-inboxes.json', node: 'Create Inboxes' },
};

// ---- Answers as the specs and this server's rules give them: the stand-in's defaults ----

const contact = (n: number, extra: IDataObject = {}): IDataObject => ({
	businessName: `Business ${n}`,
	address: `${n} Main Street, Springfield, IL`,
	website: `https://business${n}.test/`,
	email: `owner${n}@business${n}.test`,
	emails: [`owner${n}@business${n}.test`],
	phone: `+1217555010${n}`,
	phone_numbers: [`+1217555010${n}`],
	instagram: null,
	facebook: `https://facebook.com/business${n}`,
	linkedin: null,
	tiktok: null,
	fbPixel: true,
	tikTokPixel: false,
	gAnalytics: null,
	googleBusinessCategories: ['Plumber'],
	...extra,
});
const contacts = (n: number, extra: (i: number) => IDataObject = () => ({})) =>
	Array.from({ length: n }, (_, i) => contact(i + 1, extra(i + 1)));
const search = (list: IDataObject[], charged = list.length): Reply => ({
	json: { contacts: list, chargedCredits: charged },
});

const POOL = {
	id: 'pool_a',
	name: 'Outreach',
	inboxCount: 5,
	createdAt: '2026-11-01T10:00:00.000Z',
};
const inbox = (n: number, extra: IDataObject = {}): IDataObject => ({
	id: `inbox_${n}`,
	emailAddress: `box${n}@example.test`,
	poolId: 'pool_a',
	status: 'active',
	dailySendingLimit: 20,
	createdAt: `2026-11-02T10:00:0${n}.000Z`,
	...extra,
});
const INBOXES = Array.from({ length: 5 }, (_, i) => inbox(i));

/** A listing that pages as the spec says, at most `cap` per page (pagination.limit says the cap). */
const paged =
	(
		all: IDataObject[] = INBOXES,
		cap = 1000,
		tweak: (page: IDataObject, skip: number) => void = () => undefined,
	): Handler =>
	(request) => {
		const limit = Number(request.query.get('limit') ?? 100);
		const skip = Number(request.query.get('skip') ?? 0);
		const size = Math.min(limit, cap);
		const filtered = all.filter(
			(i) =>
				(!request.query.get('status') || i.status === request.query.get('status')) &&
				(!request.query.get('poolId') || i.poolId === request.query.get('poolId')),
		);
		const page: IDataObject = {
			inboxes: filtered.slice(skip, skip + size),
			pagination: {
				total: filtered.length,
				limit: size,
				skip,
				hasMore: skip + size < filtered.length,
			},
		};
		tweak(page, skip);
		return { json: page };
	};

const RATE = {
	'x-ratelimit-limit': '1000',
	'x-ratelimit-remaining': '990',
	'x-ratelimit-reset': '1796000000',
};
type Entry = { emailAddress: string; poolId?: string };
/** Creates every entry, as this server answers a batch. */
const created =
	(tweak: (body: IDataObject, entries: Entry[]) => void = () => undefined, status = 200): Handler =>
	(request) => {
		const entries = (Array.isArray(request.body) ? request.body : [request.body]) as Entry[];
		const newPool = entries.some((e) => !e.poolId);
		const body: IDataObject = {
			success: true,
			summary: { total: entries.length, created: entries.length, failed: 0 },
			...(newPool ? { pool: { id: 'pool_new', name: 'Pool 2026-11-26 21:00 UTC' } } : {}),
			results: entries.map((e, k) => ({
				emailAddress: e.emailAddress,
				success: true,
				inboxId: `inbox_new_${k}`,
				poolId: e.poolId ?? 'pool_new',
			})),
		};
		tweak(body, entries);
		return { status, headers: RATE, json: body };
	};

/** A batch of two whose second entry failed with these fields (the first created), answered `status`. */
const secondFails = (failure: IDataObject, status = 200): Handler =>
	created(
		(body, entries) =>
			Object.assign(body, {
				success: false,
				summary: { total: 2, created: 1, failed: 1 },
				results: [
					(body.results as IDataObject[])[0],
					{ emailAddress: entries[1].emailAddress, success: false, ...failure },
				],
			}),
		status,
	);

const DEFAULTS: Record<Operation, Reply | Handler> = {
	leads: (request) =>
		search(contacts(Math.min(3, Number((request.body as IDataObject).count ?? 100)))),
	pools: { json: { pools: [POOL] } },
	list: paged(),
	create: created(),
};

// ---- The cases ----

interface Outcome {
	status: string;
	items: IDataObject[];
	/** Create Inboxes' Failed output. */
	failed: IDataObject[];
	hints: string[];
	error?: string;
	/** The requests the stand-in received from the node. */
	received: OtherService['requests'];
}

interface Case {
	kind: Kind;
	op: Operation;
	name: string;
	/** The stand-in's answers that differ (the others are DEFAULTS). */
	routes: Partial<Record<Operation, Reply | Handler>> & Record<string, Reply | Handler>;
	/** The node's parameters and input items. */
	parameters?: IDataObject;
	input?: IDataObject[];
	/** Requests a client sends through the proxy besides the node's (answers the nodes never ask for). */
	extra?: Array<[string, string, unknown?]>;
	/** Other kinds the stand-in's answer shows besides this one (a capped page to walk). */
	also?: Kind[];
	/** The service answered an error: the node's error is the right outcome, the words are checked. */
	refusal?: true;
	/** What the node must show: an error, a hint, or its output. */
	expect: { error?: RegExp; hint?: RegExp; output?: (outcome: Outcome) => void };
}

const leadsInput = (count = 3) => [{ niche: 'plumber', city: 'Springfield', count }];
const createInput = (n = 2, domain = 'example.test') =>
	Array.from({ length: n }, (_, i) => ({ email: `box${i}@${domain}`, appPassword: 'pw' }));
const LIST_ALL = { 'List Inboxes': { returnAll: true } };
const gone = (field: string) => (o: Outcome) =>
	expect(o.items.every((i) => !(field in i))).toBe(true);
const value = (field: string, expected: unknown) => (o: Outcome) =>
	expect(o.items.map((i) => i[field])).toContainEqual(expected);
const count = (n: number) => (o: Outcome) => expect(o.items).toHaveLength(n);
const confirmed = (o: Outcome) =>
	expect(o.items.some((i) => i.confirmedByListing === true)).toBe(true);
const html = (title: string): Reply => ({
	html: `<!doctype html><html><head><title>${title}</title></head><body>${title}</body></html>`,
});

const CASES: Case[] = [
	// Statuses
	{
		kind: 'status-server-error',
		op: 'leads',
		name: 'a 503 to a search',
		routes: { leads: { status: 503, json: { error: 'Maintenance until noon' } } },
		expect: {
			error: /Maintenance until noon[\s\S]*may have been carried out|Maintenance until noon/,
		},
	},
	{
		kind: 'status-server-error',
		op: 'pools',
		name: 'a 502 to the pools',
		routes: { pools: { status: 502, json: { error: 'Upstream down' } } },
		expect: { error: /Upstream down/ },
	},
	{
		kind: 'status-server-error',
		op: 'list',
		name: 'a 504 to a page',
		routes: { list: { status: 504, json: { error: 'Gateway time-out' } } },
		expect: { error: /Gateway time-out/ },
	},
	{
		kind: 'status-server-error',
		op: 'create',
		name: 'a 503 to a batch that created it anyway',
		routes: {
			create: { status: 503, json: { error: 'Try later' } },
			list: paged([inbox(0, { emailAddress: 'box0@example.test', poolId: 'pool_new' })]),
		},
		input: createInput(1),
		expect: { output: confirmed, hint: /got no clear answer/ },
	},
	{
		kind: 'status-other',
		op: 'pools',
		name: 'a 418',
		routes: { pools: { status: 418, json: { error: 'I am a teapot' } } },
		expect: { error: /I am a teapot/ },
	},
	{
		kind: 'status-success-other',
		op: 'pools',
		name: 'pools answered 203',
		routes: { pools: { status: 203, json: { pools: [POOL] } } },
		expect: { output: count(1) },
	},
	{
		kind: 'redirect',
		op: 'leads',
		name: 'a search redirected',
		routes: {
			leads: {
				status: 308,
				headers: { location: 'https://leads.example.test/v2/api/v1/niche-finder-leads' },
			},
		},
		expect: { error: /redirected[\s\S]*leads\.example\.test/ },
	},
	{
		kind: 'redirect',
		op: 'pools',
		name: 'pools redirected',
		routes: {
			pools: (r) => ({
				status: 302,
				headers: { location: `http://${r.headers.host}/moved/api/v1/pools` },
			}),
			'GET /moved/api/v1/pools': { json: { pools: [POOL] } },
		},
		expect: { output: count(1) },
	},
	{
		kind: 'redirect',
		op: 'list',
		name: 'a page redirected',
		routes: {
			list: (r) => ({
				status: 307,
				headers: { location: `http://${r.headers.host}/moved/api/v1/inboxes?limit=1000&skip=0` },
			}),
			'GET /moved/api/v1/inboxes': paged(),
		},
		parameters: LIST_ALL,
		expect: { output: count(5) },
	},
	{
		kind: 'redirect',
		op: 'create',
		name: 'a batch redirected',
		routes: {
			create: { status: 301, headers: { location: 'https://inboxes.example.test/api/v1/inboxes' } },
		},
		input: createInput(1),
		expect: { error: /redirected[\s\S]*inboxes\.example\.test/ },
	},
	{
		kind: 'content-type',
		op: 'pools',
		name: 'JSON sent as text/plain',
		routes: { pools: { text: JSON.stringify({ pools: [POOL] }) } },
		expect: { output: count(1) },
	},
	// Bodies of a success
	{
		kind: 'body-not-json',
		op: 'leads',
		name: 'a login page for a search',
		routes: { leads: html('Sign in') },
		expect: { error: /HTML page titled "Sign in"/ },
	},
	{
		kind: 'body-not-json',
		op: 'pools',
		name: 'a login page for the pools',
		routes: { pools: html('Sign in') },
		expect: { error: /HTML page titled "Sign in"/ },
	},
	{
		kind: 'body-not-json',
		op: 'list',
		name: 'a login page for a page',
		routes: { list: html('Sign in') },
		expect: { error: /HTML page titled "Sign in"/ },
	},
	{
		kind: 'body-not-json',
		op: 'create',
		name: 'a login page for a batch',
		routes: {
			create: { ...html('Sign in'), headers: RATE },
			list: paged([inbox(0, { poolId: 'pool_new' })]),
		},
		input: createInput(1),
		expect: { output: confirmed },
	},
	{
		kind: 'body-empty',
		op: 'leads',
		name: 'an empty search answer',
		routes: { leads: { text: '' } },
		expect: { error: /empty/ },
	},
	{
		kind: 'body-empty',
		op: 'pools',
		name: 'an empty pools answer',
		routes: { pools: { text: '' } },
		expect: { error: /empty/ },
	},
	{
		kind: 'body-empty',
		op: 'list',
		name: 'an empty page',
		routes: { list: { text: '' } },
		expect: { error: /empty/ },
	},
	{
		kind: 'body-empty',
		op: 'create',
		name: 'an empty batch answer',
		routes: {
			create: { text: '', headers: RATE },
			list: paged([inbox(0, { poolId: 'pool_new' })]),
		},
		input: createInput(1),
		expect: { output: confirmed },
	},
	// Error answers
	{
		kind: 'error-body',
		op: 'pools',
		name: 'an error under message',
		routes: { pools: { status: 403, json: { message: 'Key lacks pools:read' } } },
		refusal: true,
		expect: { error: /Key lacks pools:read/ },
	},
	{
		kind: 'error-body',
		op: 'list',
		name: 'an error object',
		routes: {
			list: { status: 400, json: { error: { message: 'limit is too large', code: 'bad_limit' } } },
		},
		refusal: true,
		expect: { error: /limit is too large/ },
	},
	{
		kind: 'error-body',
		op: 'create',
		name: 'a gateway page for a refused batch',
		routes: { create: { status: 400, ...html('400 Bad Request') } },
		input: createInput(1),
		refusal: true,
		expect: { error: /400 Bad Request/ },
	},
	{
		kind: 'error-details',
		op: 'list',
		name: 'details as a text',
		routes: {
			list: {
				status: 400,
				json: { error: 'Invalid query', details: 'limit must be at most 1000' },
			},
		},
		refusal: true,
		expect: { error: /Invalid query/ },
	},
	{
		kind: 'error-detail-shape',
		op: 'list',
		name: 'details by field',
		routes: {
			list: {
				status: 400,
				json: {
					error: 'Invalid query',
					details: [{ field: 'limit', message: 'must be at most 1000' }],
				},
			},
		},
		refusal: true,
		expect: { error: /Invalid query/ },
	},
	{
		kind: 'error-extra-field',
		op: 'pools',
		name: 'a request id beside the error',
		routes: { pools: { status: 403, json: { error: 'Key lacks pools:read', requestId: 'req_1' } } },
		refusal: true,
		expect: { error: /Key lacks pools:read/ },
	},
	{
		kind: 'leads-error-body',
		op: 'leads',
		name: 'a search error under message',
		routes: { leads: { status: 400, json: { message: 'City not found: Springfeld' } } },
		refusal: true,
		expect: { error: /City not found: Springfeld/ },
	},
	{
		kind: 'leads-error-code',
		op: 'leads',
		name: 'a code on a 402',
		routes: {
			leads: { status: 402, json: { error: 'Not enough credits', code: 'insufficient_credits' } },
		},
		refusal: true,
		expect: { error: /Not enough credits/ },
	},
	{
		kind: 'www-authenticate',
		op: 'pools',
		name: 'a 401 without a challenge',
		routes: { pools: { status: 401, json: { error: 'Invalid API key' } } },
		refusal: true,
		expect: { error: /Invalid API key/ },
	},
	{
		kind: 'leads-rate-limited',
		op: 'leads',
		name: 'searches limited',
		routes: {
			leads: {
				status: 429,
				headers: { 'retry-after': '120' },
				json: { error: 'Too many searches' },
			},
		},
		refusal: true,
		expect: { error: /Too many searches[\s\S]*wait 2 min/ },
	},
	// Fields
	{
		kind: 'field-missing',
		op: 'leads',
		name: 'a search without chargedCredits',
		routes: { leads: { json: { contacts: contacts(2) } } },
		expect: { hint: /did not say what one search charged/ },
	},
	{
		kind: 'field-missing',
		op: 'pools',
		name: 'a pool without inboxCount',
		routes: { pools: { json: { pools: [{ ...POOL, inboxCount: undefined }] } } },
		expect: { output: gone('inboxCount') },
	},
	{
		kind: 'field-missing',
		op: 'list',
		name: 'pages without pagination',
		routes: {
			list: (r) => ({
				json: {
					inboxes: INBOXES.slice(Number(r.query.get('skip') ?? 0)).slice(
						0,
						Number(r.query.get('limit')),
					),
				},
			}),
		},
		parameters: LIST_ALL,
		expect: { output: count(5) },
	},
	{
		kind: 'field-missing',
		op: 'create',
		name: 'results without success',
		routes: {
			create: created((body) => (body.results as IDataObject[]).forEach((r) => delete r.success)),
		},
		input: createInput(2),
		expect: { output: count(2) },
	},
	{
		kind: 'field-type',
		op: 'pools',
		name: 'a pool name as a number',
		routes: { pools: { json: { pools: [{ ...POOL, name: 42 }] } } },
		expect: { output: value('name', 42) },
	},
	{
		kind: 'number-as-text',
		op: 'leads',
		name: 'chargedCredits as text',
		routes: { leads: { json: { contacts: contacts(3), chargedCredits: '3' } } },
		expect: { hint: /Charged 3 credits for 3 new leads/ },
	},
	{
		kind: 'number-as-text',
		op: 'pools',
		name: 'inboxCount as text',
		routes: { pools: { json: { pools: [{ ...POOL, inboxCount: '5' }] } } },
		expect: { output: value('inboxCount', 5) },
	},
	{
		kind: 'number-as-text',
		op: 'list',
		name: 'dailySendingLimit and total as text',
		routes: {
			list: paged(
				INBOXES.map((i) => ({ ...i, dailySendingLimit: '20' })),
				2,
				(page) => Object.assign(page.pagination as IDataObject, { total: '5' }),
			),
		},
		parameters: LIST_ALL,
		also: ['page-capped'],
		expect: {
			output: (o) => expect(o.items.map((i) => i.dailySendingLimit)).toEqual([20, 20, 20, 20, 20]),
		},
	},
	{
		kind: 'number-as-text',
		op: 'create',
		name: 'summary counts as text',
		routes: {
			create: created((body) =>
				Object.assign(body.summary as IDataObject, { created: '2', total: '2' }),
			),
		},
		expect: { output: count(2) },
	},
	{
		kind: 'not-integer',
		op: 'leads',
		name: 'a fraction of a credit',
		routes: { leads: { json: { contacts: contacts(2), chargedCredits: 2.5 } } },
		also: ['leads-charge'],
		parameters: { 'Fetch Leads': { output: 'response' } },
		expect: { hint: /Charged 2\.5 credits/, output: value('chargedCredits', 2.5) },
	},
	{
		kind: 'field-null',
		op: 'pools',
		name: 'a pool name null',
		routes: { pools: { json: { pools: [{ ...POOL, name: null }] } } },
		expect: { output: value('name', null) },
	},
	{
		kind: 'contact-field-missing',
		op: 'leads',
		name: 'contacts without linkedin',
		routes: { leads: search(contacts(3).map(({ linkedin: _, ...c }) => c)) },
		expect: { output: gone('linkedin') },
	},
	{
		kind: 'contact-list-null',
		op: 'leads',
		name: 'emails and phone numbers null',
		routes: { leads: search(contacts(3, () => ({ emails: null, phone_numbers: null }))) },
		expect: { output: value('emails', null) },
	},
	{
		kind: 'extra-field',
		op: 'leads',
		name: 'a score beside each contact',
		routes: { leads: search(contacts(3, (n) => ({ crmScore: n }))) },
		expect: { output: value('crmScore', 1) },
	},
	{
		kind: 'status-value',
		op: 'list',
		name: 'a status "warming"',
		routes: { list: paged([inbox(0, { status: 'warming' })]) },
		parameters: LIST_ALL,
		expect: { output: value('status', 'warming') },
	},
	{
		kind: 'timestamp',
		op: 'pools',
		name: 'createdAt without T and zone',
		routes: { pools: { json: { pools: [{ ...POOL, createdAt: '2026-01-05 09:00:00' }] } } },
		expect: { output: value('createdAt', '2026-01-05 09:00:00') },
	},
	{
		kind: 'timestamp',
		op: 'list',
		name: 'createdAt in another zone',
		routes: { list: paged([inbox(0, { createdAt: '2026-11-02T11:00:00+01:00' })]) },
		parameters: LIST_ALL,
		expect: { output: value('createdAt', '2026-11-02T11:00:00+01:00') },
	},
	{
		kind: 'url',
		op: 'leads',
		name: 'a website without a scheme',
		routes: { leads: search(contacts(3, () => ({ website: 'business.test' }))) },
		expect: { output: value('website', 'business.test') },
	},
	{
		kind: 'phone-format',
		op: 'leads',
		name: 'a national phone number',
		routes: { leads: search(contacts(3, () => ({ phone: '(217) 555-0101' }))) },
		expect: { output: value('phone', '(217) 555-0101') },
	},
	// A search beside its request
	{
		kind: 'leads-over-count',
		op: 'leads',
		name: 'five contacts for count 3',
		routes: { leads: search(contacts(5)) },
		input: leadsInput(3),
		expect: { hint: /Charged 5 credits for 5 new leads/ },
	},
	{
		kind: 'leads-charge',
		op: 'leads',
		name: 'charged 5 for 3',
		routes: { leads: search(contacts(3), 5) },
		expect: { hint: /Charged 5 credits for 3 new leads/ },
	},
	{
		kind: 'leads-duplicate-email',
		op: 'leads',
		name: 'one email twice',
		routes: {
			leads: search([
				contact(1),
				contact(2, { email: 'owner1@business1.test', emails: ['owner1@business1.test'] }),
			]),
		},
		expect: { output: count(2) },
	},
	{
		kind: 'leads-filter',
		op: 'leads',
		name: 'a contact without the pixel asked for',
		routes: { leads: search(contacts(2, (n) => ({ fbPixel: n === 1 }))) },
		parameters: { 'Fetch Leads': { metaAds: 'yes' } },
		expect: { output: value('fbPixel', false) },
	},
	// Pools and listings
	{
		kind: 'order',
		op: 'pools',
		name: 'pools newest first',
		routes: {
			pools: {
				json: { pools: [{ ...POOL, id: 'pool_b', createdAt: '2026-11-03T00:00:00Z' }, POOL] },
			},
		},
		expect: { output: (o) => expect(o.items.map((i) => i.id)).toEqual(['pool_b', 'pool_a']) },
	},
	{
		kind: 'order',
		op: 'list',
		name: 'inboxes newest first',
		routes: { list: paged([...INBOXES].reverse()) },
		parameters: LIST_ALL,
		expect: { output: count(5) },
	},
	{
		kind: 'page-skip-answered',
		op: 'list',
		name: 'pages that say skip 0',
		routes: {
			list: paged(INBOXES, 2, (page) => Object.assign(page.pagination as IDataObject, { skip: 0 })),
		},
		parameters: LIST_ALL,
		also: ['page-capped', 'page-has-more'],
		expect: { error: /for skip=0, not for skip=2/ },
	},
	{
		kind: 'page-skip-ignored',
		op: 'list',
		name: 'the first page again and again',
		routes: {
			list: paged(INBOXES, 2, (page, skip) =>
				Object.assign(page, {
					inboxes: INBOXES.slice(0, 2),
					pagination: { total: 5, limit: 2, skip, hasMore: true },
				}),
			),
		},
		parameters: LIST_ALL,
		also: ['page-capped'],
		expect: { error: /answered the same inboxes again/ },
	},
	{
		kind: 'page-over-limit',
		op: 'list',
		name: 'five inboxes for limit 2',
		routes: {
			list: (r) => ({
				json: {
					inboxes: INBOXES,
					pagination: { total: 5, limit: Number(r.query.get('limit')), skip: 0, hasMore: false },
				},
			}),
		},
		parameters: { 'List Inboxes': { returnAll: false, limit: 2 } },
		also: ['page-has-more'],
		expect: { output: count(2) },
	},
	{
		kind: 'page-capped',
		op: 'list',
		name: 'pages capped at 2',
		routes: { list: paged(INBOXES, 2) },
		parameters: LIST_ALL,
		expect: { output: count(5) },
	},
	{
		kind: 'page-out-of-range',
		op: 'list',
		name: 'limit=5000 answered',
		routes: {},
		extra: [['GET', '/api/v1/inboxes?limit=5000']],
		parameters: LIST_ALL,
		expect: {
			output: (o) =>
				expect(
					o.received
						.filter((r) => r.path === '/api/v1/inboxes')
						.every(
							(r) => Number(r.query.get('limit')) <= 1000 && Number(r.query.get('limit')) >= 1,
						),
				).toBe(true),
		},
	},
	{
		kind: 'page-has-more',
		op: 'list',
		name: 'hasMore false before the end',
		routes: {
			list: paged(INBOXES, 2, (page) =>
				Object.assign(page.pagination as IDataObject, { hasMore: false }),
			),
		},
		parameters: LIST_ALL,
		also: ['page-capped'],
		expect: { hint: /changed while it was read/ },
	},
	{
		kind: 'page-total-moved',
		op: 'list',
		name: 'a total that grows',
		routes: {
			list: paged(INBOXES, 2, (page, skip) =>
				Object.assign(page.pagination as IDataObject, { total: 5 + skip }),
			),
		},
		parameters: LIST_ALL,
		also: ['page-capped', 'page-has-more'],
		expect: { hint: /changed while it was read/ },
	},
	{
		kind: 'page-repeat',
		op: 'list',
		name: 'an inbox on two pages',
		routes: {
			list: paged(
				INBOXES,
				2,
				(page, skip) =>
					skip > 0 &&
					(page.inboxes = skip === 2 ? [INBOXES[1], INBOXES[3]] : [INBOXES[2], INBOXES[4]]),
			),
		},
		parameters: LIST_ALL,
		also: ['page-capped', 'order'],
		expect: { output: count(5) },
	},
	{
		kind: 'listing-filter',
		op: 'list',
		name: 'active inboxes for status=paused',
		routes: {
			list: paged(INBOXES, 1000, (page) =>
				Object.assign(page, {
					inboxes: INBOXES.slice(0, 2),
					pagination: { total: 2, limit: 1000, skip: 0, hasMore: false },
				}),
			),
		},
		parameters: { 'List Inboxes': { returnAll: true, status: 'paused' } },
		expect: { output: value('status', 'active') },
	},
	{
		kind: 'listed-fields',
		op: 'list',
		name: 'listed inboxes with their passwords',
		routes: {
			list: paged(
				INBOXES.map((i) => ({ ...i, imapHost: 'imap.example.test', imapPassword: 'hunter2' })),
			),
		},
		parameters: LIST_ALL,
		expect: { output: value('imapPassword', 'hunter2') },
	},
	// Creation beside its entries
	{
		kind: 'created-under-error',
		op: 'create',
		name: 'a 409 while one was created',
		routes: { create: secondFails({ error: 'Exists', code: 'email_exists' }, 409) },
		expect: { output: (o) => expect([o.items.length, o.failed.length]).toEqual([1, 1]) },
	},
	{
		kind: 'batch-status',
		op: 'create',
		name: 'a 207 for a batch',
		routes: { create: created(undefined, 207) },
		expect: { output: count(2) },
	},
	{
		kind: 'single-status',
		op: 'create',
		name: 'a failed single entry answered 200',
		routes: {
			create: (r) =>
				Array.isArray(r.body)
					? created()(r, 0)
					: {
							headers: RATE,
							json: {
								success: false,
								summary: { total: 1, created: 0, failed: 1 },
								results: [
									{
										emailAddress: 'solo@example.test',
										success: false,
										error: 'Exists',
										code: 'email_exists',
									},
								],
							},
						},
		},
		extra: [
			[
				'POST',
				'/api/v1/inboxes',
				{ emailAddress: 'solo@example.test', imapPassword: 'pw', poolId: 'pool_a' },
			],
		],
		expect: {
			output: (o) =>
				expect(
					o.received
						.filter((r) => r.method === 'POST' && r.path === '/api/v1/inboxes')
						.every((r) => Array.isArray(r.body)),
				).toBe(true),
		},
	},
	{
		kind: 'results-count',
		op: 'create',
		name: 'a result missing',
		routes: {
			create: created((body) =>
				Object.assign(body, { results: (body.results as IDataObject[]).slice(0, 1) }),
			),
			list: paged([inbox(1, { emailAddress: 'box1@example.test', poolId: 'pool_new' })]),
		},
		also: ['summary-counts'],
		expect: { output: confirmed },
	},
	{
		kind: 'results-order',
		op: 'create',
		name: 'results reversed',
		routes: { create: created((body) => (body.results as IDataObject[]).reverse()) },
		expect: {
			output: (o) =>
				expect(o.items.map((i) => [i.emailAddress, i.inboxId])).toEqual([
					['box0@example.test', 'inbox_new_0'],
					['box1@example.test', 'inbox_new_1'],
				]),
		},
	},
	{
		kind: 'summary-counts',
		op: 'create',
		name: 'a summary that counts 5',
		routes: {
			create: created((body) => Object.assign(body.summary as IDataObject, { created: 5 })),
		},
		expect: { hint: /summary says 5 created/ },
	},
	{
		kind: 'success-flag',
		op: 'create',
		name: 'success false with all created',
		routes: { create: created((body) => Object.assign(body, { success: false })) },
		expect: { output: count(2) },
	},
	{
		kind: 'created-without-id',
		op: 'create',
		name: 'created results without inboxId',
		routes: {
			create: created((body) => (body.results as IDataObject[]).forEach((r) => delete r.inboxId)),
		},
		expect: { output: gone('inboxId') },
	},
	{
		kind: 'autofill-missing',
		op: 'create',
		name: 'Gmail inboxes without autoFilledFields',
		routes: {},
		input: createInput(2, 'gmail.com'),
		expect: { output: gone('autoFilledFields') },
	},
	{
		kind: 'autofill-sent',
		op: 'create',
		name: 'autoFilledFields naming a host that was sent',
		routes: {
			create: created((body) =>
				(body.results as IDataObject[]).forEach(
					(r) => (r.autoFilledFields = ['imapHost', 'imapPort', 'smtpHost', 'smtpPort']),
				),
			),
		},
		parameters: {
			'Create Inboxes': { additionalFields: { imapHost: 'imap.example.test', imapPort: 993 } },
		},
		expect: { output: value('autoFilledFields', ['imapHost', 'imapPort', 'smtpHost', 'smtpPort']) },
	},
	{
		kind: 'pool-missing',
		op: 'create',
		name: 'no pool, results without poolId',
		routes: {
			create: created((body) => {
				delete body.pool;
				(body.results as IDataObject[]).forEach((r) => delete r.poolId);
			}),
		},
		expect: { output: gone('poolId') },
	},
	{
		kind: 'pool-unasked',
		op: 'create',
		name: 'a pool for entries that named theirs',
		routes: {
			create: created((body) => {
				body.pool = { id: 'pool_new', name: 'Surprise' };
				(body.results as IDataObject[]).forEach((r) => delete r.poolId);
			}),
		},
		parameters: {
			'Create Inboxes': {
				poolMode: 'existing',
				poolId: { __rl: true, mode: 'id', value: 'pool_a' },
			},
		},
		expect: { output: value('poolId', 'pool_a') },
	},
	{
		kind: 'pool-field',
		op: 'create',
		name: 'the pool under createdPool',
		routes: {
			create: created((body) => {
				body.createdPool = body.pool;
				delete body.pool;
				(body.results as IDataObject[]).forEach((r) => delete r.poolId);
			}),
		},
		expect: { output: value('poolId', 'pool_new') },
	},
	{
		kind: 'failed-entry-shape',
		op: 'create',
		name: 'a failed entry with message only',
		routes: { create: secondFails({ message: 'Already exists' }) },
		expect: {
			output: (o) =>
				expect(o.failed.map((f) => [f.code, f.reason])).toEqual([['failed', 'Already exists']]),
		},
	},
	{
		kind: 'failed-entry-code',
		op: 'create',
		name: 'a code of its own',
		routes: { create: secondFails({ error: 'Already exists', code: 'DUPLICATE' }) },
		expect: { output: (o) => expect(o.failed.map((f) => f.code)).toEqual(['DUPLICATE']) },
	},
	{
		kind: 'retry-after-absent',
		op: 'create',
		name: 'a 429 that says no wait',
		routes: { create: { status: 429, json: { error: 'Hourly limit reached' } } },
		parameters: { 'Create Inboxes': { options: { maxRateLimitWait: 30 } } },
		input: createInput(1),
		also: ['rate-headers-absent'],
		refusal: true,
		expect: { error: /did not say how long to wait[\s\S]*did not say when it frees/ },
	},
	{
		kind: 'retry-after-form',
		op: 'create',
		name: 'a 429 with an HTTP date',
		routes: {
			create: (r, seen) =>
				seen === 0
					? {
							status: 429,
							headers: { ...RATE, 'retry-after': new Date(Date.now() + 2000).toUTCString() },
							json: { error: 'Hourly limit reached' },
						}
					: created()(r, seen),
		},
		input: createInput(1),
		expect: { output: count(1) },
	},
	{
		kind: 'rate-headers-absent',
		op: 'create',
		name: 'no X-RateLimit headers',
		routes: {
			create: async (r, seen) => {
				const reply = await created()(r, seen);
				return { ...reply, headers: {} };
			},
		},
		expect: { output: count(2) },
	},
	{
		kind: 'rate-header-other',
		op: 'create',
		name: 'a RateLimit-Policy header',
		routes: {
			create: async (r, seen) => {
				const reply = await created()(r, seen);
				return { ...reply, headers: { ...RATE, 'ratelimit-policy': '1000;w=3600' } };
			},
		},
		expect: { output: count(2) },
	},
];

// ---- The runs ----

let service: OtherService;
let proxy: TestServer;
beforeAll(async () => {
	service = await startOtherService();
	proxy = await startProxyFor(service.url, { proxyTimeout: 10_000 });
});
afterAll(async () => {
	await proxy.close();
	await service.close();
	stopEngineTimers();
});

async function runCase(c: Case) {
	service.reset();
	await proxy.admin('POST', '/reset');
	for (const op of Object.keys(OPERATIONS) as Operation[])
		service.on(OPERATIONS[op], c.routes[op] ?? DEFAULTS[op]);
	for (const [route, reply] of Object.entries(c.routes))
		if (!(route in OPERATIONS)) service.on(route, reply);
	const apiKey = 'stand-in-key-123456';
	const extras = c.extra?.length ?? 0;
	for (const [method, path, body] of c.extra ?? [])
		await fetch(`${proxy.url}${path}`, {
			method,
			headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	const { file, node } = WORKFLOWS[c.op];
	const input =
		c.input ?? (c.op === 'leads' ? leadsInput() : c.op === 'create' ? createInput() : [{}]);
	const run = await runWorkflow(loadWorkflow(file), {
		credentials: { apiKey, leadsBaseUrl: proxy.url, inboxBaseUrl: `${proxy.url}/api/v1` },
		pinData: { [TRIGGER]: input },
		parameters: c.parameters as Record<string, IDataObject> | undefined,
	});
	const error = errorOf(run);
	const outcome: Outcome = {
		status: run.status,
		items: outputOf(run, node).map((i) => i.json),
		failed: outputOf(run, node, 1).map((i) => i.json),
		hints: hintsOf(run, node),
		error: error ? `${error.message}\n${error.description ?? ''}` : undefined,
		received: service.requests.slice(extras),
	};
	const report = (await proxy.admin('GET', '/divergences')).body;
	return { outcome, report };
}

describe('the divergence report against stand-in services, and the nodes beside it', () => {
	it('covers every kind of difference it knows with a case (over 40 distinct, across the four operations)', () => {
		const covered = new Set(CASES.map((c) => c.kind));
		expect(Object.keys(KINDS).filter((kind) => !covered.has(kind as Kind))).toEqual([]);
		expect(new Set(CASES.map((c) => `${c.kind} ${c.op}`)).size).toBeGreaterThanOrEqual(40);
		expect(new Set(CASES.map((c) => c.op))).toEqual(new Set(['leads', 'pools', 'list', 'create']));
	});

	it('finds nothing in answers given as the specs and this server give them', async () => {
		for (const op of ['leads', 'list', 'create'] as const) {
			const { outcome, report } = await runCase({
				kind: 'order',
				op,
				name: 'as specified',
				routes: {},
				expect: {},
			});
			expect([op, outcome.error, report.divergences]).toEqual([op, undefined, []]);
		}
	});

	it.each(CASES.map((c) => [`${c.kind} (${c.op}): ${c.name}`, c] as const))('%s', async (_, c) => {
		const { outcome, report } = await runCase(c);
		const definition = KINDS[c.kind];
		const effect = nodeEffect(c.kind, c.op);
		const entry = report.divergences.find(
			(d: { kind: string; operation: string }) =>
				d.kind === c.kind && d.operation === OPERATIONS[c.op],
		);
		// The report: this kind, its class, its words, what the nodes do; nothing it did not see.
		expect(entry).toEqual(
			expect.objectContaining({
				class: definition.class,
				what: definition.what,
				nodes: effect,
				count: expect.any(Number),
			}),
		);
		expect(entry.seen).not.toBe('');
		if (definition.class === 'open-point')
			expect(entry.decision.link).toMatch(/^docs\/api\.md#[a-z0-9-]+$/);
		const allowed = new Set<string>([c.kind, ...(c.also ?? [])]);
		expect(
			report.divergences
				.map((d: { kind: string }) => d.kind)
				.filter((k: string) => !allowed.has(k)),
		).toEqual([]);
		// The node: does what the entry says.
		const said = [outcome.error ?? '', ...outcome.hints].join('\n');
		if (c.expect.error) expect(said).toMatch(c.expect.error);
		if (c.expect.hint) expect(outcome.hints.join('\n')).toMatch(c.expect.hint);
		if (c.expect.output) c.expect.output(outcome);
		if (effect.effect === 'breaks') expect(c.expect.error ?? c.expect.output).toBeDefined();
		else if (!c.refusal) expect([outcome.status, outcome.error]).toEqual(['success', undefined]);
		if (effect.effect === 'notice')
			expect(c.expect.hint ?? c.expect.output ?? c.expect.error).toBeDefined();
		if (c.refusal) expect(outcome.error).toBeDefined();
	});
});
