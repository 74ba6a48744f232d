import { z } from 'zod';
import { PERMISSIONS } from '../accounts/accounts.cjs';

const permissions = z
	.array(z.enum(PERMISSIONS))
	.meta({ description: `Any of ${PERMISSIONS.join(', ')}.` });

export const createAccountRequest = z
	.strictObject({
		credits: z.int().min(0).default(1000),
		active: z.boolean().default(true),
		permissions: permissions.default([...PERMISSIONS]),
	})
	.meta({ id: 'AdminCreateAccount' });

export const patchAccountRequest = z
	.strictObject({ credits: z.int().min(0).optional(), active: z.boolean().optional() })
	.meta({ id: 'AdminPatchAccount' });

export const createKeyRequest = z
	.strictObject({ permissions: permissions.optional() })
	.meta({ id: 'AdminCreateKey' });

export const FAULT_TARGETS = ['leads.save'] as const;
export const faultRequest = z
	.strictObject({ target: z.enum(FAULT_TARGETS), times: z.int().min(1).max(100000).default(1) })
	.meta({ id: 'AdminFault' });

export const clockRequest = z
	.strictObject({
		advanceSeconds: z
			.int()
			.min(0)
			.max(10 * 365 * 24 * 3600),
	})
	.meta({ id: 'AdminClock' });

export const accountResponse = z
	.object({
		id: z.string(),
		credits: z.int(),
		active: z.boolean(),
		permissions: z.array(z.string()),
		contactCount: z.int(),
	})
	.meta({ id: 'AdminAccount' });

export const accountListResponse = z
	.object({
		accounts: z.array(
			accountResponse.extend({
				dev: z.boolean().meta({ description: 'The dev account that the server seeds and prints.' }),
			}),
		),
	})
	.meta({ id: 'AdminAccountList' });
