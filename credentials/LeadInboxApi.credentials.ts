import type { IAuthenticateGeneric, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

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
			description:
				'The API key the service operator issued to your account (keys are issued on request, after you describe your use case). Sent as a Bearer token.',
		},
		{
			displayName: 'Lead Search Base URL',
			name: 'leadsBaseUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. http://127.0.0.1:4010',
			description:
				'Base URL of the lead search service, without /api/v1 (for the reference server: http://127.0.0.1:4010). Leave empty if you only manage inboxes.',
		},
		{
			displayName: 'Inbox Base URL',
			name: 'inboxBaseUrl',
			type: 'string',
			default: '',
			placeholder: 'e.g. http://127.0.0.1:4010/api/v1',
			description:
				'Base URL of the inbox management service, including /api/v1 (for the reference server: http://127.0.0.1:4010/api/v1). Leave empty if you only search leads.',
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

	// Tested by the nodes (testedBy: 'leadInboxApiTest', nodes/shared/credentialTest.ts): checking
	// both base URLs and the key's permissions takes several requests, which a declarative test
	// cannot make; n8n prefers a credential's own `test`, so there is none here.
}
