import type { INodeProperties } from 'n8n-workflow';
import { poolLocator } from '../shared/pools';
import { timeoutOption } from '../shared/timeout';

/** Each page of up to 1000 inboxes, and the pool list, must come within this by default. */
export const TRIGGER_TIMEOUT_SECONDS = 60;

export type TriggerEvent = 'inboxStatusChanged' | 'newInbox' | 'newPool';

export const INBOX_STATUSES = ['active', 'deactivated', 'error', 'paused'] as const;

export const leadInboxTriggerProperties: INodeProperties[] = [
	{
		displayName: 'Event',
		name: 'event',
		required: true,
		type: 'options',
		default: 'inboxStatusChanged',
		options: [
			{
				name: 'Inbox Status Changed',
				value: 'inboxStatusChanged',
				description:
					'An inbox went to another status, e.g. from active to error when its login stopped working',
			},
			{
				name: 'New Inbox',
				value: 'newInbox',
				description: 'An inbox was added to the account',
			},
			{
				name: 'New Pool',
				value: 'newPool',
				description: 'A pool was added to the account',
			},
		],
	},
	{
		displayName: 'New Status',
		name: 'statuses',
		type: 'multiOptions',
		default: ['error', 'paused'],
		options: INBOX_STATUSES.map((status) => ({
			name: status[0].toUpperCase() + status.slice(1),
			value: status,
		})),
		displayOptions: { show: { event: ['inboxStatusChanged'] } },
		description: 'Only changes to these statuses. Leave empty for a change to any status.',
	},
	poolLocator({
		description: 'Only inboxes of this pool. Leave empty for all pools.',
		displayOptions: { show: { event: ['inboxStatusChanged', 'newInbox'] } },
	}),
	{
		displayName:
			'Each check lists every inbox (one request per 1000) and compares with the last check. The first check after the workflow is published only records what exists; later checks output one item per change.',
		name: 'howItChecks',
		type: 'notice',
		default: '',
		displayOptions: { show: { event: ['inboxStatusChanged', 'newInbox'] } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [timeoutOption(TRIGGER_TIMEOUT_SECONDS, 'each page of up to 1000 inboxes')],
	},
];
