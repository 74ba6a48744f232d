import { startServer, type TestServer } from '../helpers/server.cjs';

/*
 * Every error example of POST /inboxes in the OpenAPI document is what the server sends for the
 * request the example describes: the words are written once (inboxes/create.cts ENTRY_MESSAGES,
 * the connection test's failure), so a change to one cannot leave the document behind.
 */

let server: TestServer;
let operation: any;
beforeAll(async () => {
	server = await startServer();
	const document = (await server.call('GET', '/openapi.json', { key: null })).body;
	operation = document.paths['/api/v1/inboxes'].post;
});
afterAll(async () => await server.close());

const example = (status: number) =>
	operation.responses[String(status)].content['application/json'].example;

describe('documented error examples of POST /inboxes', () => {
	it('each equals what the server answers to the request it describes', async () => {
		const { apiKey } = await server.newAccount();
		const create = (entry: object) =>
			server.call('POST', '/api/v1/inboxes', { key: apiKey, body: entry });

		const notFound = await create({
			emailAddress: 'jane@gmail.com',
			imapPassword: 'app-password',
			poolId: 'pool_unknown',
		});
		expect([notFound.status, notFound.body]).toEqual([404, example(404)]);

		const refused = await create({ emailAddress: 'jane@gmail.com', imapPassword: 'invalid-pass' });
		expect([refused.status, refused.body]).toEqual([422, example(422)]);

		expect(
			(await create({ emailAddress: 'jane@gmail.com', imapPassword: 'app-password' })).status,
		).toBe(200);
		const exists = await create({ emailAddress: 'jane@gmail.com', imapPassword: 'app-password' });
		expect([exists.status, exists.body]).toEqual([409, example(409)]);

		const invalid = await create({ emailAddress: 'not-an-address', imapPassword: 'x' });
		expect(invalid.status).toBe(400);
		expect(invalid.body.code).toBe(example(400).code);
	});

	it("the batch answer's example fails its entry with the words the server uses", async () => {
		const { apiKey } = await server.newAccount();
		const batch = operation.responses['200'].content['application/json'].example;
		const failed = batch.results.find((r: { success: boolean }) => !r.success);
		const answer = await server.call('POST', '/api/v1/inboxes', {
			key: apiKey,
			body: [{ emailAddress: failed.emailAddress, imapPassword: 'invalid-app-password' }],
		});
		expect(answer.body.results[0]).toEqual(failed);
	});
});
