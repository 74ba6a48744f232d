import { type Service, urlPattern } from './service.cjs';

const RECORDS = urlPattern('https://api.airtable.com/v0/', '[^/?]+/[^/?]+');

/** Airtable (n8n's Airtable node 2, create and list records). */
export const airtable: Service = {
	name: 'airtable',
	title: 'Airtable Web API',
	nodeType: 'n8n-nodes-base.airtable',
	operations: {
		createRecord: {
			title: "a record created (one per item, the node's way)",
			docs: 'https://airtable.com/developers/web/api/create-records',
			request: { method: 'POST', url: RECORDS },
			answer: {
				json: {
					id: 'recTEST0000000{{seq}}',
					createdTime: '{{now}}',
					fields: '{{request.body.fields}}',
				},
			},
		},
		listRecords: {
			title: "a table's records (the node's search)",
			docs: 'https://airtable.com/developers/web/api/list-records',
			request: {
				method: 'GET',
				url: urlPattern('https://api.airtable.com/v0/', '[^/?]+/[^/?]+(\\?.*)?'),
			},
			answer: {
				json: {
					records: [
						{
							id: 'recA1b2C3d4E5f6G7',
							createdTime: '2026-11-02T09:14:27.000Z',
							fields: {
								Name: 'Bright Smile Dental',
								Email: 'hello@brightsmile.example',
								Status: 'New',
							},
						},
						{
							id: 'recH8i9J0k1L2m3N4',
							createdTime: '2026-11-03T11:40:02.000Z',
							fields: {
								Name: 'Lakeside Dentistry',
								Email: 'front@lakeside.example',
								Status: 'Contacted',
							},
						},
					],
				},
			},
		},
	},
};
