/**
 * The test file's format (YAML or JSON), in one place: the loader checks files with it and the
 * published JSON Schema (workflow-test.schema.json) is generated from it, so editors validate and
 * complete what the runner accepts. Services add their own fields (their seeds, changes and
 * expectations: services/service.cts), composed in by testFileSchemaFor.
 */
import { z } from 'zod';
import type { ServiceSchema } from '../services/service.cjs';

/** A count: exactly n, or a range. */
export const count = z
	.union([
		z.int().min(0),
		z
			.strictObject({ atLeast: z.int().min(0).optional(), atMost: z.int().min(0).optional() })
			.refine((c) => c.atLeast !== undefined || c.atMost !== undefined, {
				message: 'give atLeast, atMost or both',
			}),
	])
	.meta({ id: 'Count', description: 'A number (exactly), or {atLeast, atMost} (either or both).' });

/** A value a field must have: equal (JSON), or a "/regular expression/flags" for text. */
const matcher = z.unknown().meta({
	description:
		'The value, compared as JSON; a string "/pattern/flags" matches text by regular expression.',
});

const fields = z
	.record(z.string(), matcher)
	.meta({ description: 'Field (dot path: address.city) to the value it must have.' });

/** A duration: seconds, or 30s, 15m, 2h, 1d, 2w. */
const duration = z
	.union([
		z.int().min(1, 'the clock only moves forward: give a number of seconds of 1 or more'),
		z.string().regex(/^\d+(\.\d+)?\s*(s|m|h|d|w)$/, {
			error: (issue) =>
				String(issue.input).trim().startsWith('-')
					? 'the clock only moves forward: give how far, like 1d'
					: 'must be like 30s, 15m, 2h, 1d or 2w',
		}),
	])
	.meta({ description: 'Seconds, or a number with s, m, h, d or w: 90, 30s, 15m, 2h, 1d, 2w.' });

/**
 * Why a text is not an instant: a date the calendar lacks (2027-02-30) said so, else its shape.
 * An ISO 8601 instant is checked by its shape first: a day past its month's end is named.
 */
function instantError(input: unknown): string {
	const date = /^(\d{4})-(\d{2})-(\d{2})T/.exec(String(input));
	if (date) {
		const [, year, month, day] = date.map(Number);
		const real = new Date(Date.UTC(year, month - 1, day));
		if (real.getUTCMonth() !== month - 1 || real.getUTCDate() !== day)
			return `${String(input).slice(0, 10)} is not a date: ${month >= 1 && month <= 12 ? `that month has ${new Date(Date.UTC(year, month, 0)).getUTCDate()} days` : 'months go from 01 to 12'}`;
	}
	return 'must be an instant with its time zone, like 2027-03-01T09:00:00Z or 2027-03-01T10:00:00+01:00';
}

/** An instant: ISO 8601 with its zone. */
const instant = z.iso.datetime({ offset: true, error: (issue) => instantError(issue.input) });

/**
 * A clock's instant: given, or the next firing of one of the workflow's Schedule nodes after an
 * instant (resolved when the file loads: load.cts).
 */
const clock = z
	.union([
		instant,
		z
			.strictObject({
				nextFiringAfter: instant.meta({
					description: 'The instant after which the Schedule fires next (itself included).',
				}),
				of: z.string().optional().meta({
					description: "The Schedule Trigger's name: needed when the workflow has more than one.",
				}),
			})
			.meta({
				id: 'NextFiring',
				description:
					"The Schedule's next firing after an instant, as n8n computes it: its rules in its zone (the workflow's timezone, else UTC), across clock changes.",
			}),
	])
	.meta({
		id: 'Clock',
		description:
			"The instant the case's clock starts at: ISO 8601 with Z or an offset, or { nextFiringAfter, of } for the next firing of a Schedule. n8n ($now, Code nodes, the Schedule item, Waits) and the service read it; time runs on from it. Default: this machine's time as the case starts.",
	});

