/**
 * Every kind of difference the report knows, in one table: its class, the words it differs from
 * (the spec's own, and for an open point the rule this server follows, as docs/api.md states it,
 * with the section to read), and what the n8n nodes of this package do with it. The checks only
 * say which kind they saw and what the value was; everything a person reads comes from here.
 *
 * Classes:
 * - breaks-spec: the spec's words say otherwise;
 * - open-point: the spec leaves it open ("not shown", "where available") and the service chose
 *   another answer than this server did;
 * - beyond-spec: neither the spec nor this server's rules say anything about it.
 *
 * Node effects (test/server/divergences.test.cts runs the node against each kind and
 * fails when the sentence stops being true):
 * - handled: the nodes work as they do against this server;
 * - notice: they work, and say what happened in a hint or an item field;
 * - breaks: what goes wrong, and where the workflow must make up for it.
 */

export type DivergenceClass = 'breaks-spec' | 'open-point' | 'beyond-spec';
export type Effect = 'handled' | 'notice' | 'breaks';
export type Operation = 'leads' | 'pools' | 'list' | 'create';

export const OPERATIONS: Record<Operation, string> = {
	leads: 'POST /api/v1/niche-finder-leads',
	pools: 'GET /api/v1/pools',
	list: 'GET /api/v1/inboxes',
	create: 'POST /api/v1/inboxes',
};

export interface NodeEffect {
	effect: Effect;
	says: string;
}

export interface KindDefinition {
	class: DivergenceClass;
	/** A short title: "status", "autoFilledFields missing". */
	what: string;
	/** What the spec says about it, in its words ("not shown" for an open point). */
	spec: string;
	/** For an open point: this server's rule, quoted from docs/api.md, and the section holding it. */
	decision?: { words: string; section: string };
	/** What the nodes do: one sentence, or one per operation where that differs. */
	nodes: NodeEffect | Partial<Record<Operation, NodeEffect>>;
	/** Said before every other kind: a client that trusts the status misses what happened. */
	first?: true;
}

/** Where the rules live: docs/api.md ships with the package; sections as GitHub names them. */
export const DOCS = 'docs/api.md';
const SECTION = {
	both: 'rules-for-both-services',
	leads: 'lead-search-post-apiv1niche-finder-leads',
	pools: 'get-pools',
	list: 'get-inboxes',
	create: 'post-inboxes',
} as const;

const handled = (says: string): NodeEffect => ({ effect: 'handled', says });
const notice = (says: string): NodeEffect => ({ effect: 'notice', says });
const breaks = (says: string): NodeEffect => ({ effect: 'breaks', says });

const AS_SENT =
	"the node outputs the value as the service sent it: expressions and nodes after it that expect the spec's type or form must cope";
const SETTLED_BY_LISTING =
	'Create Inboxes reads the inbox list to learn which entries were created (Created items marked confirmedByListing, a hint says so)';

