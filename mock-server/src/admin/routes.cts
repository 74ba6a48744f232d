/**
 * The admin API that tests, CI pipelines and demos drive (docs/api.md). Every call needs
 * `Authorization: Bearer <admin token>`.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
	accountListResponse,
	accountResponse,
	CONTACTS_PAGE_MAX,
	clockRequest,
	contactsQuery,
	createAccountRequest,
	createKeyRequest,
	faultRequest,
	inboxStatusRequest,
	journalQuery,
	patchAccountRequest,
} from '../contract/admin.cjs';
import { inbox } from '../contract/inboxes.cjs';
import { type Seed, seedSchema } from '../contract/seed.cjs';
import type { Clock } from '../core/clock.cjs';
import { requireAdminToken } from '../http/auth.cjs';
import {
	ADMIN_TOKEN_FAILURE,
	type Answer,
	BODY_FAILURES,
	failure,
	success,
} from '../http/contract.cjs';
import { notFound } from '../http/errors.cjs';
import type { Store } from '../store/store.cjs';
import type { Faults } from './faults.cjs';
import type { RequestJournal } from './journal.cjs';

export interface AdminRoutesOptions {
	adminToken: string;
	store: Store;
	clock: Clock;
	faults: Faults;
	journal: RequestJournal;
	reset: () => Promise<void>;
	seed: (seed: Seed) => Promise<unknown>;
}

const accountParams = z.object({ id: z.string() });

/**
 * An admin operation's schema: its name, summary and description, the Admin tag and token, the
 * 401 of a wrong token, and the 400 of an invalid body unless the route says more about it.
 */
const admin = <T extends { body?: unknown; response: Record<number, Answer> }>(
	about: { operationId: string; summary: string; description: string },
	rest: T,
) => ({
	...rest,
	tags: ['Admin'],
	security: [{ adminToken: [] }],
	...about,
	response: {
		...(rest.body ? { 400: failure('The body is invalid.'), ...BODY_FAILURES } : {}),
		...rest.response,
		...ADMIN_TOKEN_FAILURE,
	},
});

