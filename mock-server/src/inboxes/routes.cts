/** HTTP edge of the inbox management service: auth, parse, call the rules, shape the answer. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
	createInboxesQuery,
	createInboxesRequest,
	creationResponse,
	inboxesResponse,
	listInboxesQuery,
	listPoolsQuery,
	poolsResponse,
} from '../contract/inboxes.cjs';
import { sendError } from '../http/answers.cjs';
import { principalOf, requireApiKey } from '../http/auth.cjs';
import { API_KEY_FAILURES, failure, forbidden, RATE_HEADERS, success } from '../http/contract.cjs';
import { ApiError } from '../http/errors.cjs';
import { zodValidatorCompiler } from '../http/parsing.cjs';
import type { Accounts } from '../store/accounts.cjs';
import { failure as connectionFailure } from './connection-test.cjs';
import { type CreationDeps, createInboxes, ENTRY_MESSAGES, STATUS_OF_CODE } from './create.cjs';
import type { InboxListPages } from './list-pages.cjs';

export interface InboxRoutesOptions {
	accounts: Accounts;
	listPages: InboxListPages;
	creation: CreationDeps;
}

export const inboxRoutes: FastifyPluginAsync<InboxRoutesOptions> = async (app, options) => {
	const api = app.withTypeProvider<ZodTypeProvider>();
	const { inboxes } = options.creation.store;

	api.get(
		'/api/v1/pools',
		{
			preValidation: requireApiKey(options.accounts, 'pools:read'),
			schema: {
				tags: ['Inbox management'],
				operationId: 'listPools',
				summary: 'List pools (ordered by createdAt, then id). Needs pools:read.',
				description:
					"The account's pools with the live number of inboxes in each; another account's pools are never listed.",
				querystring: listPoolsQuery,
				response: {
					200: success('Pools with live inbox counts.', poolsResponse),
					400: failure('A query parameter was sent; this operation takes none.'),
					...API_KEY_FAILURES,
					403: forbidden('pools:read'),
				},
			},
		},
		async (request) => ({ pools: inboxes.listPools(principalOf(request).accountId) }),
	);

	api.get(
		'/api/v1/inboxes',
		{
			preValidation: requireApiKey(options.accounts, 'inboxes:read'),
			schema: {
				tags: ['Inbox management'],
				operationId: 'listInboxes',
				summary:
					'List inboxes (ordered by createdAt, then id; hasMore = skip + returned < total). Needs inboxes:read.',
				description:
					"A page of the account's inboxes (limit 1 to 1000, default 100; skip), optionally of one pool or one status, each with exactly the six fields of the spec: no hosts, ports, user names or passwords. An unknown poolId is a 404.",
				querystring: listInboxesQuery,
				response: {
					200: success(
						'A page of inboxes. Only the six listed fields are exposed.',
						inboxesResponse,
					),
					400: failure('A query parameter is invalid (the message names it).'),
					...API_KEY_FAILURES,
					403: forbidden('inboxes:read'),
					404: failure("Unknown poolId (or another account's pool).", {
						error: "Pool 'pool_unknown' not found; list pools with GET /pools.",
					}),
				},
			},
		},
		async (request, reply) => {
			const { accountId } = principalOf(request);
			const q = request.query;
			if (q.poolId && !inboxes.poolExists(accountId, q.poolId))
				throw new ApiError(404, `Pool '${q.poolId}' not found; list pools with GET /pools.`);
			const page = options.listPages.page(accountId, q, q.limit ?? 100, q.skip ?? 0);
			request.journalSummary = page.summary;
			return reply.type('application/json; charset=utf-8').send(page.json);
		},
	);

	api.post(
		'/api/v1/inboxes',
		{
			preValidation: requireApiKey(options.accounts, 'inboxes:write'),
			// The body is declared for the document; its entries are validated one by one by the rule
			// (an invalid entry fails alone), so only the query is validated here.
			validatorCompiler: (part) =>
				part.httpPart === 'body'
					? () => true
					: zodValidatorCompiler(part as unknown as Parameters<typeof zodValidatorCompiler>[0]),
			schema: {
				tags: ['Inbox management'],
				operationId: 'createInboxes',
				summary: 'Create one inbox or a batch of up to 100. Needs inboxes:write.',
				description:
					"IMAP and SMTP settings are filled in from the provider (given, or detected from the email domain), and each entry's connection is tested unless skipConnectionTest is true. Entries without poolId go to one new pool, created only if one of them is. At most 1000 created inboxes per rolling hour per API key.",
				querystring: createInboxesQuery,
				body: createInboxesRequest,
				response: {
					200: success('Per-entry results.', creationResponse, RATE_HEADERS),
					400: failure(
						'Invalid body shape (empty array, over 100 entries, non-object element), or a single entry that is invalid (code invalid_entry).',
						{
							error:
								'Invalid entry: emailAddress must be a valid email address such as name@example.com',
							code: 'invalid_entry',
							details: [
								{
									path: 'emailAddress',
									message: 'emailAddress must be a valid email address such as name@example.com',
								},
							],
						},
					),
					...API_KEY_FAILURES,
					403: forbidden('inboxes:write'),
					404: failure('Single entry: pool not found (code pool_not_found).', {
						error: ENTRY_MESSAGES.poolNotFound('pool_unknown'),
						code: 'pool_not_found',
					}),
					409: failure('Single entry: the email address already exists (code email_exists).', {
						error: ENTRY_MESSAGES.emailExists('jane@gmail.com'),
						code: 'email_exists',
					}),
					422: failure('Single entry: the connection test failed (code connection_failed).', {
						error: connectionFailure(
							'IMAP',
							{ host: 'imap.gmail.com', port: 993 },
							'authentication refused',
						).message,
						code: 'connection_failed',
					}),
					429: failure('Hourly creation limit would be exceeded; nothing created.', undefined, {
						'Retry-After': { description: 'Seconds until enough quota is free.', type: 'integer' },
						...RATE_HEADERS,
					}),
				},
			},
		},
		async (request, reply) => {
			if (request.body === undefined)
				throw new ApiError(
					400,
					'The request needs a JSON body: one inbox entry or an array of up to 100.',
				);
			const outcome = await createInboxes(options.creation, principalOf(request), request.body, {
				poolName: request.query.poolName,
			});
			reply.headers(outcome.rateHeaders);
			const only = outcome.response.results[0];
			if (outcome.single && !only.success) {
				return sendError(
					reply,
					new ApiError(STATUS_OF_CODE[only.code!], only.error!, {
						details: only.details,
						code: only.code,
					}),
				);
			}
			return outcome.response;
		},
	);
};