export const KINDS = {
	// ---- Any operation: statuses, redirects, bodies ----
	'status-server-error': {
		class: 'beyond-spec',
		what: 'server error status',
		spec: 'Statuses listed: 500 for a server error; no other 5xx',
		nodes: {
			leads: breaks(
				"Fetch Leads stops with the status and the service's words, saying the search may have been charged",
			),
			pools: breaks("List Pools stops with the status and the service's words"),
			list: breaks("List Inboxes stops with the status and the service's words"),
			create: notice(SETTLED_BY_LISTING),
		},
	},
	'status-other': {
		class: 'beyond-spec',
		what: 'status',
		spec: 'Only the statuses the spec lists for the operation',
		nodes: breaks("the node stops with the status and the service's words (no retry)"),
	},
	'status-success-other': {
		class: 'beyond-spec',
		what: 'success status',
		spec: 'Success: 200',
		nodes: handled('every 2xx is read as the answer'),
	},
	redirect: {
		class: 'beyond-spec',
		what: 'redirect',
		spec: 'No redirects: each operation is answered at its address',
		nodes: {
			leads: breaks(
				'Fetch Leads does not follow it (a POST would be re-sent without its body): it stops naming the target and the Lead Search Base URL to set; nothing was charged',
			),
			pools: handled('followed (a GET is safe to follow)'),
			list: handled('followed (a GET is safe to follow)'),
			create: breaks(
				'Create Inboxes does not follow it (a POST would be re-sent without its body): it stops naming the target and the Inbox Base URL to set',
			),
		},
	},
	'content-type': {
		class: 'open-point',
		what: 'Content-Type',
		spec: 'Bodies are JSON; the media type of an answer: not shown',
		decision: {
			words: 'Answers are JSON, sent as Content-Type: application/json; charset=utf-8',
			section: SECTION.both,
		},
		nodes: handled('a JSON body is read as JSON whatever its Content-Type says'),
	},
	'body-not-json': {
		class: 'breaks-spec',
		what: 'success body not JSON',
		spec: 'Response: a JSON object',
		nodes: {
			leads: breaks(
				"Fetch Leads stops naming the URL and what came back (an HTML page's title, the text), saying the search may have been charged",
			),
			pools: breaks('List Pools stops naming the URL and what came back, never zero items'),
			list: breaks('List Inboxes stops naming the URL and what came back, never zero items'),
			create: notice(SETTLED_BY_LISTING),
		},
	},
	'body-empty': {
		class: 'breaks-spec',
		what: 'success body empty',
		spec: 'Response: a JSON object',
		nodes: {
			leads: breaks(
				'Fetch Leads stops saying the body was empty, and that the search may have been charged',
			),
			pools: breaks('List Pools stops saying the body was empty, never zero items'),
			list: breaks('List Inboxes stops saying the body was empty, never zero items'),
			create: notice(SETTLED_BY_LISTING),
		},
	},
	// ---- Error answers ----
	'error-body': {
		class: 'breaks-spec',
		what: 'error body',
		spec: 'Error body: JSON object with error (string, message) and optionally details (array of validation errors)',
		nodes: handled(
			'the error names the status and the service; its words are read from error.message, message, detail, errors[] and other common shapes, a web page is summarised by its title',
		),
	},
	'error-details': {
		class: 'breaks-spec',
		what: 'error details',
		spec: 'details: array of validation errors',
		nodes: handled(
			'the message is read from error; details of any shape are summarised in the description',
		),
	},
	'error-detail-shape': {
		class: 'open-point',
		what: 'error detail element',
		spec: 'The fields of a validation error: not shown',
		decision: {
			words: '"details"?: [{"path", "message"}]',
			section: SECTION.both,
		},
		nodes: handled(
			'details as strings, {field or path, message} or {field: [messages]} are all read',
		),
	},
	'error-extra-field': {
		class: 'beyond-spec',
		what: 'extra error field',
		spec: 'Error body: error and optionally details',
		nodes: handled(
			'ignored, except a code (code, errorCode, error.code), which the error and Failed items carry',
		),
	},
	'leads-error-body': {
		class: 'open-point',
		what: 'lead search error body',
		spec: 'Error body shape: not shown',
		decision: {
			words:
				'every status from 400 up answers {"error": "<one sentence saying how to fix it>", "details"?: [{"path", "message"}], "code"?: "..."}',
			section: SECTION.both,
		},
		nodes: handled(
			"the error names the status; the service's words are read from error.message, message, RFC 9457 detail, errors[], a text body and other common shapes",
		),
	},
	'leads-error-code': {
		class: 'open-point',
		what: 'lead search error code',
		spec: 'Error body shape: not shown',
		decision: {
			words: 'a lead search that found no business (no_businesses_found)',
			section: SECTION.both,
		},
		nodes: handled(
			'the code is shown with the error; on a 404 it helps tell "nothing found" from a wrong URL',
		),
	},
	'www-authenticate': {
		class: 'open-point',
		what: 'WWW-Authenticate',
		spec: 'A missing or invalid key is rejected with 401 (headers: not shown)',
		decision: {
			words: 'A missing, malformed or unknown key is 401 with WWW-Authenticate: Bearer',
			section: SECTION.both,
		},
		nodes: handled('any 401 is a refused API key: the error says which service refused it'),
	},
	// ---- Fields of a success body ----
	'field-missing': {
		class: 'breaks-spec',
		what: 'field missing',
		spec: 'The fields the spec lists for the answer',
		nodes: {
			leads: notice(
				'Fetch Leads outputs the contacts it finds; without chargedCredits its hint says the charge is not known (check the balance); without contacts it stops naming what came back',
			),
			pools: breaks(
				`List Pools outputs pools without the field (${AS_SENT}); without pools it stops`,
			),
			list: handled(
				'List Inboxes pages from hasMore, else total, else the page length; an inbox without the field is output without it; without inboxes it stops',
			),
			create: handled(
				"Create Inboxes reads each result's outcome from success, created, a status word or an inboxId; summary and the overall flag are not needed",
			),
		},
	},
	'field-type': {
		class: 'breaks-spec',
		what: 'field type',
		spec: 'The type the spec gives the field',
		nodes: breaks(AS_SENT),
	},
	'number-as-text': {
		class: 'breaks-spec',
		what: 'number sent as text',
		spec: 'The field is a number (an integer for chargedCredits)',
		nodes: {
			leads: handled(
				'chargedCredits sent as text ("3") is read as a number for the hint; the output keeps it as sent',
			),
			pools: handled('List Pools outputs inboxCount sent as text ("3") as the number 3'),
			list: handled(
				'List Inboxes outputs dailySendingLimit sent as text as a number, and reads pagination numbers sent as text',
			),
			create: handled('summary numbers sent as text are read as numbers'),
		},
	},
	'not-integer': {
		class: 'breaks-spec',
		what: 'not an integer',
		spec: 'chargedCredits: integer',
		nodes: breaks(
			'Fetch Leads reports it as sent: its hint says "Charged 2.5 credits", and Output: Response carries it',
		),
	},
	'field-null': {
		class: 'breaks-spec',
		what: 'null where the spec has no null',
		spec: 'The field\'s type, without "or null"',
		nodes: breaks(AS_SENT),
	},
	'contact-field-missing': {
		class: 'open-point',
		what: 'contact field missing',
		spec: 'Each contact carries these fields "where available"; a value that is missing may be null',
		decision: { words: 'Missing values are null, missing lists []', section: SECTION.leads },
		nodes: breaks(
			'Fetch Leads outputs the contact without the field: an expression reading it gets undefined, and Output: Selected Fields leaves it out',
		),
	},
	'contact-list-null': {
		class: 'open-point',
		what: 'contact list null',
		spec: 'Each contact carries these fields "where available"; a value that is missing may be null',
		decision: { words: 'Missing values are null, missing lists []', section: SECTION.leads },
		nodes: breaks(
			'Fetch Leads outputs null as sent, not []: an expression such as {{ $json.emails.length }} fails on it',
		),
	},
	'extra-field': {
		class: 'beyond-spec',
		what: 'extra field',
		spec: 'The fields the spec lists',
		nodes: handled('unknown fields pass through to the items untouched'),
	},
	'status-value': {
		class: 'breaks-spec',
		what: 'inbox status value',
		spec: 'status: One of active, paused, deactivated, error',
		nodes: breaks(
			"List Inboxes outputs the status as sent; its Status filter and the trigger's Statuses offer only the four spec values, so inboxes in this one are reached only unfiltered",
		),
	},
	timestamp: {
		class: 'breaks-spec',
		what: 'timestamp not ISO 8601 UTC',
		spec: 'createdAt: ISO 8601 timestamp in UTC',
		nodes: breaks(
			"the nodes output it as sent; the trigger reads createdAt with Date.parse, so a time without a zone is taken as this machine's local time",
		),
	},
	url: {
		class: 'breaks-spec',
		what: 'not a URL',
		spec: 'website, instagram, facebook, linkedin, tiktok: string (URL) (the socials: or null)',
		nodes: breaks(AS_SENT),
	},
	'phone-format': {
		class: 'breaks-spec',
		what: 'phone number format',
		spec: 'phone: international format with a leading plus sign',
		nodes: breaks(AS_SENT),
	},
	// ---- Lead search, the answer beside the request ----
	'leads-over-count': {
		class: 'breaks-spec',
		what: 'more contacts than count',
		spec: 'count: Number of leads to fetch. Range 1 to 1000. Default 100',
		nodes: notice(
			'Fetch Leads outputs every contact it got; its hint says how many were charged for how many leads',
		),
	},
	'leads-charge': {
		class: 'breaks-spec',
		what: 'chargedCredits against contacts',
		spec: 'Credits are charged only for contacts actually added; the contacts added are returned; chargedCredits is the number actually charged',
		nodes: notice(
			"Fetch Leads's hint gives the credits the service says it charged beside the leads it returned",
		),
	},
	'leads-duplicate-email': {
		class: 'breaks-spec',
		what: 'the same email twice',
		spec: 'Results are deduplicated by email',
		nodes: breaks(
			'Fetch Leads outputs both contacts: deduplicate on email after it (the Remove Duplicates node) before mailing',
		),
	},
	'leads-filter': {
		class: 'breaks-spec',
		what: 'contact against the filter sent',
		spec: 'metaAds/tiktokPixel/gAnalytics true: only businesses with the pixel; false: only businesses whose website was scanned and found without one',
		nodes: breaks(
			'Fetch Leads outputs the contact as sent: filter again on fbPixel/tikTokPixel/gAnalytics after it (an If node)',
		),
	},
	'leads-rate-limited': {
		class: 'open-point',
		what: 'lead search rate limit',
		spec: 'Rate limits and the exact server time-out: not shown',
		decision: {
			words: 'Searches are not rate-limited: this server never answers a search with 429',
			section: SECTION.leads,
		},
		nodes: breaks(
			'Fetch Leads stops with an error saying how long the service asks to wait (from Retry-After or a reset header); nothing was charged; it does not retry by itself',
		),
	},
	// ---- Pools and listings ----
	order: {
		class: 'open-point',
		what: 'order',
		spec: 'Result order: not shown',
		decision: { words: 'ordered by createdAt, then id', section: SECTION.list },
		nodes: handled(
			"the nodes keep the service's order; pages are read until the end whatever the order",
		),
	},
	'page-skip-answered': {
		class: 'breaks-spec',
		what: 'page for another skip',
		spec: 'skip: Number of results to skip',
		nodes: breaks(
			'List Inboxes (Return All) and the trigger stop with an error: the page answered another skip than asked, so the whole list cannot be read; a Limit within the first page still works',
		),
	},
	'page-skip-ignored': {
		class: 'breaks-spec',
		what: 'skip ignored',
		spec: 'skip: Number of results to skip',
		nodes: breaks(
			'List Inboxes (Return All) stops with an error saying the service answered the same inboxes again, and how many it read: never an endless loop',
		),
	},
	'page-over-limit': {
		class: 'breaks-spec',
		what: 'more inboxes than limit',
		spec: 'limit: Maximum results',
		nodes: handled('List Inboxes keeps what it asked for: the output never holds more than Limit'),
	},
	'page-capped': {
		class: 'open-point',
		what: 'page size capped',
		spec: 'limit: default 100, maximum 1000; behaviour for out-of-range values: not shown',
		decision: { words: 'limit (1-1000, default 100)', section: SECTION.list },
		nodes: handled(
			'List Inboxes reads pages of the size the service gives, until hasMore or total say the end',
		),
	},
	'page-out-of-range': {
		class: 'open-point',
		what: 'out-of-range limit or skip accepted',
		spec: 'Behaviour for out-of-range limit or skip values: not shown',
		decision: {
			words: 'Anything else, or a value out of range, is a 400 naming the parameter',
			section: SECTION.list,
		},
		nodes: handled('the nodes never send a limit outside 1-1000 or a negative skip'),
	},
	'page-has-more': {
		class: 'open-point',
		what: 'hasMore against total',
		spec: 'pagination: total (number), limit (number), skip (number), hasMore (boolean)',
		decision: { words: 'hasMore is skip + returned < total', section: SECTION.list },
		nodes: notice(
			'List Inboxes follows hasMore; when what it read falls short of total it reads the list once more, and says in a hint when the two still disagree',
		),
	},
	'page-total-moved': {
		class: 'open-point',
		what: 'total moved during a walk',
		spec: 'pagination: total (number); how a list that changes while paged is paged: not shown',
		decision: {
			words: 'ordered by createdAt, then id; hasMore is skip + returned < total',
			section: SECTION.list,
		},
		nodes: notice(
			'List Inboxes reads the list once more and merges the two passes (an inbox there all along is not missed); a hint says when it is still unsettled; the trigger does not count such a check',
		),
	},
	'page-repeat': {
		class: 'open-point',
		what: 'inbox twice in one walk',
		spec: 'Result order: not shown',
		decision: { words: 'ordered by createdAt, then id', section: SECTION.list },
		nodes: handled('List Inboxes keeps an inbox seen twice once; the trigger reports it once'),
	},
	'listing-filter': {
		class: 'breaks-spec',
		what: 'inbox against the filter asked',
		spec: 'poolId: Only inboxes in this pool; status: Only inboxes with this status',
		nodes: breaks(
			'List Inboxes outputs the inboxes as sent: inboxes of another pool or status reach the workflow; filter again after it',
		),
	},
	'listed-fields': {
		class: 'open-point',
		what: 'listed inbox exposes connection fields',
		spec: 'Whether listed inboxes expose host, port or credential fields: not shown',
		decision: {
			words:
				'A listed inbox has exactly id, emailAddress, poolId, status, dailySendingLimit, createdAt: never hosts, ports, user names or passwords',
			section: SECTION.list,
		},
		nodes: breaks(
			'List Inboxes outputs them: a password or user name the service lists lands in the execution data and its log; remove it after the node (an Edit Fields node) or keep executions short-lived',
		),
	},
	// ---- Inbox creation, the answer beside the request ----
	'created-under-error': {
		class: 'open-point',
		what: 'inboxes created under an error status',
		spec: 'Status code of a batch where only some entries fail: not shown',
		decision: { words: 'an array body always answers 200', section: SECTION.create },
		nodes: handled(
			'Create Inboxes reads the per-entry results of any status: the created inboxes go to Created, the refused ones to Failed. A client that trusts the status alone would miss them',
		),
		first: true,
	},
	'batch-status': {
		class: 'open-point',
		what: 'batch status',
		spec: 'Status code of a batch where only some entries fail: not shown',
		decision: { words: 'an array body always answers 200', section: SECTION.create },
		nodes: handled('Create Inboxes reads the per-entry results of any status'),
	},
	'single-status': {
		class: 'open-point',
		what: 'status of a single failed entry',
		spec: 'Which status codes apply to single entries: not shown',
		decision: {
			words:
				"A single-object body answers 200 when created and otherwise the entry's own status with the error body and code",
			section: SECTION.create,
		},
		nodes: handled(
			'Create Inboxes always sends an array (a batch), so it never meets this answer; a batch answers it per entry',
		),
	},
	'results-count': {
		class: 'breaks-spec',
		what: 'results against entries',
		spec: 'Each entry gets its own element in results',
		nodes: notice(SETTLED_BY_LISTING),
	},
	'results-order': {
		class: 'open-point',
		what: 'results order',
		spec: 'Order of results: not shown',
		decision: { words: 'one result per entry in order', section: SECTION.create },
		nodes: handled('Create Inboxes matches results to entries by emailAddress, not by position'),
	},
	'summary-counts': {
		class: 'breaks-spec',
		what: 'summary against results',
		spec: 'summary counts created and failed entries: total (number of entries), created, failed',
		nodes: notice(
			'Create Inboxes follows the results and says in a hint that the summary disagrees',
		),
	},
	'success-flag': {
		class: 'open-point',
		what: 'overall success flag',
		spec: 'success: boolean, Overall flag',
		decision: {
			words: 'success is true only when every entry was created',
			section: SECTION.create,
		},
		nodes: handled("Create Inboxes reads each entry's own result, not the overall flag"),
	},
	'created-without-id': {
		class: 'breaks-spec',
		what: 'created entry without inboxId',
		spec: 'inboxId: Identifier of the created inbox. Present for a created entry',
		nodes: breaks(
			'the Created item has no inboxId: a workflow that stores or uses the id gets nothing',
		),
	},
	'autofill-missing': {
		class: 'breaks-spec',
		what: 'autoFilledFields missing',
		spec: 'When the provider is known (by provider field or by email domain), then host and port fields that were not sent are filled in, and their names are listed in autoFilledFields',
		nodes: breaks(
			'the Created item has no autoFilledFields: a workflow cannot tell which settings the service detected',
		),
	},
	'autofill-sent': {
		class: 'breaks-spec',
		what: 'autoFilledFields lists a field that was sent',
		spec: 'host and port fields that were not sent are filled in, and their names are listed in autoFilledFields',
		nodes: breaks(
			"the Created item's autoFilledFields is output as sent: it names a setting the workflow sent itself",
		),
	},
	'pool-missing': {
		class: 'breaks-spec',
		what: 'auto-created pool missing',
		spec: 'When poolId is omitted, then a new pool is created and returned',
		nodes: breaks(
			"Create Inboxes takes the new pool from the created results' poolId when they carry one (and sends the run's later batches there); when they do not, the Created items have no poolId and each later batch makes a pool of its own",
		),
	},
	'pool-unasked': {
		class: 'breaks-spec',
		what: 'pool returned although every entry had poolId',
		spec: 'When poolId is present, then the pool is not included',
		nodes: handled("Create Inboxes keeps each entry's own poolId on its Created item"),
	},
	'pool-field': {
		class: 'open-point',
		what: 'auto-created pool under another field',
		spec: 'The auto-created pool\'s field: its name is not given ("the service")',
		decision: { words: 'returned as pool: {"id", "name"}', section: SECTION.create },
		nodes: handled(
			'Create Inboxes finds the pool under any field holding an {id, name} object, or a top-level poolId',
		),
	},
	'failed-entry-shape': {
		class: 'open-point',
		what: 'failed entry fields',
		spec: 'Fields of a failed entry in results: not shown beyond emailAddress and success',
		decision: {
			words: '{"emailAddress", "success": false, "error", "code", "details"?}',
			section: SECTION.create,
		},
		nodes: handled(
			'the Failed item\'s reason and code are read from error, message, reason, detail or errors[] and code, errorCode or a numeric status; else code "failed"',
		),
	},
	'failed-entry-code': {
		class: 'open-point',
		what: 'failed entry code',
		spec: 'Fields of a failed entry in results: not shown beyond emailAddress and success',
		decision: {
			words: '400 invalid_entry, 404 pool_not_found, 409 email_exists, 422 connection_failed',
			section: SECTION.create,
		},
		nodes: handled(
			"the Failed item carries the service's own code: a workflow that routes on our four codes must learn this one",
		),
	},
	'retry-after-absent': {
		class: 'open-point',
		what: '429 without Retry-After',
		spec: 'Response when the hourly limit is exceeded: not shown',
		decision: {
			words: 'refused whole with 429 and Retry-After (seconds until enough quota is free)',
			section: SECTION.create,
		},
		nodes: notice(
			'Create Inboxes reads a reset header instead; with none it waits 60 s and retries within Max Wait on Rate Limit, and its error says the wait was not given',
		),
	},
	'retry-after-form': {
		class: 'open-point',
		what: 'Retry-After not in seconds',
		spec: 'Response when the hourly limit is exceeded: not shown',
		decision: {
			words: 'refused whole with 429 and Retry-After (seconds until enough quota is free)',
			section: SECTION.create,
		},
		nodes: handled('Create Inboxes reads Retry-After as an HTTP date too, and waits until then'),
	},
	'rate-headers-absent': {
		class: 'open-point',
		what: 'X-RateLimit headers missing',
		spec: 'Response when the hourly limit is exceeded: not shown',
		decision: {
			words:
				'Every POST /inboxes answer carries X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset',
			section: SECTION.create,
		},
		nodes: handled('the nodes do not need them: the wait comes from Retry-After'),
	},
	'rate-header-other': {
		class: 'beyond-spec',
		what: 'rate-limit header of its own',
		spec: 'Rate-limit headers: not shown',
		nodes: handled(
			'RateLimit-Reset, X-Rate-Limit-Reset and a structured RateLimit header are read when a 429 has no Retry-After',
		),
	},
} satisfies Record<string, KindDefinition>;

export type Kind = keyof typeof KINDS;

/** What the nodes do with a kind, for one operation. */
export function nodeEffect(kind: Kind, operation: Operation): NodeEffect {
	const nodes = (KINDS[kind] as KindDefinition).nodes;
	if ('effect' in nodes) return nodes;
	const own = nodes[operation];
	if (!own) throw new Error(`divergence kind ${kind} says nothing of the nodes for ${operation}`);
	return own;
}