export const adminRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, options) => {
	const { store, faults, journal, clock } = options;
	const api = app.withTypeProvider<ZodTypeProvider>();
	api.addHook('preValidation', requireAdminToken(options.adminToken));
	const unknownAccount = failure('Unknown account.', {
		error: "Account 'acc_unknown' does not exist.",
	});
	const accountOf = (id: string) => {
		const account = store.accounts.find(id);
		if (!account) throw notFound(`Account '${id}' does not exist.`);
		return account;
	};

	api.get(
		'/__admin/accounts',
		{
			schema: admin(
				{
					operationId: 'adminListAccounts',
					summary: 'List every account',
					description:
						'Every account with its credits, active flag and permissions, the dev account first (marked dev: true).',
				},
				{
					response: { 200: success('The accounts', accountListResponse) },
				},
			),
		},
		async () => ({ accounts: store.accounts.list() }),
	);
	api.post(
		'/__admin/accounts',
		{
			schema: admin(
				{
					operationId: 'adminCreateAccount',
					summary: 'Create an account and its first API key',
					description:
						'Credits (default 1000), active flag and permissions (default all) may be given; answers the account ID and its API key.',
				},
				{
					body: createAccountRequest,
					response: {
						201: success('{accountId, apiKey}'),
					},
				},
			),
		},
		async (request, reply) => reply.code(201).send(store.accounts.create(request.body)),
	);
	api.get(
		'/__admin/accounts/:id',
		{
			schema: admin(
				{
					operationId: 'adminGetAccount',
					summary: 'Read an account',
					description: 'Its credits, active flag, permissions and key IDs (never the keys).',
				},
				{
					params: accountParams,
					response: {
						200: success('The account', accountResponse),
						404: unknownAccount,
					},
				},
			),
		},
		async (request) => accountOf(request.params.id),
	);
	api.patch(
		'/__admin/accounts/:id',
		{
			schema: admin(
				{
					operationId: 'adminUpdateAccount',
					summary: 'Set credits or active',
					description:
						'Sets the balance, or turns the subscription on or off (an inactive account gets 401 from the API).',
				},
				{
					params: accountParams,
					body: patchAccountRequest,
					response: {
						200: success('The account', accountResponse),
						404: unknownAccount,
					},
				},
			),
		},
		async (request) => {
			accountOf(request.params.id);
			store.accounts.update(request.params.id, request.body);
			return accountOf(request.params.id);
		},
	);
	api.post(
		'/__admin/accounts/:id/keys',
		{
			schema: admin(
				{
					operationId: 'adminCreateKey',
					summary: 'Issue another API key',
					description:
						"A new key of the account, its permissions given or the account's; each key has its own hourly inbox quota.",
				},
				{
					params: accountParams,
					body: createKeyRequest,
					response: {
						201: success('{apiKey}'),
						404: unknownAccount,
					},
				},
			),
		},
		async (request, reply) => {
			const account = accountOf(request.params.id);
			const apiKey = store.accounts.addKey(
				account.id,
				request.body.permissions ?? account.permissions,
			);
			return reply.code(201).send({ apiKey });
		},
	);
	api.get(
		'/__admin/accounts/:id/contacts',
		{
			schema: admin(
				{
					operationId: 'adminListContacts',
					summary: "List the account's contacts",
					description: `The account's contacts, in the order they were added, a page at a time (limit 1 to ${CONTACTS_PAGE_MAX}, default ${CONTACTS_PAGE_MAX}; skip), with pagination as GET /inboxes has it.`,
				},
				{
					params: accountParams,
					querystring: contactsQuery,
					response: {
						200: success('{contacts, pagination: {total, limit, skip, hasMore}}'),
						400: failure('A query parameter is invalid (the message names it).'),
						404: unknownAccount,
					},
				},
			),
		},
		async (request) => {
			const { limit = CONTACTS_PAGE_MAX, skip = 0 } = request.query;
			const { contacts, total } = store.contacts.page(accountOf(request.params.id).id, limit, skip);
			return {
				contacts,
				pagination: { total, limit, skip, hasMore: skip + contacts.length < total },
			};
		},
	);
	api.patch(
		'/__admin/accounts/:id/inboxes/:inbox',
		{
			schema: admin(
				{
					operationId: 'adminSetInboxStatus',
					summary: "Set an inbox's status",
					description:
						'Sets active, paused, deactivated or error, as a provider would when a login stops working; the inbox is named by ID or by email address. GET /inboxes lists it with the new status at once.',
				},
				{
					params: z.object({
						id: z.string(),
						inbox: z.string().meta({ description: 'The inbox ID, or its email address.' }),
					}),
					body: inboxStatusRequest,
					response: {
						200: success('The inbox as GET /inboxes lists it', inbox),
						404: failure('No such account, or no such inbox in it.', {
							error: "Account 'acc_x' has no inbox 'sales@example.com'.",
						}),
					},
				},
			),
		},
		async (request) => {
			const account = accountOf(request.params.id);
			const changed = store.inboxes.setStatus(
				account.id,
				request.params.inbox,
				request.body.status,
			);
			if (!changed)
				throw notFound(
					`Account '${account.id}' has no inbox '${request.params.inbox}'. Name it by its ID (GET /api/v1/inboxes lists them) or by its email address.`,
				);
			return changed;
		},
	);
	api.get(
		'/__admin/faults',
		{
			schema: admin(
				{
					operationId: 'adminListFaults',
					summary: 'List the faults still armed',
					description: 'Storage faults by target and route faults, each with the uses it has left.',
				},
				{
					response: {
						200: success('{storage: [{target, times}], routes: [...]}'),
					},
				},
			),
		},
		async () => faults.list(),
	);
	api.post(
		'/__admin/faults',
		{
			schema: admin(
				{
					operationId: 'adminArmFault',
					summary: 'Arm a fault',
					description:
						'A storage fault ({target: "leads.save", times}: the next saves fail, the 500 path) or a route fault ({route, times, status?, body?, delayMs?, retryAfter?, drop?}: the next matching requests answer that status (a 2xx with a body: a wrong answer that looks right), wait, or lose their connection; an injected 429 carries Retry-After and X-RateLimit-* like the real limit).',
				},
				{
					body: faultRequest,
					response: {
						200: success('{armed}'),
						400: failure('The fault is invalid (the message says how).'),
					},
				},
			),
		},
		async (request) => {
			const input = request.body;
			if (input.target) faults.arm(input.target, input.times);
			else faults.armRoute({ ...input, route: input.route! });
			return { armed: input };
		},
	);
	api.delete(
		'/__admin/faults',
		{
			schema: admin(
				{
					operationId: 'adminClearFaults',
					summary: 'Clear all armed faults',
					description: 'Storage and route faults alike; the next requests get their real answers.',
				},
				{
					response: { 200: success('Cleared') },
				},
			),
		},
		async () => {
			faults.clear();
			return { cleared: true };
		},
	);
	api.get(
		'/__admin/requests',
		{
			schema: admin(
				{
					operationId: 'adminListRequests',
					summary: 'Read the request journal',
					description:
						'The last API requests (at most --journal-size entries, default 10000, and --journal-bytes of bodies, default 16 MiB), oldest first: time, method, path, query (secrets redacted), keyId (never the key), status (null when an injected fault dropped the connection), durationMs, body with passwords and keys redacted (shortened past --journal-body-bytes, default 64 KiB; not kept for requests that did not authenticate, bodyNote says so), and a short response summary.',
				},
				{
					querystring: journalQuery,
					response: {
						200: success('{requests: [...]}'),
						400: failure('A query parameter is invalid (the message names it).'),
					},
				},
			),
		},
		async (request) => ({ requests: journal.list(request.query) }),
	);
	api.delete(
		'/__admin/requests',
		{
			schema: admin(
				{
					operationId: 'adminClearRequests',
					summary: 'Empty the request journal',
					description:
						'Forgets every request recorded so far; later requests are recorded as before.',
				},
				{
					response: { 200: success('Cleared') },
				},
			),
		},
		async () => {
			journal.clear();
			return { cleared: true };
		},
	);
	api.post(
		'/__admin/clock',
		{
			schema: admin(
				{
					operationId: 'adminAdvanceClock',
					summary: "Move the server's clock forward",
					description:
						'For what depends on time: the rolling hourly inbox quota, the scan cache, generated createdAt values.',
				},
				{
					body: clockRequest,
					response: {
						200: success('{now, offsetSeconds}'),
					},
				},
			),
		},
		async (request) => {
			clock.advance(request.body.advanceSeconds);
			return { now: clock.nowIso(), offsetSeconds: clock.offsetSeconds };
		},
	);
	api.post(
		'/__admin/seed',
		{
			schema: admin(
				{
					operationId: 'adminApplySeed',
					summary: 'Apply a seed',
					description:
						'The body of a --seed file: accounts with fixed API keys, credits, active flag, permissions, pools, inboxes (with status) and contacts. Creates what is missing, leaves what exists; invalid entries are a 400 naming their path.',
				},
				{
					body: seedSchema,
					response: {
						200: success('{accounts: [{accountId, created}]} in the order of the seed'),
						400: failure('The seed is invalid.', {
							error:
								'Invalid request body: accounts.0.apiKey must be 16 to 200 letters, digits, "_" or "-"',
						}),
					},
				},
			),
		},
		async (request) => options.seed(request.body),
	);
	api.post(
		'/__admin/reset',
		{
			schema: admin(
				{
					operationId: 'adminReset',
					summary: 'Reset to an empty state',
					description:
						'Every account, pool, inbox and contact removed; the dev account and the seed file applied again; clock, faults and journal reset.',
				},
				{
					response: { 200: success('Reset') },
				},
			),
		},
		async () => {
			await options.reset();
			return { reset: true };
		},
	);
};
