import type { INodeProperties } from 'n8n-workflow';
import { TOOL_DEFAULT_MAX_CREDITS } from './creditCap';
import { CONTACT_FIELDS } from './output';

/** Options > Max Requests per Run (New Leads Wanted). */
export const DEFAULT_MAX_REQUESTS = 10;
/** Options > Timeout (Minutes): a count-1000 search takes about 4 minutes on the real service. */
export const DEFAULT_TIMEOUT_MINUTES = 10;

/** Measured on the reference server: bench/new-leads.bench.cts (462 of 4959 contacts). */
const NO_EMAIL_SHARE = 'about 9 %';

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
		{
			name: "Doesn't Have It",
			value: 'no',
			description: `Only businesses whose website was scanned and has no ${hasNo} (businesses without a scannable website are left out)`,
		},
		{ name: 'Has It', value: 'yes', description: `Only businesses whose website has ${has}` },
	],
	description: `Filter on ${has}, found by the service's scan of each website (also inside tag-manager containers)`,
});

/** A contact field for Output: Selected Fields, named as the node's users read it. */
const FIELD_NAMES: Record<(typeof CONTACT_FIELDS)[number], string> = {
	address: 'Address',
	businessName: 'Business Name',
	email: 'Email',
	emails: 'All Emails',
	facebook: 'Facebook',
	fbPixel: 'Meta Ads Pixel',
	gAnalytics: 'Google Analytics',
	googleBusinessCategories: 'Business Categories',
	instagram: 'Instagram',
	linkedin: 'LinkedIn',
	phone: 'Phone',
	phone_numbers: 'All Phone Numbers',
	tiktok: 'TikTok',
	tikTokPixel: 'TikTok Pixel',
	website: 'Website',
};

const OUTPUT_OPTIONS = [
	{
		name: 'Full Response',
		value: 'response',
		description: 'One item with the service’s answer: contacts (as sent) and chargedCredits',
	},
	{
		name: 'Raw',
		value: 'contacts',
		description: 'One item per contact with every field the service sends',
	},
	{
		name: 'Selected Fields',
		value: 'selected',
		description: 'One item per contact with the fields you pick',
	},
	{
		name: 'Simplified',
		value: 'simplified',
		description:
			'One item per contact with the 10 fields a CRM or an AI agent needs: name, email, phone, website, address, categories, socialProfiles, runsMetaAds, runsTikTokAds, usesGoogleAnalytics',
	},
];

const newLeadsOnly = { show: { countMode: ['newLeads'] } };

/** Options > Only Contacts With an Email, as the node versions listed describe what it does. */
const onlyWithEmail = (versions: number[], description: string): INodeProperties => ({
	displayName: 'Only Contacts With an Email',
	name: 'onlyWithEmail',
	type: 'boolean',
	default: false,
	displayOptions: { show: { '@version': versions } },
	description,
});

