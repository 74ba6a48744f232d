/** HTTP edge of the lead search service. A client that disconnects cancels the search. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { leadSearchRequest, leadSearchResponse } from '../contract/leads.cjs';
import type { Logger } from '../core/logger.cjs';
import { principalOf, requireApiKey } from '../http/auth.cjs';
import { API_KEY_FAILURES, failure, success } from '../http/contract.cjs';
import type { Accounts } from '../store/accounts.cjs';
import { Cancelled, type SearchDeps, searchLeads } from './search.cjs';

export interface LeadRoutesOptions {
	accounts: Accounts;
	logger: Logger;
	search: SearchDeps;
}

export const leadRoutes: FastifyPluginAsync<LeadRoutesOptions> = async (app, options) => {
	app.withTypeProvider<ZodTypeProvider>().post(
		'/api/v1/niche-finder-leads',
		{
			preValidation: requireApiKey(options.accounts),
			schema: {
				tags: ['Lead search'],
				operationId: 'fetchNicheFinderLeads',
				summary:
					'Find local businesses for a niche in a city, add them as contacts and charge one credit per added lead',
				description:
					'Walks the ranked businesses of the niche in the city and takes the first `count` that match every pixel filter given (each website scanned for ad, short-video and analytics codes, also through tag-manager containers); contacts the account already holds are dropped, the rest added and charged one credit each. The full count is reserved first and the unused part refunded; a failed search charges nothing.',
				body: leadSearchRequest,
				response: {
					200: success(
						'Contacts added (possibly none after filters and dedup) and the credits charged.',
						leadSearchResponse,
					),
					400: failure(
						'Invalid body, or the city could not be resolved ("City \'X\' could not be resolved to a location").',
					),
					...API_KEY_FAILURES,
					402: failure('Credit balance below count. Nothing charged.', {
						error:
							'Not enough credits: this search needs 100 (one per lead requested) but the balance is 40. Lower count or add credits.',
					}),
					404: failure(
						'No business at all for the niche and city (code no_businesses_found). Nothing charged. A path the server does not know is also a 404, with code route_not_found: clients tell the two apart by the code.',
						{
							error:
								"No businesses found for 'lighthouse keeper' in Austin, TX. Try a related niche or a larger city nearby.",
							code: 'no_businesses_found',
						},
					),
					500: failure('Contacts could not be saved. Nothing added, nothing charged.', {
						error:
							'The contacts could not be saved; nothing was added and no credits were charged. Retry the request.',
					}),
				},
			},
		},
		async (request, reply) => {
			const controller = new AbortController();
			const onClose = () => {
				if (!reply.raw.writableFinished) controller.abort();
			};
			reply.raw.on('close', onClose);
			try {
				return await searchLeads(
					options.search,
					principalOf(request),
					request.body,
					controller.signal,
				);
			} catch (error) {
				if (error instanceof Cancelled) {
					options.logger.info('lead search cancelled by the client; nothing charged', {
						id: request.id,
					});
					return reply;
				}
				throw error;
			} finally {
				reply.raw.off('close', onClose);
			}
		},
	);
};
