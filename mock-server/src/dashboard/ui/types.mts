/**
 * What the admin API answers, as the page uses it: the types of the contract's own answer schemas
 * (contract/), the ones the OpenAPI document is generated from, so the page cannot drift from the
 * server. Type-only imports: nothing of zod or the contract reaches the page's bundle.
 */
import type { z } from 'zod';
import type { accountListResponse, faultListResponse } from '../../contract/admin.cjs';
import type {
	clockResponse,
	contactsPageResponse,
	divergencesResponse,
	keysResponse,
	ledgerPageResponse,
	poolsByStatusResponse,
	scanResponse,
	searchesPageResponse,
} from '../../contract/admin-answers.cjs';

type Out<T extends z.ZodType> = z.output<T>;

export type Account = Out<typeof accountListResponse>['accounts'][number];
export type LedgerEntry = Out<typeof ledgerPageResponse>['entries'][number];
export type Search = Out<typeof searchesPageResponse>['searches'][number];
export type Contact = Out<typeof contactsPageResponse>['contacts'][number];
export type Pool = Out<typeof poolsByStatusResponse>['pools'][number];
export type Key = Out<typeof keysResponse>['keys'][number];
export type Clock = Out<typeof clockResponse>;
export type Faults = Out<typeof faultListResponse>;
export type Divergence = Out<typeof divergencesResponse>['divergences'][number];
export type Page = Pick<Out<typeof ledgerPageResponse>, 'pagination'>;
export type Scan = Out<typeof scanResponse>;