/** A clock after load: the instant it names (load.cts resolves a Schedule's next firing). */
export function clockInstant(value: z.output<typeof clock> | undefined): string | undefined {
	if (value === undefined || typeof value === 'string') return value;
	throw new Error('a clock naming a Schedule firing was not resolved as the file loaded');
}

const sentExpectation = z
	.strictObject({
		items: count
			.optional()
			.meta({ description: 'How many items the node would have sent (one per item it received).' }),
		every: fields
			.optional()
			.meta({ description: 'Parameters every item would have been sent with.' }),
		some: fields
			.optional()
			.meta({ description: 'Parameters at least one item would have been sent with.' }),
		none: fields.optional().meta({ description: 'Parameters no item would have been sent with.' }),
	})
	.meta({
		id: 'SentExpectation',
		description:
			"A stubbed node's parameters as n8n resolves them for each item it receives (dot paths as the export holds them: columns.value.Email, additionalFields.companyName).",
	});

const nodeExpectation = z
	.strictObject({
		ran: z.boolean().optional().meta({ description: 'Whether the node ran at all.' }),
		output: z
			.union([z.int().min(0), z.string().min(1)])
			.optional()
			.meta({
				description:
					"Which output: its index or its name as n8n shows it (Create Inboxes' Failed, Fetch Leads' Spend; error: the error output of a node set to Continue (using error output)). Default the first.",
			}),
		items: count
			.optional()
			.meta({ description: 'How many items the output holds (every run of the node together).' }),
		every: fields.optional().meta({ description: 'Fields every item has.' }),
		some: fields.optional().meta({ description: 'Fields at least one item has.' }),
		none: fields.optional().meta({ description: 'Fields no item has.' }),
		error: matcher.optional().meta({ description: "The node's own error message." }),
		hint: matcher
			.optional()
			.meta({ description: 'A hint the node showed (n8n shows them above its output).' }),
		sent: sentExpectation.optional(),
		told: matcher.optional().meta({
			description:
				'A scripted model: text (or a "/regular expression/") among the messages it received, tool results included.',
		}),
	})
	.meta({ id: 'NodeExpectation' });

const responseExpectation = z
	.strictObject({
		status: z.int().min(100).max(599).optional().meta({ description: 'The HTTP status.' }),
		headers: z
			.record(z.string(), matcher)
			.optional()
			.meta({ description: 'Headers (names in any case) with these values.' }),
		body: matcher.optional().meta({
			description:
				'The body: a JSON subset of a JSON answer (objects may hold more fields), or the text (equal, or a "/regular expression/").',
		}),
	})
	.meta({
		id: 'ResponseExpectation',
		description: "What the caller of the Webhook got (the case's or run's request).",
	});

const runExpectation = z
	.strictObject({
		status: z.enum(['success', 'error', 'waiting']).optional().meta({
			description:
				"The execution's status; waiting: it waits for a request (a Wait on a webhook or a form, a send-and-wait) that a later run's resume sends.",
		}),
		error: z
			.strictObject({
				node: z.string().min(1).optional().meta({ description: 'The node the run failed at.' }),
				message: matcher
					.optional()
					.meta({ description: 'Its message: equal, or a "/regular expression/".' }),
			})
			.optional()
			.meta({ description: 'The node the execution failed at, and its message.' }),
		nodes: z
			.record(z.string(), z.union([nodeExpectation, z.array(nodeExpectation).min(1)]))
			.optional()
			.meta({ description: 'Per node (by name): what it did; a list checks several outputs.' }),
		response: responseExpectation.optional(),
	})
	.meta({ id: 'RunExpectation', description: 'What one run must show.' });

/** A sub-workflow's executions in a case (every call of it together). */
const subWorkflowExpectation = z
	.strictObject({
		executions: count.optional().meta({
			description:
				'How many times it ran (an Execute Workflow node run once per item counts each).',
		}),
		status: z
			.enum(['success', 'error'])
			.optional()
			.meta({ description: 'error: one of its executions failed; success: none did.' }),
		error: runExpectation.shape.error,
		nodes: runExpectation.shape.nodes,
	})
	.meta({ id: 'SubWorkflowExpectation' });

