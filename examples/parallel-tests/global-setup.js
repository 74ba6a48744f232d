// Starts one reference server for every worker: a free port, a database in memory, and the URL
// it listens on read from --ready-file once it answers. The workers read MOCK_URL and
// MOCK_ADMIN_TOKEN from the environment they inherit.
const { spawn } = require('node:child_process');
const { existsSync, mkdtempSync, readFileSync } = require('node:fs');
const { randomBytes } = require('node:crypto');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

module.exports = async () => {
	const readyFile = join(mkdtempSync(join(tmpdir(), 'mock-server-')), 'url');
	const adminToken = `adm_${randomBytes(16).toString('hex')}`;
	// `npx lead-inbox-mock-server` in your project (a dev dependency); set another command with
	// LEAD_INBOX_MOCK_SERVER_CMD (this repository runs the server from its sources).
	const [command, ...args] = (
		process.env.LEAD_INBOX_MOCK_SERVER_CMD ?? 'npx --no-install lead-inbox-mock-server'
	).split(' ');
	const server = spawn(
		command,
		[
			...args,
			'--port',
			'0',
			'--db',
			':memory:',
			'--admin-token',
			adminToken,
			'--ready-file',
			readyFile,
		],
		{ stdio: ['ignore', 'ignore', 'inherit'] },
	);
	const exited = new Promise((resolve) => server.once('exit', resolve));
	for (const started = Date.now(); !existsSync(readyFile); ) {
		if (server.exitCode !== null)
			throw new Error(`the reference server exited (${server.exitCode})`);
		if (Date.now() - started > 60000) throw new Error('the reference server did not start in 60 s');
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	process.env.MOCK_URL = readFileSync(readyFile, 'utf8').trim();
	process.env.MOCK_ADMIN_TOKEN = adminToken;
	globalThis.mockServer = { server, exited };
};
