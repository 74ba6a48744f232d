import { RealConnectionTester } from '../../mock-server/src/inboxes/connection-test.cjs';
import { PASSWORD, startMailLab, USER, type MailLab } from '../helpers/mail-servers.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';

/** Real IMAP logins (Dovecot) and SMTP authentication (smtp-server), TLS from a test CA. */
describe('real connection tests', () => {
	let lab: MailLab;
	let server: TestServer;
	beforeAll(async () => {
		lab = await startMailLab();
		server = await startServer(
			{ connectionTest: 'real', mailCa: lab.caFile, log: false },
			{ connectionTester: new RealConnectionTester({ caFile: lab.caFile, timeoutMs: 1500 }) },
		);
	}, 60000);
	afterAll(async () => {
		await server?.close();
		await lab?.stop();
	});

	const entry = (overrides: Record<string, unknown> = {}) => ({
		emailAddress: USER,
		imapPassword: PASSWORD,
		imapHost: 'localhost',
		imapPort: lab.imapPort,
		smtpHost: 'localhost',
		smtpPort: lab.smtpPort,
		...overrides,
	});
	const create = async (overrides: Record<string, unknown>) =>
		server.call('POST', '/api/v1/inboxes', {
			key: (await server.newAccount()).apiKey,
			body: entry(overrides),
		});

	it('creates the inbox when IMAP login and SMTP authentication succeed over STARTTLS', async () => {
		const res = await create({});
		expect(res.status).toBe(200);
		expect(res.body.results[0]).toMatchObject({ success: true });
		expect(res.body.results[0]).not.toHaveProperty('autoFilledFields');
	});

	it('refuses a wrong password with "authentication refused", never echoing it', async () => {
		const res = await create({ imapPassword: 'wrong-password-123' });
		expect(res.status).toBe(422);
		expect(res.body).toMatchObject({
			code: 'connection_failed',
			error: expect.stringMatching(/IMAP authentication refused by localhost:\d+/),
		});
		expect(JSON.stringify(res.body)).not.toContain('wrong-password-123');
		const smtp = await create({ smtpPassword: 'wrong-smtp-password' });
		expect(smtp.body.error).toMatch(/SMTP authentication refused/);
	});

	it('reports a closed port as "cannot connect"', async () => {
		const res = await create({ imapPort: lab.closedPort });
		expect(res.body).toMatchObject({
			code: 'connection_failed',
			error: expect.stringMatching(/cannot connect to the IMAP server localhost:\d+/),
		});
	});

	it('refuses a server without STARTTLS on a STARTTLS port, and sends it no password', async () => {
		const imap = await create({ imapPort: lab.noStarttlsImapPort });
		expect(imap.body.error).toMatch(/TLS failed with the IMAP server .*no STARTTLS offered/);
		expect(lab.cleartextCommands.some((c) => /LOGIN|AUTHENTICATE/i.test(c))).toBe(false);
		expect(lab.cleartextCommands.join('\n')).not.toContain(PASSWORD);
		const smtp = await create({ smtpPort: lab.noStarttlsSmtpPort });
		expect(smtp.body.error).toMatch(/TLS failed with the SMTP server/);
		expect(lab.smtpAuthAttempts.filter((a) => a.startsWith('cleartext:'))).toEqual([]);
	});

	it('refuses an untrusted certificate', async () => {
		const res = await create({ imapPort: lab.untrustedImapPort });
		expect(res.body.error).toMatch(/TLS failed with the IMAP server .*certificate/);
	});

	it('reports a server that never answers as a time-out', async () => {
		const res = await create({ imapPort: lab.silentPort });
		expect(res.body.error).toMatch(/did not answer in time/);
	});
});
