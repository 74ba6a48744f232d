import { googleOAuth2 } from './google-oauth2.cjs';
import { type Service, urlPattern } from './service.cjs';

const API = 'https://www.googleapis.com/gmail/v1/users/me';
const REFERENCE = 'https://developers.google.com/workspace/gmail/api/reference/rest/v1';

/** A message as users.messages.get gives it with format=metadata (n8n's "Simplify" reads it). */
const message = {
	id: '{{request.segments.5}}',
	threadId: '18f2a9c4e1b7d3a0',
	labelIds: ['INBOX', 'UNREAD'],
	snippet: 'Thanks for reaching out, happy to talk next week.',
	historyId: '912345',
	internalDate: '1767225600000',
	sizeEstimate: 4213,
	payload: {
		mimeType: 'multipart/alternative',
		headers: [
			{ name: 'From', value: 'Dana Reed <dana@example.com>' },
			{ name: 'To', value: 'me@example.com' },
			{ name: 'Subject', value: 'Re: A quick question' },
		],
	},
};

/** Gmail (n8n's Gmail node, send, reply and get a message), with Google's token endpoint. */
export const gmail: Service = {
	name: 'gmail',
	title: 'Gmail API',
	nodeType: 'n8n-nodes-base.gmail',
	operations: {
		send: {
			title: 'send a message (the Gmail node\'s "Send" and "Reply")',
			docs: `${REFERENCE}/users.messages/send`,
			request: { method: 'POST', url: `${API}/messages/send` },
			answer: {
				json: {
					id: '18f2b0d5c6e4a1{{seq}}',
					threadId: '18f2a9c4e1b7d3a0',
					labelIds: ['SENT'],
				},
			},
		},
		get: {
			title: 'a message by ID (the Gmail node\'s "Get"; "Reply" reads the message it answers)',
			docs: `${REFERENCE}/users.messages/get`,
			request: { method: 'GET', url: urlPattern(`${API}/messages/`, '[^/?]+(\\?.*)?') },
			answer: { json: message },
		},
		labels: {
			title:
				"the mailbox's labels (the Gmail node's \"Simplify\" names a message's labels with them)",
			docs: `${REFERENCE}/users.labels/list`,
			request: { method: 'GET', url: `${API}/labels` },
			answer: {
				json: {
					labels: [
						{ id: 'INBOX', name: 'INBOX', type: 'system' },
						{ id: 'SENT', name: 'SENT', type: 'system' },
						{ id: 'UNREAD', name: 'UNREAD', type: 'system' },
						{ id: 'Label_1', name: 'Leads', type: 'user' },
					],
				},
			},
		},
		profile: {
			title: 'the mailbox\'s address (the Gmail node\'s "Sender Name" option reads it)',
			docs: `${REFERENCE}/users/getProfile`,
			request: { method: 'GET', url: `${API}/profile` },
			answer: {
				json: {
					emailAddress: 'me@example.com',
					messagesTotal: 1204,
					threadsTotal: 877,
					historyId: '912345',
				},
			},
		},
		...googleOAuth2.operations,
	},
};