/** A URL as a mock or an expectation matches it: exactly, or "/pattern/flags". */
const urlMatcher = z
	.string()
	.min(1, 'give the URL: https://api.example.com/v1/leads, or /pattern/')
	.meta({
		description:
			'The full URL without its query (https://api.example.com/v1/leads), or "/pattern/flags" matched against the whole URL with its query.',
	});

const httpMethod = z
	.string()
	.regex(/^[A-Za-z]+$/, 'an HTTP method, like GET or POST')
	.optional()
	.meta({ description: 'The HTTP method (any case). Default: any.' });

const mockRequest = z
	.strictObject({
		method: httpMethod,
		url: urlMatcher,
		query: fields
			.optional()
			.meta({ description: 'Query parameters it must have (others may come).' }),
		headers: fields
			.optional()
			.meta({ description: 'Headers it must have, by lower-case name (others may come).' }),
		body: fields.optional().meta({
			description: 'Fields of its JSON or form body it must have (dot paths: contact.email).',
		}),
	})
	.meta({ id: 'MockRequest', description: 'Which requests the mock answers.' });

const mockAnswer = z
	.strictObject({
		status: z.int().min(100).max(599).optional().meta({ description: 'Default 200.' }),
		headers: z.record(z.string(), z.string()).optional(),
		json: z
			.unknown()
			.optional()
			.meta({ description: 'A JSON body (content-type application/json).' }),
		text: z.string().optional().meta({ description: 'A text body.' }),
		base64: z.string().optional().meta({ description: 'A binary body, base64-encoded.' }),
		delayMs: z
			.int()
			.min(0)
			.max(60_000)
			.optional()
			.meta({ description: 'Answers after this long.' }),
		drop: z
			.literal(true)
			.optional()
			.meta({ description: 'Closes the connection instead of answering (a network failure).' }),
		never: z.literal(true).optional().meta({
			description:
				"Never answers (a service that hangs): the node's own time-out passes at once, as it would when it ran out; a node with no time-out fails the case (it would wait forever).",
		}),
	})
	.refine(
		(a) =>
			a.drop !== undefined ||
			a.never !== undefined ||
			a.status !== undefined ||
			[a.json, a.text, a.base64].some((b) => b !== undefined),
		'an answer gives a status or a body (json, text or base64), or drop: true, or never: true',
	)
	.refine(
		(a) => [a.json, a.text, a.base64].filter((b) => b !== undefined).length <= 1,
		'one body: json, text or base64',
	)
	.meta({
		id: 'MockAnswer',
		description: "What the mock answers: n8n's node reads it as the service's.",
	});

const mock = z
	.strictObject({
		use: z.string().optional().meta({
			description:
				"Answers shipped with the runner, as the service's API reference documents them: a service (every operation: gmail, google-sheets, slack, hubspot, pipedrive, telegram, airtable, notion, openai, google-oauth2) or service.operation (one; answer or answers then override its answer, a JSON body merged key by key). docs/testing-workflows.md lists the operations.",
		}),
		request: mockRequest.optional(),
		answer: mockAnswer.optional(),
		answers: z.array(mockAnswer).min(1).optional().meta({
			description:
				'A sequence: the first answer to the first request, and so on; the last one repeats.',
		}),
		times: z
			.int()
			.min(1)
			.optional()
			.meta({ description: 'How many requests it answers; then the next mock that matches does.' }),
	})
	.superRefine((m, context) => {
		const both = m.answer !== undefined && m.answers !== undefined;
		if (both)
			context.addIssue({ code: 'custom', message: 'give answer (one) or answers (a sequence)' });
		// Whether the service and operation exist is checked with the workflow (misfits.cts).
		if (m.use !== undefined) {
			if (m.request)
				context.addIssue({
					code: 'custom',
					path: ['request'],
					message: `use: ${m.use} gives the requests it answers: drop request, or write a mock of your own (request and answer) before it`,
				});
			return;
		}
		if (!m.request)
			context.addIssue({
				code: 'custom',
				message:
					'give request (which requests it answers) and answer, or use: <service> for shipped answers',
			});
		if (m.answer === undefined && m.answers === undefined)
			context.addIssue({ code: 'custom', message: 'give answer (one) or answers (a sequence)' });
	})
	.meta({
		id: 'Mock',
		description:
			"An answer for requests the workflow's nodes send to another service (they run for real). The first mock that matches a request answers it.",
	});
