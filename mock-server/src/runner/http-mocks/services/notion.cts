import { type Service, urlPattern } from './service.cjs';

const API = 'https://api.notion.com/v1/';

/**
 * Notion (n8n's Notion node, create a database page): the node reads the database's properties
 * first, then creates the page. The shipped database has Name (title), Email, Status (select) and
 * Website (url).
 */
export const notion: Service = {
	name: 'notion',
	title: 'Notion API',
	operations: {
		database: {
			title: "a database's properties",
			docs: 'https://developers.notion.com/reference/retrieve-a-database',
			request: { method: 'GET', url: urlPattern(`${API}databases/`, '[^/?]+') },
			answer: {
				json: {
					object: 'database',
					id: '{{request.segments.2}}',
					title: [{ type: 'text', text: { content: 'Leads' }, plain_text: 'Leads' }],
					properties: {
						Name: { id: 'title', name: 'Name', type: 'title', title: {} },
						Email: { id: 'a%3Bb1', name: 'Email', type: 'email', email: {} },
						Status: { id: 'c2%3Ad', name: 'Status', type: 'select', select: { options: [] } },
						Website: { id: 'e3f4', name: 'Website', type: 'url', url: {} },
					},
				},
			},
		},
		createPage: {
			title: 'a page created in a database',
			docs: 'https://developers.notion.com/reference/post-page',
			request: { method: 'POST', url: `${API}pages` },
			answer: {
				json: {
					object: 'page',
					id: '59833787-2cf9-4fdf-8782-e53db20768a{{seq}}',
					created_time: '{{now}}',
					last_edited_time: '{{now}}',
					archived: false,
					in_trash: false,
					parent: '{{request.body.parent}}',
					properties: '{{request.body.properties}}',
					url: 'https://www.notion.so/59833787-2cf9-4fdf-8782-e53db20768a{{seq}}',
				},
			},
		},
	},
};
