// What each test of the suite starts from: an account of its own on the shared server, and the
// calls a workflow or client would make with its key.
const { AdminClient } = require('lead-inbox-mock-server');

const admin = new AdminClient(process.env.MOCK_URL, process.env.MOCK_ADMIN_TOKEN);

/** A fresh account for one test: its id, key and key id, and calls made with its key. */
async function newAccount(options = {}) {
	const account = await admin.accounts.create(options);
	const call = async (method, path, body) => {
		const response = await fetch(`${process.env.MOCK_URL}${path}`, {
			method,
			headers: {
				authorization: `Bearer ${account.apiKey}`,
				...(body === undefined ? {} : { 'content-type': 'application/json' }),
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		return { status: response.status, body: await response.json() };
	};
	return {
		...account,
		search: (body) => call('POST', '/api/v1/niche-finder-leads', body),
		createInboxes: (entries) => call('POST', '/api/v1/inboxes', entries),
		listInboxes: (query = '') => call('GET', `/api/v1/inboxes${query}`),
	};
}

module.exports = { admin, newAccount };
