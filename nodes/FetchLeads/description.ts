import type { INodeProperties } from 'n8n-workflow';

/** A pixel filter; `has` and `hasNo` complete "whose website has ..." and "... has no ...". */
const filter = (
	displayName: string,
	name: string,
	has: string,
	hasNo: string,
): INodeProperties => ({
	displayName,
	name,
	type: 'options',
	default: 'any',
	options: [
		{ name: 'Any', value: 'any', description: 'Do not filter on it' },
		{ name: 'Has It', value: 'yes', description: `Only businesses whose website has ${has}` },
		{
			name: "Doesn't Have It",
			value: 'no',
			description: `Only businesses whose website was scanned and has no ${hasNo} (businesses without a scannable website are left out)`,
		},
	],
	description: `Filter on ${has}, found by the service's scan of each website (also inside tag-manager containers)`,
});

export const fetchLeadsProperties: INodeProperties[] = [
	{
		displayName:
			'Each lead costs one credit: the service charges for every contact it adds to your account (duplicates by email are free)',
		name: 'costNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Niche',
		name: 'niche',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. dentist',
		description: 'Business niche to search for',
	},
	{
		displayName: 'City',
		name: 'city',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Austin, TX',
		description:
			'City to search in. Add the country or state when the name is ambiguous ("Portland, ME", "Munich, Germany").',
	},
	{
		displayName: 'Count',
		name: 'count',
		type: 'number',
		default: 100,
		typeOptions: { minValue: 1, maxValue: 1000, numberPrecision: 0 },
		description:
			'How many leads to fetch (1 to 1000). The full count is reserved from your credits; what is not added is refunded.',
	},
	filter('Meta Ads Pixel', 'metaAds', 'a Meta (Facebook) ads pixel', 'Meta (Facebook) ads pixel'),
	filter('TikTok Pixel', 'tiktokPixel', 'a TikTok pixel', 'TikTok pixel'),
	filter('Google Analytics', 'gAnalytics', 'Google Analytics', 'Google Analytics'),
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		default: 'contacts',
		options: [
			{ name: 'One Item per Contact', value: 'contacts' },
			{
				name: 'One Item with the Full Response',
				value: 'response',
				description: 'An item with contacts and chargedCredits',
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
				displayName: 'Fail When Nothing Is Found',
				name: 'failOnNotFound',
				type: 'boolean',
				default: false,
				description:
					'Whether to fail when the service finds no business for the niche and city. By default the node outputs nothing for that item.',
			},
			{
				displayName: 'Only Contacts With an Email',
				name: 'onlyWithEmail',
				type: 'boolean',
				default: false,
				description:
					'Whether to leave contacts without an email address (about 1 in 25) out of the output. The node filters them: the service still adds them to your account and charges one credit each, so the hint after the run says how many were left out.',
			},
			{
				displayName: 'Timeout (Minutes)',
				name: 'timeoutMinutes',
				type: 'number',
				default: 10,
				typeOptions: { minValue: 1, maxValue: 60 },
				description: 'How long to wait for the service: large counts can take several minutes',
			},
		],
	},
];
