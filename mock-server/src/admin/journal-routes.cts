/** Admin API: the request journal: read, count and clear, for all or one account. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
	clearedResponse,
	journalClearQuery,
	journalCountResponse,
	journalListResponse,
	journalQuery,
} from '../contract/admin.cjs';
import { failure, success } from '../http/contract.cjs';
import { admin, type AdminRoutesOptions } from './schema.cjs';

const FILTERS =
	'Filters: method, path (exact, or a prefix ending with *), status, since, id, accountId, keyId, query (JSON: parameters with these values) and body (JSON: a subset of the request body) or bodyContains (text in it).';

export const journalRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, options) => {
	const { journal } = options;
	const api = app.withTypeProvider<ZodTypeProvider>();
	const invalid = failure('A query parameter is invalid (the message names it).');
	api.get(
		'/__admin/requests',
		{
			schema: admin({
				operationId: 'adminListRequests',
				summary: 'Read the request journal',
				description: `The last API requests (at most --journal-size entries, default 10000, and --journal-bytes of bodies, default 16 MiB), oldest first: time, method, path, query (secrets redacted), accountId and keyId (never the key; known also for a request a fault answered), status (null when an injected fault dropped the connection), durationMs, body with passwords and keys redacted (shortened past --journal-body-bytes, default 64 KiB; not kept for requests that did not authenticate, bodyNote says so), and a short response summary. ${FILTERS}`,
				querystring: journalQuery,
				response: { 200: success('The matching requests.', journalListResponse), 400: invalid },
			}),
		},
		async (request) => ({ requests: journal.list(request.query) }),
	);
	api.get(
		'/__admin/requests/count',
		{
			schema: admin({
				operationId: 'adminCountRequests',
				summary: 'Count recorded requests',
				description: `How many kept requests match, e.g. the lead searches one test's account sent with a given body. ${FILTERS}`,
				querystring: journalQuery,
				response: { 200: success('The count.', journalCountResponse), 400: invalid },
			}),
		},
		async (request) => ({ count: journal.count(request.query) }),
	);
	api.delete(
		'/__admin/requests',
		{
			schema: admin({
				operationId: 'adminClearRequests',
				summary: 'Empty the request journal',
				description:
					"Forgets every request recorded so far, or only one account's (?accountId=: a parallel test clears its own); later requests are recorded as before.",
				querystring: journalClearQuery,
				response: { 200: success('Cleared', clearedResponse), 400: invalid },
			}),
		},
		async (request) => {
			journal.clear(request.query.accountId);
			return { cleared: true as const };
		},
	);
};
