/** Admin API: accounts, their keys, contacts and inboxes' statuses. */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
	contactsPageResponse,
	keysResponse,
	ledgerPageResponse,
	poolsByStatusResponse,
} from '../contract/admin-answers.cjs';
import {
	accountListResponse,
	accountResponse,
	CONTACTS_PAGE_MAX,
	contactsQuery,
	createAccountRequest,
	createdAccountResponse,
	createdKeyResponse,
	createKeyRequest,
	inboxStatusRequest,
	ledgerQuery,
	patchAccountRequest,
} from '../contract/admin.cjs';
import { inbox } from '../contract/inboxes.cjs';
import { failure, success } from '../http/contract.cjs';
import { notFound } from '../http/errors.cjs';
import { accountParams, admin, type AdminRoutesOptions, pageOf, paginationOf } from './schema.cjs';

export const accountRoutes: FastifyPluginAsync<AdminRoutesOptions> = async (app, options) => {
	const { store } = options;
	const api = app.withTypeProvider<ZodTypeProvider>();
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
			schema: admin({
				operationId: 'adminListAccounts',
				summary: 'List every account',
				description:
					'Every account with its credits, active flag and permissions, the dev account first (marked dev: true).',
				response: { 200: success('The accounts', accountListResponse) },
			}),
		},
		async () => ({ accounts: store.accounts.list() }),
	);
	api.post(
		'/__admin/accounts',
		{
			schema: admin({
				operationId: 'adminCreateAccount',
				summary: 'Create an account and its first API key',
				description:
					"Credits (default 1000), active flag and permissions (default all) may be given; answers the account ID, its API key and the key's id (what the journal and faults name).",
				body: createAccountRequest,
				response: {
					201: success('The account and its first key', createdAccountResponse),
				},
			}),
		},
		async (request, reply) => reply.code(201).send(store.accounts.create(request.body)),
	);
	api.get(
		'/__admin/accounts/:id',
		{
			schema: admin({
				operationId: 'adminGetAccount',
				summary: 'Read an account',
				description: 'Its credits, active flag, permissions and key IDs (never the keys).',
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
			schema: admin({
				operationId: 'adminUpdateAccount',
				summary: 'Set credits or active',
				description:
					'Sets the balance, or turns the subscription on or off (an inactive account gets 401 from the API).',
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
			schema: admin({
				operationId: 'adminCreateKey',
				summary: 'Issue another API key',
				description:
					"A new key of the account, its permissions given or the account's; each key has its own hourly inbox quota.",
				params: accountParams,
				body: createKeyRequest,
				response: {
					201: success('The new key and its id', createdKeyResponse),
					404: unknownAccount,
				},
			}),
		},
		async (request, reply) => {
			const account = accountOf(request.params.id);
			const key = store.accounts.addKey(
				account.id,
				request.body.permissions ?? account.permissions,
			);
			return reply.code(201).send(key);
		},
	);
	api.post(
		'/__admin/accounts/:id/reset',
		{
			schema: admin({
				operationId: 'adminResetAccount',
				summary: 'Put one account back as it was created',
				description:
					"For one test among many on one server: the account's contacts, pools, inboxes and its keys' hourly windows are removed, its credits set back to what it was granted (the ledger records that as a set; the ledger and searches, its history, stay), its journal entries and the faults scoped to it cleared. Its keys and permissions stay, so its API keys keep working; other accounts are untouched. The clock is global and stays as it is.",
				params: accountParams,
				response: {
					200: success('The account as it is now', accountResponse),
					404: unknownAccount,
				},
			}),
		},
		async (request) => {
			const { id } = accountOf(request.params.id);
			options.resetAccount(id);
			return accountOf(id);
		},
	);
	api.get(
		'/__admin/accounts/:id/contacts',
		{
			schema: admin({
				operationId: 'adminListContacts',
				summary: "List the account's contacts",
				description: `The account's contacts, in the order they were added, a page at a time (limit 1 to ${CONTACTS_PAGE_MAX}, default ${CONTACTS_PAGE_MAX}; skip), with pagination as GET /inboxes has it.`,
				params: accountParams,
				querystring: contactsQuery,
				response: {
					200: success('A page of contacts.', contactsPageResponse),
					400: failure('A query parameter is invalid (the message names it).'),
					404: unknownAccount,
				},
			}),
		},
		async (request) => {
			const page = pageOf(request.query);
			const id = accountOf(request.params.id).id;
			const { contacts, total } = store.contacts.page(id, page.limit, page.skip);
			return { contacts, pagination: paginationOf(page, contacts.length, total) };
		},
	);
	api.get(
		'/__admin/accounts/:id/ledger',
		{
			schema: admin({
				operationId: 'adminListLedger',
				summary: "List the changes of the account's credit balance",
				description: `Every change of the stored balance, oldest first, a page at a time (limit 1 to ${CONTACTS_PAGE_MAX}, default ${CONTACTS_PAGE_MAX}; skip): kind grant (the account's credits at creation), set (PATCH credits), charge (a lead search, with its searchId) or opening (the balance of an account made before the ledger existed), delta, and the stored balance after it. Written in the transaction that changes the balance, so an account's deltas add up to its stored balance, also after a crash. Reservations of searches in flight are never stored, so never listed: what a search did not charge was never taken.`,
				params: accountParams,
				querystring: ledgerQuery,
				response: {
					200: success('A page of the ledger.', ledgerPageResponse),
					400: failure('A query parameter is invalid (the message names it).'),
					404: unknownAccount,
				},
			}),
		},
		async (request) => {
			const page = pageOf(request.query);
			const { entries, total } = store.accounts.ledger(accountOf(request.params.id).id, page);
			return { entries, pagination: paginationOf(page, entries.length, total) };
		},
	);
	api.get(
		'/__admin/accounts/:id/pools',
		{
			schema: admin({
				operationId: 'adminListPoolsByStatus',
				summary: "List the account's pools with their inboxes by status",
				description:
					'Each pool (created order) with how many of its inboxes are active, paused, deactivated and in error.',
				params: accountParams,
				response: {
					200: success('The pools with their inboxes by status.', poolsByStatusResponse),
					404: unknownAccount,
				},
			}),
		},
		async (request) => ({ pools: store.inboxes.poolsByStatus(accountOf(request.params.id).id) }),
	);
	api.get(
		'/__admin/accounts/:id/keys',
		{
			schema: admin({
				operationId: 'adminListKeys',
				summary: "List the account's API keys and their hourly inbox windows",
				description:
					"Each key's id (never the key: only its hash is kept), permissions and creation time, and its rolling hour of inbox creations: limit (1000), used (created in the last hour, and held by requests in flight), remaining, and resetsAt (when the last creation of the hour ages out).",
				params: accountParams,
				response: {
					200: success('The keys and their hourly windows.', keysResponse),
					404: unknownAccount,
				},
			}),
		},
		async (request) => ({
			keys: store.accounts
				.keys(accountOf(request.params.id).id)
				.map((key) => ({ ...key, hourlyWindow: options.hourlyWindow(key.id) })),
		}),
	);
	api.patch(
		'/__admin/accounts/:id/inboxes/:inbox',
		{
			schema: admin({
				operationId: 'adminSetInboxStatus',
				summary: "Set an inbox's status",
				description:
					'Sets active, paused, deactivated or error, as a provider would when a login stops working; the inbox is named by ID or by email address. GET /inboxes lists it with the new status at once.',
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
			}),
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
};
