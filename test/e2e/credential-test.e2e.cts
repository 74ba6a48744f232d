import { VERSIONS } from './n8n-app.cjs';
import { type Stack, startStack } from './support.cjs';

/** The credential's test as n8n's own credential tester runs it (what "Save" shows in the editor). */
describe.each(VERSIONS)('the Lead Inbox API credential test in n8n $version', (target) => {
	let stack: Stack;
	let rest: Awaited<ReturnType<Stack['app']['signInOwner']>>;
	/** Saves the credential as the editor does, then asks n8n to test it. */
	const test = async (data: Record<string, string>) => {
		const credential = { name: 'Lead Inbox account', type: 'leadInboxApi', data };
		const saved = await rest('POST', '/credentials', credential);
		if (!saved.body.data?.id) throw new Error(`saving failed: ${JSON.stringify(saved.body)}`);
		const result = await rest('POST', '/credentials/test', {
			credentials: { ...credential, id: saved.body.data.id },
		});
		if (!result.body.data) throw new Error(`${result.status} ${JSON.stringify(result.body)}`);
		return result.body.data;
	};

	beforeAll(async () => {
		stack = await startStack(target, { credential: false });
		await stack.app.start();
		rest = await stack.app.signInOwner({
			email: 'owner@lead-inbox.test',
			password: 'Lead-Inbox-e2e-1',
		});
	});
	afterAll(async () => {
		await stack?.app.stop();
		await stack?.server.close();
	});

	it('passes with the right key and URLs', async () => {
		const { url } = stack.server;
		expect(
			await test({
				apiKey: stack.account.apiKey,
				leadsBaseUrl: url,
				inboxBaseUrl: `${url}/api/v1`,
			}),
		).toEqual({ status: 'OK', message: expect.stringMatching(/^Connection successful/) });
	});

	it("says what to fix for an Inbox Base URL without /api/v1, and for a wrong key, in the service's words", async () => {
		const { url } = stack.server;
		expect(
			await test({ apiKey: stack.account.apiKey, leadsBaseUrl: url, inboxBaseUrl: url }),
		).toEqual({
			status: 'Error',
			message: `The credential's Inbox Base URL must end with /api/v1 (got ${url}). Set it to ${url}/api/v1 if that is where the inbox service lives.`,
		});
		expect(
			await test({ apiKey: 'lik_wrong', leadsBaseUrl: url, inboxBaseUrl: `${url}/api/v1` }),
		).toEqual({
			status: 'Error',
			message: expect.stringMatching(
				/^The inbox service refused the API key \(HTTP 401: "Invalid API key.*The lead search service refused the API key/,
			),
		});
	});

	it('passes for a key without inboxes:write and says what it may not do; passes with only the lead search set', async () => {
		const { url } = stack.server;
		const readOnly = await stack.server.newAccount({
			permissions: ['pools:read', 'inboxes:read'],
		});
		const inboxesBefore = (await stack.server.admin('GET', `/accounts/${readOnly.accountId}`)).body;
		expect(
			await test({
				apiKey: readOnly.apiKey,
				leadsBaseUrl: url,
				inboxBaseUrl: `${url}/api/v1`,
			}),
		).toEqual({
			status: 'OK',
			message: expect.stringMatching(
				/^Connection successful\. Inbox management works, but this key may not create inboxes \(inboxes:write\) \(HTTP 403: ".+"\): the nodes that need it will fail until the operator grants it\. Lead search works\.$/,
			),
		});
		expect(
			await test({ apiKey: stack.account.apiKey, leadsBaseUrl: url, inboxBaseUrl: '' }),
		).toEqual({ status: 'OK', message: 'Connection successful. Lead search works.' });
		// The checks created, charged and saved nothing.
		expect((await stack.server.admin('GET', `/accounts/${readOnly.accountId}`)).body).toEqual(
			inboxesBefore,
		);
		const pools = await stack.server.call('GET', '/api/v1/pools', { key: readOnly.apiKey });
		expect(pools.body.pools).toEqual([]);
	});

	it('fails with only the lead search set and a wrong key, and when no URL is set', async () => {
		const { url } = stack.server;
		expect(await test({ apiKey: 'lik_wrong', leadsBaseUrl: url, inboxBaseUrl: '' })).toEqual({
			status: 'Error',
			message: expect.stringMatching(/^The lead search service refused the API key \(HTTP 401/),
		});
		expect(
			await test({ apiKey: stack.account.apiKey, leadsBaseUrl: '', inboxBaseUrl: '' }),
		).toEqual({ status: 'Error', message: expect.stringMatching(/names no service/) });
	});
});
