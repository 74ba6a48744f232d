import { type Service, urlPattern } from './service.cjs';

/** Telegram (n8n's Telegram node, send a message): the bot's token is part of the URL. */
export const telegram: Service = {
	name: 'telegram',
	title: 'Telegram Bot API',
	nodeType: 'n8n-nodes-base.telegram',
	operations: {
		sendMessage: {
			title: 'a text message sent to a chat',
			docs: 'https://core.telegram.org/bots/api#sendmessage',
			request: {
				method: 'POST',
				url: urlPattern('https://api.telegram.org/bot', '[^/]+/sendMessage'),
			},
			answer: {
				json: {
					ok: true,
					result: {
						message_id: '{{seq}}',
						from: {
							id: 7012345678,
							is_bot: true,
							first_name: 'Lead Bot',
							username: 'lead_test_bot',
						},
						chat: { id: '{{request.body.chat_id}}', type: 'private' },
						date: '{{nowSeconds}}',
						text: '{{request.body.text}}',
					},
				},
			},
		},
	},
};
