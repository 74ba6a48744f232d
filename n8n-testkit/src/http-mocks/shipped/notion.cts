import { type Service, urlPattern } from './service.cjs';

const API = 'https://api.notion.com/v1/';

/**
 * Notion (n8n's Notion node, create a database page): the node reads the database's properties
 * first, then creates the page. The shipped database has Name (title), Email, Status (select) and
 * Website (url), and a page created comes back with those four as sent: a database of other
 * properties overrides both answers.
 */
export const notion: Service = {
	name: 'notion',
	title: 'Notion API',
	nodeType: 'n8n-nodes-base.notion',
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
					parent: { type: 'database_id', database_id: '{{request.body.parent.database_id}}' },
					// As the shipped database's properties come back: the values sent, with their types.
					properties: {
						Name: {
							id: 'title',
							type: 'title',
							title: [
								{
									type: 'text',
									text: {
										content: '{{request.body.properties.Name.title.0.text.content}}',
										link: null,
									},
									plain_text: '{{request.body.properties.Name.title.0.text.content}}',
									href: null,
								},
							],
						},
						Email: {
							id: 'a%3Bb1',
							type: 'email',
							email: '{{request.body.properties.Email.email}}',
						},
						Status: {
							id: 'c2%3Ad',
							type: 'select',
							select: '{{request.body.properties.Status.select}}',
						},
						Website: { id: 'e3f4', type: 'url', url: '{{request.body.properties.Website.url}}' },
					},
					url: 'https://www.notion.so/59833787-2cf9-4fdf-8782-e53db20768a{{seq}}',
				},
			},
		},
	},
};
