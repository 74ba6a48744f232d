import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class LeadInboxApi implements ICredentialType {
	name = 'leadInboxApi';

	displayName = 'Lead Inbox API';

	icon: Icon = {
		light: 'file:../nodes/shared/leadInbox.svg',
		dark: 'file:../nodes/shared/leadInbox.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-lead-inbox/n8n-nodes-lead-inbox#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The API key the operator issued to your account. Sent as a Bearer token.',
		},
		{
			displayName: 'Lead Search Base URL',
			name: 'leadsBaseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'http://127.0.0.1:4010',
			description:
				'Base URL of the lead search service, without /api/v1 (for the reference server: http://127.0.0.1:4010)',
		},
		{
			displayName: 'Inbox Base URL',
			name: 'inboxBaseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'http://127.0.0.1:4010/api/v1',
			description:
				'Base URL of the inbox management service, including /api/v1 (for the reference server: http://127.0.0.1:4010/api/v1)',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	// Lists the pools of the inbox service: cheap, changes nothing, and needs the key, the
	// pools:read permission and the /api/v1 prefix to be right. HTTP errors are read as data so
	// that the messages below are what n8n shows (its own generic text replaces them otherwise).
	// The lead search URL cannot be checked here without charging credits: Fetch Leads says so
	// at its first run when that URL does not lead to the search endpoint.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.inboxBaseUrl.replace(/\\/+$/, "")}}',
			url: '/pools',
			method: 'GET',
			ignoreHttpStatusErrors: true,
		},
		rules: [
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'code',
					value: 'route_not_found',
					message:
						'Inbox Base URL not found: it must end with /api/v1, e.g. http://127.0.0.1:4010/api/v1.',
				},
			},
			{
				type: 'responseSuccessBody',
				properties: {
					key: 'pools',
					value: undefined,
					message:
						'The inbox service did not list your pools: check the API key (it needs the pools:read permission) and that the Inbox Base URL ends with /api/v1, e.g. http://127.0.0.1:4010/api/v1.',
				},
			},
		],
	};
}
