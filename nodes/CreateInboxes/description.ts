import type { INodeProperties } from 'n8n-workflow';
import { poolLocator } from '../shared/pools';
import { timeoutOption } from '../shared/timeout';

/** Options > Batch Size: the most the service takes in one request. */
export const DEFAULT_BATCH_SIZE = 100;
/** Options > Max Wait on Rate Limit (Seconds): an hour, the service's whole rate window. */
export const DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS = 3600;

export const CREATE_INBOXES_TIMEOUT_SECONDS = 300;

export const createInboxesProperties: INodeProperties[] = [
	{
		displayName: 'Email Address',
		name: 'emailAddress',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. name@example.com',
		description: 'Address of the inbox to create. One inbox is created per input item.',
	},
	{
		displayName: 'IMAP Password',
		name: 'imapPassword',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		description:
			'IMAP password, usually an app password. Also used for SMTP unless an SMTP password is set.',
	},
	{
		displayName: 'Add Inboxes To',
		name: 'poolMode',
		required: true,
		type: 'options',
		default: 'new',
		options: [
			{
				name: 'A New Pool',
				value: 'new',
				description:
					'A new pool per New Pool Name: items giving the same name share it, items giving none share one the service names',
			},
			{ name: 'An Existing Pool', value: 'existing' },
		],
	},
	poolLocator({ displayOptions: { show: { poolMode: ['existing'] } }, required: true }),
	{
		displayName: 'New Pool Name',
		name: 'newPoolName',
		type: 'string',
		default: '',
		placeholder: 'e.g. Outreach November',
		displayOptions: { show: { poolMode: ['new'] } },
		description:
			'Name of the pool this run creates. Empty: the service names it after the time, e.g. "Pool 2026-11-21 14:03 UTC". A name already in use gets " (2)" appended.',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Accept Address As Typed',
				name: 'acceptDomainAsTyped',
				type: 'boolean',
				default: false,
				description:
					'Whether to create an address whose domain looks like a typo of a mail provider (e.g. gmial.com). By default such entries fail with "did you mean ...?".',
			},
			{
				displayName: 'Daily Sending Limit',
				name: 'dailySendingLimit',
				type: 'number',
				default: 2,
				typeOptions: { minValue: 1, maxValue: 10000 },
			},
			{
				displayName: 'IMAP Host',
				name: 'imapHost',
				type: 'string',
				default: '',
				placeholder: 'e.g. imap.example.com',
				description: 'Detected automatically for known providers',
			},
			{
				displayName: 'IMAP Port',
				name: 'imapPort',
				type: 'number',
				default: 993,
				description: '993 is implicit TLS; any other port must offer STARTTLS',
			},
			{
				displayName: 'IMAP Username',
				name: 'imapUsername',
				type: 'string',
				default: '',
				description: 'Defaults to the email address',
			},
			{
				displayName: 'Provider',
				name: 'provider',
				type: 'options',
				default: 'google',
				description:
					'Set it for a custom domain hosted by one of these providers; addresses on their own domains are detected',
				options: [
					{ name: 'GoDaddy', value: 'godaddy' },
					{ name: 'Google', value: 'google' },
					{ name: 'iCloud', value: 'icloud' },
					{ name: 'Microsoft', value: 'microsoft' },
					{ name: 'Namecheap', value: 'namecheap' },
					{ name: 'Yahoo', value: 'yahoo' },
					{ name: 'Zoho', value: 'zoho' },
				],
			},
			{
				displayName: 'Skip Connection Test',
				name: 'skipConnectionTest',
				type: 'boolean',
				default: false,
				description: 'Whether to create the inbox without testing the IMAP/SMTP login first',
			},
			{
				displayName: 'SMTP Host',
				name: 'smtpHost',
				type: 'string',
				default: '',
				placeholder: 'e.g. smtp.example.com',
				description: 'Detected automatically for known providers',
			},
			{
				displayName: 'SMTP Password',
				name: 'smtpPassword',
				type: 'string',
				typeOptions: { password: true },
				default: '',
				description: 'Defaults to the IMAP password',
			},
			{
				displayName: 'SMTP Port',
				name: 'smtpPort',
				type: 'number',
				default: 465,
				description: '465 is implicit TLS; any other port must offer STARTTLS',
			},
			{
				displayName: 'SMTP Username',
				name: 'smtpUsername',
				type: 'string',
				default: '',
				description: 'Defaults to the email address',
			},
		],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Batch Size',
				name: 'batchSize',
				type: 'number',
				default: DEFAULT_BATCH_SIZE,
				typeOptions: { minValue: 1, maxValue: 100 },
				description: 'Inboxes sent per request (the service accepts up to 100)',
			},
			{
				displayName: 'Max Wait on Rate Limit (Seconds)',
				name: 'maxRateLimitWait',
				type: 'number',
				default: DEFAULT_MAX_RATE_LIMIT_WAIT_SECONDS,
				typeOptions: { minValue: 0 },
				description:
					'The service creates at most 1000 inboxes per hour per API key. When the limit is hit, the node waits as long as the service asks, up to this many seconds in total; then the items not sent go to the Failed output with code rate_limited.',
			},
			timeoutOption(
				CREATE_INBOXES_TIMEOUT_SECONDS,
				'each batch (the service tests the IMAP/SMTP login of every entry)',
			),
		],
	},
];