const mocks = z.array(mock).meta({
	description:
		"Answers for the requests the workflow's real nodes send to other services, tried in order (a case's first, then the file's).",
});

/** The node that sent a request: the one n8n was running when it came. */
const sentBy = z.string().min(1).optional().meta({
	description:
		"The node that sent it (the node n8n was running when it came; in the workflow tested, not a sub-workflow's). Default: any.",
});

const httpExpectation = z
	.strictObject({
		method: httpMethod,
		url: urlMatcher,
		node: sentBy,
		requests: count.optional().meta({ description: 'How many such requests were sent.' }),
		every: fields.optional().meta({
			description:
				'Fields every such request has: method, url, host, path, query.<name>, headers.<lower-case name>, body.<dot path>, status (the answer, or "dropped"), and for an email sent whole (Gmail\'s raw) mail.to, mail.from, mail.cc, mail.subject, mail.text.',
		}),
		some: fields.optional().meta({ description: 'Fields at least one such request has.' }),
		none: fields.optional().meta({ description: 'Fields no such request has.' }),
	})
	.meta({
		id: 'HttpExpectation',
		description: 'Requests sent to other services (answered by mocks), as they were sent.',
	});

const httpStep = z
	.strictObject({
		method: httpMethod,
		url: urlMatcher,
		node: sentBy,
		has: fields.optional().meta({
			description:
				'Fields the request has (as in every: status, headers.<name>, body.<dot path>, mail.subject).',
		}),
	})
	.meta({ id: 'HttpStep', description: 'A request in an expected order.' });

const caseExpectation = runExpectation.extend({
	everyRun: runExpectation.optional().meta({ description: 'What every run must show.' }),
	distinct: z
		.strictObject({
			node: z.string().min(1).meta({ description: 'The node whose items are read (every run).' }),
			field: z
				.string()
				.min(1)
				.meta({ description: 'The field (dot path); empty values are not counted.' }),
			output: z
				.union([z.int().min(0), z.string().min(1)])
				.optional()
				.meta({ description: 'Which output (default the first).' }),
			count: count.optional(),
		})
		.optional()
		.meta({ description: "A field's values across all runs: never one twice, and how many." }),
	http: z.array(httpExpectation).optional().meta({
		description: 'Requests the real nodes sent to other services over the case, as sent.',
	}),
	httpOrder: z.array(httpStep).min(2).optional().meta({
		description:
			'Requests sent in this order over the case: a request for each step, each after the one before (others may come between).',
	}),
	workflows: z.record(z.string(), subWorkflowExpectation).optional().meta({
		description:
			'Per sub-workflow (by its name): what its executions in the case did, all together.',
	}),
});

const items = z
	.array(z.record(z.string(), z.unknown()))
	.meta({ description: 'Items, as JSON objects.' });

/** A real HTTP request to the workflow's Webhook (its production URL). */
const request = z
	.strictObject({
		method: z
			.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'])
			.optional()
			.meta({ description: "Default the Webhook node's HTTP method (a Form Trigger's POST)." }),
		path: z.string().optional().meta({
			description:
				"Under /webhook/ (a Form Trigger's under /form/): default the node's own path (give it for a path with :parameters).",
		}),
		query: z.record(z.string(), z.string()).optional().meta({ description: 'Query parameters.' }),
		headers: z.record(z.string(), z.string()).optional().meta({ description: 'Request headers.' }),
		body: z.unknown().optional().meta({
			description: 'JSON (an object or a list: sent as application/json), or text as it is.',
		}),
		form: z
			.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]))
			.optional()
			.meta({
				description:
					"A Form Trigger's fields, by label (or field name), as a person fills them in (a list for checkboxes and multiple choice): sent as the form sends them (multipart/form-data).",
			}),
	})
	.meta({
		id: 'Request',
		description:
			"Calls the workflow's Webhook or Form Trigger for real (its production URL, the workflow published): the items its start hands on are n8n's own, and expect.response checks the answer.",
	});

