import { type Service, urlPattern } from './service.cjs';

const API = 'https://api.hubapi.com';

/**
 * HubSpot (n8n's HubSpot node, contact "create or update" and "search"). The node's create or
 * update calls the legacy contacts API, then reads the contact's profile.
 */
export const hubspot: Service = {
	name: 'hubspot',
	title: 'HubSpot CRM API',
	nodeType: 'n8n-nodes-base.hubspot',
	operations: {
		createOrUpdateContact: {
			title: 'a contact created or updated by email',
			docs: 'https://legacydocs.hubspot.com/docs/methods/contacts/create_or_update',
			request: {
				method: 'POST',
				url: urlPattern(`${API}/contacts/v1/contact/createOrUpdate/email/`, '[^/?]+'),
			},
			answer: { json: { vid: 3234574, isNew: true } },
		},
		contactProfile: {
			title: "a contact's profile by vid (read after create or update)",
			docs: 'https://legacydocs.hubspot.com/docs/methods/contacts/get_contact',
			request: {
				method: 'GET',
				url: urlPattern(`${API}/contacts/v1/contact/vid/`, '\\d+/profile(\\?.*)?'),
			},
			answer: {
				json: {
					vid: '{{request.segments.4}}',
					'canonical-vid': '{{request.segments.4}}',
					'portal-id': 62515,
					'is-contact': true,
					properties: {
						email: { value: 'dana@example.com' },
						firstname: { value: 'Dana' },
						lastname: { value: 'Reed' },
						lifecyclestage: { value: 'lead' },
						createdate: { value: '{{nowMs}}' },
						lastmodifieddate: { value: '{{nowMs}}' },
					},
					'identity-profiles': [
						{
							vid: '{{request.segments.4}}',
							identities: [{ type: 'EMAIL', value: 'dana@example.com', 'is-primary': true }],
						},
					],
				},
			},
		},
		searchContacts: {
			title: 'contacts that match filters',
			docs: 'https://developers.hubspot.com/docs/api/crm/search',
			request: { method: 'POST', url: `${API}/crm/v3/objects/contacts/search` },
			answer: {
				json: {
					total: 1,
					results: [
						{
							id: '3234574',
							properties: {
								createdate: '2026-11-02T09:14:27.512Z',
								email: 'dana@example.com',
								firstname: 'Dana',
								lastname: 'Reed',
								hs_object_id: '3234574',
								lastmodifieddate: '2026-11-20T16:02:11.004Z',
							},
							createdAt: '2026-11-02T09:14:27.512Z',
							updatedAt: '2026-11-20T16:02:11.004Z',
							archived: false,
						},
					],
				},
			},
		},
	},
};
