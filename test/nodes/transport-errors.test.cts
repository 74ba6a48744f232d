import type { IPollFunctions } from 'n8n-workflow';
import { apiRequest } from '../../nodes/shared/transport';

/**
 * How the transport names a request that got no answer, from the error n8n's request helper
 * throws: a failure on the wire says the connection broke (the service may have acted), one of
 * n8n's own before sending says so and that the service received nothing.
 */
function contextThrowing(error: unknown): IPollFunctions {
	return {
		getNode: () => ({ name: 'Lead Inbox Trigger', type: 'n8n-nodes-lead-inbox.leadInboxTrigger' }),
		getCredentials: async () => ({
			apiKey: 'lik_transport_test_key_01',
			leadsBaseUrl: 'http://127.0.0.1:4010',
			inboxBaseUrl: 'http://127.0.0.1:4010/api/v1',
		}),
		helpers: {
			httpRequestWithAuthentication: async () => {
				throw error;
			},
		},
	} as unknown as IPollFunctions;
}

const list = (error: unknown) =>
	apiRequest.call(contextThrowing(error), 'inbox', 'GET', '/inboxes', { timeoutMs: 60_000 });

describe('a request that got no answer', () => {
	it("n8n's own failure before sending: says n8n could not send it and the service received nothing", async () => {
		await expect(
			list(new Error('No bridge acquired for this context. Call acquire() first.')),
		).rejects.toMatchObject({
			message:
				'n8n could not send the request to the inbox service (GET http://127.0.0.1:4010/api/v1/inboxes)',
			description: expect.stringMatching(
				/^No bridge acquired for this context\. Call acquire\(\) first\. This came from n8n itself, before anything went out: the service received nothing\./,
			),
		});
	});

	it.each([
		['a reset, by its code', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
		['a socket closed, by its words', new Error('socket hang up')],
		[
			'a reset wrapped by n8n',
			Object.assign(new Error('The service was not able to process your request'), {
				cause: Object.assign(new Error('aborted'), { code: 'ECONNRESET' }),
			}),
		],
	])('%s: says the connection broke before it answered', async (_, error) => {
		await expect(list(error)).rejects.toMatchObject({
			message:
				'The connection to the inbox service at http://127.0.0.1:4010/api/v1 broke before it answered',
		});
	});

	it('a service never reached: says so, and that nothing was sent', async () => {
		await expect(
			list(
				Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:4010'), { code: 'ECONNREFUSED' }),
			),
		).rejects.toMatchObject({
			message: 'Could not reach the inbox service at http://127.0.0.1:4010/api/v1',
			description: expect.stringContaining('Nothing was sent.'),
		});
	});
});
