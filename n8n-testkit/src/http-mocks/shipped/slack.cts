import type { Service } from './service.cjs';

/** Slack (n8n's Slack node, post a message): the Web API answers 200 with ok true or false. */
export const slack: Service = {
	name: 'slack',
	title: 'Slack Web API',
	nodeType: 'n8n-nodes-base.slack',
	operations: {
		postMessage: {
			title: 'a message posted to a channel or a user',
			docs: 'https://api.slack.com/methods/chat.postMessage',
			request: { method: 'POST', url: 'https://slack.com/api/chat.postMessage' },
			answer: {
				json: {
					ok: true,
					channel: '{{request.body.channel}}',
					ts: '{{nowSeconds}}.00010{{seq}}',
					message: {
						type: 'message',
						subtype: 'bot_message',
						text: '{{request.body.text}}',
						ts: '{{nowSeconds}}.00010{{seq}}',
						username: 'n8n',
						bot_id: 'B0123456789',
					},
				},
			},
		},
	},
};