/** One answer of a scripted chat model: tools to call, or the text that ends the conversation. */
const turn = z
	.union([
		z.strictObject({
			toolCalls: z
				.array(
					z.strictObject({
						tool: z.string().min(1).meta({ description: 'The tool: its node name (Fetch Leads).' }),
						arguments: z
							.record(z.string(), z.unknown())
							.optional()
							.meta({ description: 'What the model fills in ($fromAI values).' }),
					}),
				)
				.min(1),
		}),
		z.strictObject({
			answer: z.string().meta({ description: "The model's answer: the agent's output." }),
		}),
	])
	.meta({
		id: 'Turn',
		description: 'toolCalls (tools the model calls), or answer (its final text).',
	});

const stub = z
	.union([
		z.literal('passThrough').meta({ description: 'Not run: hands on the items it received.' }),
		z.strictObject({
			items: items.meta({ description: 'Not run: hands on these items instead.' }),
		}),
		z.strictObject({
			model: z.array(turn).min(1).meta({
				description:
					'A chat model (OpenAI, Anthropic, Gemini, Ollama, Mistral, Groq...) scripted: its turns, played in order each time the agent asks.',
			}),
		}),
	])
	.meta({
		id: 'Stub',
		description:
			'`passThrough` (hands on the items it received), `{items}` (hands on these instead), or `{model}` (a chat model sub-node, scripted).',
	});
const stubs = z.record(z.string(), stub).meta({
	description:
		'Nodes (by name, in the workflow and its sub-workflows) of other services, not run: passThrough, {items} or {model}.',
});

/**
 * A request to the resume URL of an execution left waiting ($execution.resumeUrl), or its wait's
 * time limit passing with no request.
 */
const resume = z
	.strictObject({
		timeout: z
			.literal(true, { error: 'expected true: leave timeout out to resume by a request' })
			.optional()
			.meta({
				description:
					"No request comes: the waiting node's time limit (Limit Wait Time) passes. The case's clock moves to the limit's end and n8n resumes the execution as it does when nobody answers in time. Nothing else of resume beside it.",
			}),
		method: z
			.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'])
			.optional()
			.meta({ description: "Default the waiting node's HTTP method (a form's POST)." }),
		path: z.string().optional().meta({
			description: "After the resume URL: default the Wait node's webhook suffix, if it has one.",
		}),
		query: request.shape.query,
		headers: request.shape.headers,
		body: request.shape.body,
		form: request.shape.form.meta({
			description:
				"The waiting form's fields (a Wait on a form, a Form node), by label or field name, as a person fills them in.",
		}),
	})
	.meta({
		id: 'Resume',
		description:
			"Resumes the execution the last run left waiting (status waiting: a Wait on a webhook or a form): a real request to its resume URL, as n8n makes it, or (timeout) its time limit passing; expect.response checks n8n's answer to the request, the rest what the execution did after it.",
	});

/** The runner's own changes; services add theirs (testFileSchemaFor). */
const ownChanges = [
	z.strictObject({
		advanceClock: duration.meta({
			description: "Moves the case's clock forward: n8n's and every service's.",
		}),
	}),
	z.strictObject({
		mock: mock.meta({ description: 'A mock added before this run, tried before the others.' }),
	}),
] as const;

/**
 * A composed schema's name in the JSON Schema's $defs: each composition (the runner's own, one
 * with a service's fields) makes these schemas anew, and zod keeps one schema per name, so the
 * newest composition takes the name (the JSON Schema is generated right after composing).
 */
function named(id: string, description?: string): { id: string; description?: string } {
	const stale = z.globalRegistry._idmap.get(id);
	if (stale) z.globalRegistry.remove(stale);
	return { id, ...(description ? { description } : {}) };
}

