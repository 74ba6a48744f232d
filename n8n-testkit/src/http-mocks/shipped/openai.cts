import type { Service } from './service.cjs';

/**
 * OpenAI-compatible chat completions, for nodes that call the API themselves (the OpenAI node, an
 * HTTP Request): an AI Agent's chat model is better scripted (stubs: { model: ... }).
 */
export const openai: Service = {
	name: 'openai',
	title: 'OpenAI chat completions',
	operations: {
		chatCompletion: {
			title: 'a chat completion (not streamed)',
			docs: 'https://platform.openai.com/docs/api-reference/chat/create',
			request: { method: 'POST', url: '/\\/v1\\/chat\\/completions$/' },
			answer: {
				json: {
					id: 'chatcmpl-test{{seq}}',
					object: 'chat.completion',
					created: '{{nowSeconds}}',
					model: '{{request.body.model}}',
					choices: [
						{
							index: 0,
							message: {
								role: 'assistant',
								content: 'This is the mock answer: override it.',
								refusal: null,
							},
							logprobs: null,
							finish_reason: 'stop',
						},
					],
					usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 },
				},
			},
		},
	},
};
