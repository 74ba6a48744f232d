/**
 * What the Lead Inbox service adds to the test file's format: the seed (the file's and a case's),
 * the credential's key, faults, changes to the account between runs, and `expect.service` (the
 * account and the request journal after the case). Seeds and faults are the server's own schemas.
 */
import { z } from 'zod';
import { countSchema, type ServiceSchema } from '../../../n8n-testkit/src/index.cjs';
import { faultRequest } from '../contract/admin.cjs';
import { INBOX_STATUSES } from '../contract/inboxes.cjs';
import { seedSchema } from '../contract/seed.cjs';

const requestExpectation = z
	.strictObject({
		method: z.string().optional().meta({ description: 'GET or POST.' }),
		path: z.string().optional().meta({ description: 'Exact path, or a prefix ending with *.' }),
		status: z
			.int()
			.min(100)
			.max(599)
			.optional()
			.meta({ description: 'The status the server answered.' }),
		query: z
			.record(z.string(), z.string())
			.optional()
			.meta({ description: 'Query parameters with these values, as text.' }),
		body: z.unknown().optional().meta({ description: 'A JSON subset of the request body.' }),
		bodyContains: z
			.string()
			.optional()
			.meta({ description: 'Text the recorded body (JSON) contains.' }),
		times: countSchema
			.optional()
			.meta({ description: 'How many matching requests (default at least 1).' }),
	})
	.meta({ id: 'RequestExpectation' });

export const serviceExpectation = z.strictObject({
	creditsCharged: countSchema
		.optional()
		.meta({ description: "Credits the case's runs took from the account." }),
	credits: countSchema.optional().meta({ description: "The account's credits after the case." }),
	contactsAdded: countSchema.optional(),
	contacts: countSchema.optional().meta({ description: "The account's contacts after the case." }),
	pools: countSchema.optional().meta({ description: "The account's pools after the case." }),
	inboxes: z
		.union([
			countSchema,
			z.strictObject({
				pool: z.string().optional().meta({ description: 'Only this pool (by name).' }),
				count: countSchema.optional(),
				status: z.partialRecord(z.enum(INBOX_STATUSES), countSchema).optional(),
			}),
		])
		.optional()
		.meta({ description: "The account's inboxes after the case: a count, or by pool and status." }),
	requests: z.array(requestExpectation).optional().meta({
		description:
			'Requests the workflow made, as the journal recorded them (matched as requests.verify matches).',
	}),
	nothingElse: z
		.boolean()
		.optional()
		.meta({ description: 'true: every request the workflow made matches one of `requests`.' }),
});

/** Changes to the service before a run: each an object of one field. */
const changes = [
	z.strictObject({
		inboxStatus: z
			.strictObject({
				inbox: z.string().min(1).meta({ description: 'The inbox: its email address or ID.' }),
				status: z
					.enum(INBOX_STATUSES)
					.meta({ description: 'Its new status, as a provider sets it.' }),
			})
			.meta({ description: "Sets an inbox's status (the credential's account)." }),
	}),
	z.strictObject({ credits: z.int().min(0).meta({ description: "Set the account's credits." }) }),
	z.strictObject({ fault: faultRequest }),
	z.strictObject({
		clearFaults: z.literal(true).meta({ description: 'Clears every fault armed.' }),
	}),
	z.strictObject({ seed: seedSchema }),
	z.strictObject({
		admin: z
			.strictObject({
				method: z
					.enum(['GET', 'POST', 'PATCH', 'PUT', 'DELETE'])
					.meta({ description: 'The HTTP method.' }),
				path: z.string().startsWith('/').meta({
					description:
						"Under /__admin: /accounts/{accountId}/... ({accountId}: the credential's account).",
				}),
				body: z.unknown().optional().meta({ description: 'The JSON body.' }),
			})
			.meta({ description: 'Any admin API call (mock-server/README.md, Admin API).' }),
	}),
];

export const leadInboxSchema = {
	file: {
		seed: seedSchema
			.optional()
			.meta({ description: "The server's seed, applied before every case." }),
		credential: z.string().optional().meta({
			description:
				"The Lead Inbox credential's API key: default the seed's first account, else a dev account.",
		}),
	},
	case: {
		seed: seedSchema
			.optional()
			.meta({ description: "Applied after the file's seed, for this case." }),
		faults: z
			.array(faultRequest)
			.optional()
			.meta({ description: "Armed before the first run (the server's fault format)." }),
	},
	changes,
	expect: {
		service: serviceExpectation
			.optional()
			.meta({ description: 'The Lead Inbox service after the whole case.' }),
	},
} satisfies ServiceSchema;

export type Seed = z.output<typeof seedSchema>;
export type ServiceExpectation = z.output<typeof serviceExpectation>;
/** The service's fields of a file, as parsed. */
export interface LeadInboxFile {
	seed?: Seed;
	credential?: string;
}
/** The service's fields of a case, as parsed. */
export interface LeadInboxCase {
	seed?: Seed;
	faults?: z.output<typeof faultRequest>[];
}