/** The parts services add, merged; a field two services (or a service and the runner) claim is refused. */
function mergeParts(
	parts: ServiceSchema[],
	own: { file: z.ZodRawShape; case: z.ZodRawShape; expect: z.ZodRawShape },
) {
	const merged = { file: {}, case: {}, expect: {}, changes: [] } as {
		file: Record<string, z.ZodType>;
		case: Record<string, z.ZodType>;
		expect: Record<string, z.ZodType>;
		changes: z.ZodType[];
	};
	for (const part of parts) {
		for (const where of ['file', 'case', 'expect'] as const)
			for (const [key, schema] of Object.entries(part[where] ?? {})) {
				if (key in merged[where] || key in own[where])
					throw new Error(`two services define the test file's ${where} field "${key}"`);
				merged[where][key] = schema;
			}
		merged.changes.push(...(part.changes ?? []));
	}
	return merged;
}

/** The test file's schema with the fields the services add (their seeds, changes, expectations). */
export function testFileSchemaFor(parts: ServiceSchema[], title = 'n8n workflow test file') {
	const ownCase = testCaseShape();
	const ownFile = fileShape();
	const merged = mergeParts(parts, {
		file: ownFile,
		case: ownCase,
		expect: caseExpectation.shape,
	});
	// The services' fields are typed as the runner sees them: not at all (it hands them over), so
	// the composed schema's type is the runner's own.
	const none = (shape: Record<string, z.ZodType>) => shape as Record<never, z.ZodType>;
	const theirs = merged.changes as unknown as (typeof ownChanges)[number][];
	const change = z
		.union([ownChanges[0], ownChanges[1], ...theirs])
		.meta(named('Change', 'One change before a run: one of the fields below.'));
	const expectation = caseExpectation
		.extend(none(merged.expect))
		.meta(
			named(
				'CaseExpectation',
				'status, error and nodes: the last run (the only one, by default); everyRun: each run.',
			),
		);
	const run = z
		.strictObject({
			before: z
				.array(change)
				.optional()
				.meta({ description: 'Changes before this run (to a service, the clock, the mocks).' }),
			clock: clock.optional().meta({
				description:
					"Moves the case's clock to this instant before this run (after advanceClock): a weekly run on its next Monday, wherever a Wait left the clock. Forward only: an instant the clock has passed fails the case.",
			}),
			input: items.optional(),
			request: request.optional(),
			resume: resume.optional(),
			expect: runExpectation.optional(),
		})
		.meta(named('Run'));
	const testCase = z
		.strictObject({
			...ownCase,
			...none(merged.case),
			before: z
				.array(change)
				.optional()
				.meta({
					description: 'Changes before the first run (to a service, the clock, the mocks).',
				}),
			runs: z
				.union([z.int().min(1).max(100), z.array(run).min(1).max(100)])
				.optional()
				.meta({
					description:
						'How many runs (default 1), or each run with its own changes and expectations.',
				}),
			expect: expectation.optional().meta({
				description:
					'What the case must show (a case of runs with their own expect may leave it out).',
			}),
		})
		.meta(named('Case'));
	return z
		.strictObject({ ...ownFile, ...none(merged.file), cases: z.array(testCase).min(1) })
		.meta({ ...named('WorkflowTestFile'), title });
}

/** A case's fields the runner itself reads (runs, before and expect are added with the services'). */
function testCaseShape() {
	return {
		name: z
			.string()
			.trim()
			.min(1)
			.meta({ description: 'What the case shows, as the reports name it.' }),
		input: items.optional().meta({ description: 'The items the start node hands on (every run).' }),
		request: request.optional(),
		stubs: stubs.optional(),
		mocks: mocks.optional(),
		clock: clock.optional(),
		advanceClock: duration.optional().meta({
			description:
				"Moves the case's clock (n8n's and every service's) before each run after the first.",
		}),
	};
}

