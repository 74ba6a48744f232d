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
 * An admin operation's schema: the Admin tag and token, the 401 of a wrong token, and the 400 of
 * an invalid body unless the route says more about it.
 */
const admin = <T extends { body?: unknown; response: Record<number, Answer> }>(
	summary: string,
	rest: T,
) => ({
	...rest,
	tags: ['Admin'],
	security: [{ adminToken: [] }],
	summary,
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
			schema: admin('List every account (the dev account first, marked dev: true)', {
				response: { 200: success('The accounts', accountListResponse) },
			}),
		},
		async () => ({ accounts: store.accounts.list() }),
	);
	api.post(
		'/__admin/accounts',
		{
			schema: admin('Create an account and its first API key', {
				body: createAccountRequest,
				response: {
					201: success('{accountId, apiKey}'),
				},
			}),
		},
		async (request, reply) => reply.code(201).send(store.accounts.create(request.body)),
	);
	api.get(
		'/__admin/accounts/:id',
		{
			schema: admin('Read an account', {
				params: accountParams,
				response: {
					200: success('The account', accountResponse),
					404: unknownAccount,
				},
			}),
		},
		async (request) => accountOf(request.params.id),
	);
	api.patch(
		'/__admin/accounts/:id',
		{
			schema: admin('Set credits or active', {
				params: accountParams,
				body: patchAccountRequest,
				response: {
					200: success('The account', accountResponse),
					404: unknownAccount,
				},
			}),
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
			schema: admin("Issue another key (permissions default to the account's)", {
				params: accountParams,
				body: createKeyRequest,
				response: {
					201: success('{apiKey}'),
					404: unknownAccount,
				},
			}),
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
				`The account's contacts, in the order they were added, a page at a time (limit 1 to ${CONTACTS_PAGE_MAX}, default ${CONTACTS_PAGE_MAX}; skip), with pagination as GET /inboxes has it`,
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
				"Set an inbox's status (active, paused, deactivated, error), as a provider would when a login stops working; the inbox is named by ID or by email address. GET /inboxes lists it with the new status at once.",
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
			schema: admin('The faults still armed', {
				response: {
					200: success('{storage: [{target, times}], routes: [...]}'),
				},
			}),
		},
		async () => faults.list(),
	);
	api.post(
		'/__admin/faults',
		{
			schema: admin(
				'Arm a fault: a storage fault ({target: "leads.save", times}: the next saves fail, the 500 path) or a route fault ({route, times, status?, body?, delayMs?, retryAfter?, drop?}: the next matching requests answer that status, wait, or lose their connection; an injected 429 carries Retry-After and X-RateLimit-* like the real limit)',
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
			schema: admin('Clear all armed faults', {
				response: { 200: success('Cleared') },
			}),
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
				'The request journal: the last API requests (at most --journal-size entries, default 10000, and --journal-bytes of bodies, default 16 MiB), oldest first: time, method, path, query (secrets redacted), keyId (never the key), status (null when an injected fault dropped the connection), durationMs, body with passwords and keys redacted (shortened past --journal-body-bytes, default 64 KiB; not kept for requests that did not authenticate, bodyNote says so), and a short response summary',
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
			schema: admin('Empty the journal', {
				response: { 200: success('Cleared') },
			}),
		},
		async () => {
			journal.clear();
			return { cleared: true };
		},
	);
	api.post(
		'/__admin/clock',
		{
			schema: admin("Move the server's clock forward", {
				body: clockRequest,
				response: {
					200: success('{now, offsetSeconds}'),
				},
			}),
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
				'Apply a seed (the body of a --seed file): accounts with fixed API keys, credits, active flag, permissions, pools, inboxes (with status) and contacts. Creates what is missing, leaves what exists; invalid entries are a 400 naming their path.',
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
			schema: admin('Empty state (the dev account is seeded again), clock and faults reset', {
				response: { 200: success('Reset') },
			}),
		},
		async () => {
			await options.reset();
			return { reset: true };
		},
	);
};