export const fetchLeadsProperties: INodeProperties[] = [
	{
		displayName:
			'Each lead costs one credit: the service charges for every contact it adds to your account (contacts the account already holds are free)',
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
		displayName: 'Count Mode',
		name: 'countMode',
		required: true,
		type: 'options',
		default: 'requested',
		options: [
			{
				name: 'Leads Requested',
				value: 'requested',
				description:
					'One search for the top results. Contacts the account already holds are left out (and free), so repeating the same search returns fewer leads, then none.',
			},
			{
				name: 'New Leads Wanted',
				value: 'newLeads',
				description:
					'Search deeper until that many leads the account does not hold yet are found: for scheduled pulls that must bring new leads every run',
			},
		],
	},
	{
		displayName: 'Count',
		name: 'count',
		required: true,
		type: 'number',
		default: 100,
		typeOptions: { minValue: 1, maxValue: 1000, numberPrecision: 0 },
		displayOptions: { show: { countMode: ['requested'] } },
		description:
			'How many of the top results to fetch (1 to 1000). The full count is reserved from your credits; what is not added is refunded.',
	},
	{
		displayName: 'New Leads Wanted',
		name: 'count',
		required: true,
		type: 'number',
		default: 25,
		typeOptions: { minValue: 1, maxValue: 1000, numberPrecision: 0 },
		displayOptions: newLeadsOnly,
		description:
			'How many leads new to the account to find (1 to 1000). Never more are charged from a service that ranks its results stably.',
	},
	{
		displayName:
			'Each request asks for the top N results, where N grows by what is still missing: after 50 already taken, 25 new leads take a request for 75. The balance must cover N (the service reserves it and refunds what it does not add), and a request takes as long as a search of N. A published workflow remembers how deep it went, so a daily pull usually takes one request.',
		name: 'newLeadsNotice',
		type: 'notice',
		default: '',
		displayOptions: newLeadsOnly,
	},
	filter('Meta Ads Pixel', 'metaAds', 'a Meta (Facebook) ads pixel', 'Meta (Facebook) ads pixel'),
	filter('TikTok Pixel', 'tiktokPixel', 'a TikTok pixel', 'TikTok pixel'),
	filter('Google Analytics', 'gAnalytics', 'Google Analytics', 'Google Analytics'),
	{
		displayName: 'Output',
		name: 'output',
		required: true,
		type: 'options',
		default: 'contacts',
		options: OUTPUT_OPTIONS,
		displayOptions: { show: { '@tool': [false] } },
	},
	{
		// As an AI agent's tool the answer goes into the model's context: the short form by default.
		displayName: 'Output',
		name: 'output',
		required: true,
		type: 'options',
		default: 'simplified',
		options: OUTPUT_OPTIONS,
		displayOptions: { show: { '@tool': [true] } },
	},
	{
		displayName: 'Fields',
		name: 'fields',
		type: 'multiOptions',
		required: true,
		default: ['businessName', 'email', 'phone', 'website'],
		options: CONTACT_FIELDS.map((value) => ({ name: FIELD_NAMES[value], value })).sort((a, b) =>
			a.name.localeCompare(b.name),
		),
		displayOptions: { show: { output: ['selected'] } },
		description: 'The contact fields each item carries',
	},
	{
		displayName: 'Spend Output',
		name: 'spendOutput',
		type: 'boolean',
		default: true,
		displayOptions: { show: { '@version': [1.1, 1.2] } },
		description:
			'Whether to add a second output, Spend, with one item per search: niche, city, requested, chargedCredits, refundedCredits, leads and nothingFound (to sum, log or alert on credits)',
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
				displayName: 'Max Credits per Run',
				name: 'maxCreditsPerRun',
				type: 'number',
				default: 1000,
				typeOptions: { minValue: 0, numberPrecision: 0 },
				description: `The most this execution may spend, over all items and tool calls in this n8n process. A search is refused before it is sent when it could pass the cap (the service may charge its whole Count): without Continue On Fail the run stops before any search. New Leads Wanted stops before a request that could pass it. As an AI tool without this option: ${TOOL_DEFAULT_MAX_CREDITS} credits per agent run.`,
			},
			{
				displayName: 'Max Requests per Run',
				name: 'maxRequests',
				type: 'number',
				default: DEFAULT_MAX_REQUESTS,
				typeOptions: { minValue: 1, maxValue: 100, numberPrecision: 0 },
				displayOptions: { show: { '/countMode': ['newLeads'] } },
				description:
					'How many searches one item may make while looking for new leads. The next run of a published workflow goes on from where this one stopped.',
			},
			onlyWithEmail(
				[1, 1.1],
				`Whether to leave contacts without an email address (${NO_EMAIL_SHARE} on the reference server) out of the output. The node filters them: the service still adds them to your account and charges one credit each, so the hint after the run says how many were left out.`,
			),
			onlyWithEmail(
				[1.2],
				`Whether to leave contacts without an email address (${NO_EMAIL_SHARE} on the reference server) out of the output. The service still adds them to your account and charges one credit each. In New Leads Wanted the node keeps searching until it has that many leads with an email, so it may charge more than New Leads Wanted (within Max Credits per Run).`,
			),
			{
				displayName: 'Start From the Top',
				name: 'fromTheTop',
				type: 'boolean',
				default: false,
				displayOptions: { show: { '/countMode': ['newLeads'] } },
				description:
					'Whether to forget how deep earlier runs went and search from the top results again, for example after contacts were removed from the account',
			},
			{
				displayName: 'Timeout (Minutes)',
				name: 'timeoutMinutes',
				type: 'number',
				default: DEFAULT_TIMEOUT_MINUTES,
				typeOptions: { minValue: 1, maxValue: 60 },
				description: 'How long to wait for each search: large counts can take several minutes',
			},
		],
	},
];