/** A file's fields the runner itself reads. */
function fileShape() {
	return {
		$schema: z.string().optional(),
		workflow: z
			.string()
			.min(1)
			.meta({ description: 'The exported workflow, relative to this file.' }),
		start: z
			.string()
			.min(1)
			.optional()
			.meta({ description: 'The node runs start from, when the workflow has several triggers.' }),
		clock: clock.optional().meta({
			description:
				"The instant every case's clock starts at, unless the case gives its own (ISO 8601 with Z or an offset). Default: this machine's time as each case starts.",
		}),
		workflows: z.array(z.string().min(1)).optional().meta({
			description:
				"Exports of the sub-workflows it calls (Execute Workflow), relative to this file: only those not beside the workflow's own export (found there by their ID).",
		}),
		errorWorkflow: z.string().min(1).optional().meta({
			description:
				"The export of the workflow's error workflow (an Error Trigger), relative to this file: n8n runs it when a run fails, and expect.workflows checks it by its name. Default: the export the workflow's settings name (errorWorkflow), when it is beside the workflow or listed under workflows.",
		}),
		stubs: stubs.optional(),
		mocks: mocks.optional(),
		credentials: z.record(z.string(), z.record(z.string(), z.unknown())).optional().meta({
			description:
				"Values of the credentials real nodes use, by the credential's name in the export (its fields as n8n names them); anything left out is made up for the test.",
		}),
		keepN8nState: z.boolean().optional().meta({
			description:
				"Start from the Data Tables and variables the worker's n8n holds from the files it ran before (default false: emptied before each file; cases of one file always share them).",
		}),
	};
}

/** The runner's own format, no service's fields: what the runner's code reads (its types). */
export const testFileSchema = testFileSchemaFor([]);

export type TestFile = z.output<typeof testFileSchema>;
export type TestCase = TestFile['cases'][number];
export type Change = NonNullable<TestCase['before']>[number];
export type Count = z.output<typeof count>;
export type Stub = z.output<typeof stub>;
export type Turn = z.output<typeof turn>;
export type NodeExpectation = z.output<typeof nodeExpectation>;
export type SentExpectation = z.output<typeof sentExpectation>;
export type RunExpectation = z.output<typeof runExpectation>;
export type CaseExpectation = NonNullable<TestCase['expect']>;
export type RunSpec = Exclude<TestCase['runs'], number | undefined>[number];
export type RequestSpec = z.output<typeof request>;
export type ResumeSpec = z.output<typeof resume>;
export type ClockSpec = z.output<typeof clock>;
export type MockSpec = z.output<typeof mock>;
export type MockRequestSpec = z.output<typeof mockRequest>;
export type MockAnswerSpec = z.output<typeof mockAnswer>;
export type HttpExpectation = z.output<typeof httpExpectation>;
export type HttpStep = z.output<typeof httpStep>;
export type ResponseExpectation = z.output<typeof responseExpectation>;
export type SubWorkflowExpectation = z.output<typeof subWorkflowExpectation>;

/**
 * The JSON Schema editors validate test files with (published as workflow-test.schema.json): the
 * runner's format, or with a service's fields composed in (the Lead Inbox server ships that one).
 */
export function testFileJsonSchema(
	id = 'https://github.com/n8n-nodes-lead-inbox/n8n-nodes-lead-inbox/blob/main/n8n-testkit/workflow-test.schema.json',
	parts: ServiceSchema[] = [],
	title?: string,
): Record<string, unknown> {
	const schema = z.toJSONSchema(testFileSchemaFor(parts, title), {
		io: 'input',
		unrepresentable: 'any',
		target: 'draft-2020-12',
	}) as Record<string, unknown>;
	// zod keeps each named schema's `id` beside its $defs entry; JSON Schema 2020-12 has no such
	// keyword (validators refuse it): the name is the $defs key.
	for (const definition of [
		schema,
		...Object.values((schema.$defs ?? {}) as Record<string, Record<string, unknown>>),
	])
		delete definition.id;
	return { $id: id, ...schema };
}

/** A duration as seconds. */
export function seconds(value: number | string): number {
	if (typeof value === 'number') return value;
	const match = /^(\d+(?:\.\d+)?)\s*(s|m|h|d|w)$/.exec(value)!;
	const unit = { s: 1, m: 60, h: 3600, d: 86400, w: 7 * 86400 };
	return Number(match[1]) * unit[match[2] as keyof typeof unit];
}
