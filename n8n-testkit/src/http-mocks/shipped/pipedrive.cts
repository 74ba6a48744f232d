import { type Service, urlPattern } from './service.cjs';

/** Both API versions: n8n's Pipedrive node 1 calls /v1, its version 2 /api/v2. */
const BOTH = '(v1|api/v2)';

/** Pipedrive (n8n's Pipedrive node, create a person or a deal). */
export const pipedrive: Service = {
	name: 'pipedrive',
	title: 'Pipedrive API',
	nodeType: 'n8n-nodes-base.pipedrive',
	operations: {
		createPerson: {
			title: 'a person created',
			docs: 'https://developers.pipedrive.com/docs/api/v1/Persons#addPerson',
			request: {
				method: 'POST',
				url: urlPattern('https://api.pipedrive.com/', `${BOTH}/persons(\\?.*)?`),
			},
			answer: {
				status: 201,
				json: {
					success: true,
					data: {
						id: 1042,
						name: '{{request.body.name}}',
						owner_id: 13293848,
						org_id: '{{request.body.org_id}}',
						add_time: '{{now}}',
						update_time: '{{now}}',
						visible_to: 3,
					},
				},
			},
		},
		createDeal: {
			title: 'a deal created',
			docs: 'https://developers.pipedrive.com/docs/api/v1/Deals#addDeal',
			request: {
				method: 'POST',
				url: urlPattern('https://api.pipedrive.com/', `${BOTH}/deals(\\?.*)?`),
			},
			answer: {
				status: 201,
				json: {
					success: true,
					data: {
						id: 517,
						title: '{{request.body.title}}',
						value: '{{request.body.value}}',
						currency: 'USD',
						person_id: '{{request.body.person_id}}',
						stage_id: 1,
						status: 'open',
						add_time: '{{now}}',
						update_time: '{{now}}',
					},
				},
			},
		},
	},
};
