/** Admin API: the request journal. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { journalQuery } from '../contract/admin.cjs';
import { failure, success } from '../http/contract.cjs';
import { admin, type AdminRoutesOptions } from './schema.cjs';

export const journalRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, options) => {
	const { journal } = options;
	const api = app.withTypeProvider<ZodTypeProvider>();
	api.get(
		'/__admin/requests',
		{
			schema: admin({
				operationId: 'adminListRequests',
				summary: 'Read the request journal',
				description:
					'The last API requests (at most --journal-size entries, default 10000, and --journal-bytes of bodies, default 16 MiB), oldest first: time, method, path, query (secrets redacted), keyId (never the key), status (null when an injected fault dropped the connection), durationMs, body with passwords and keys redacted (shortened past --journal-body-bytes, default 64 KiB; not kept for requests that did not authenticate, bodyNote says so), and a short response summary.',
				querystring: journalQuery,
				response: {
					200: success('{requests: [...]}'),
					400: failure('A query parameter is invalid (the message names it).'),
				},
			}),
		},
		async (request) => ({ requests: journal.list(request.query) }),
	);
	api.delete(
		'/__admin/requests',
		{
			schema: admin({
				operationId: 'adminClearRequests',
				summary: 'Empty the request journal',
				description:
					'Forgets every request recorded so far; later requests are recorded as before.',
				response: { 200: success('Cleared') },
			}),
		},
		async () => {
			journal.clear();
			return { cleared: true };
		},
	);
};
