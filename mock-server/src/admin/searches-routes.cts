/** Admin API: the lead searches that saved contacts, what each asked, found, added and charged. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { searchesPageResponse } from '../contract/admin-answers.cjs';
import { CONTACTS_PAGE_MAX, searchesQuery } from '../contract/admin.cjs';
import { failure, success } from '../http/contract.cjs';
import { admin, type AdminRoutesOptions, pageOf, paginationOf } from './schema.cjs';

export const searchRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, options) => {
	const api = app.withTypeProvider<ZodTypeProvider>();
	api.get(
		'/__admin/searches',
		{
			schema: admin({
				operationId: 'adminListSearches',
				summary: 'List the lead searches that saved contacts',
				description: `Newest first, a page at a time (limit 1 to ${CONTACTS_PAGE_MAX}, default ${CONTACTS_PAGE_MAX}; skip), of one account (accountId) or all: the request as sent (niche, city, count, the filters given), found (businesses the walk took, every filter matched), charged (contacts added), duplicates (found but already held), refunded (count - charged, reserved up front and given back) and durationMs. A search that failed (400, 402, 404, 500) changed nothing and is not listed: the request journal has it.`,
				querystring: searchesQuery,
				response: {
					200: success('A page of lead searches.', searchesPageResponse),
					400: failure('A query parameter is invalid (the message names it).'),
				},
			}),
		},
		async (request) => {
			const page = pageOf(request.query);
			const { accountId } = request.query;
			const { searches, total } = options.store.searches.list({ accountId, ...page });
			return { searches, pagination: paginationOf(page, searches.length, total) };
		},
	);
};
