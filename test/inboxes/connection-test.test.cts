import { RealConnectionTester } from '../../mock-server/src/inboxes/connection-test.cjs';
import { PASSWORD, startMailLab, USER, type MailLab } from '../helpers/mail-servers.cjs';
import { startServer, type TestServer } from '../helpers/server.cjs';

/** Real IMAP logins (Dovecot) and SMTP authentication (smtp-server), TLS from a test CA. */
/**
 * How long a login may take: the lab's Dovecot and SMTP server answer, however loaded the machine
 * (on a 2-core machine at a load average of 10 a TLS login can take seconds). Only the silent port
 * waits this long, once.
 */
const PATIENT_MS = 20_000;

describe('real connection tests', () => {
	let lab: MailLab;
	let server: TestServer;
	beforeAll(async () => {
		lab = await startMailLab();
		// The lab's servers are local, on ports no mail provider uses: allowed as an operator would.
		const labPorts = [
			lab.imapPort,
			lab.smtpPort,
			lab.untrustedImapPort,
			lab.noStarttlsImapPort,
			lab.noStarttlsSmtpPort,
			lab.silentPort,
			lab.closedPort,
		];
		server = await startServer(
			{
				connectionTest: 'real',
				mailCa: lab.caFile,
				log: false,
				connectionTestAllow: labPorts.map((port) => ({ host: 'localhost', port })),
			},
			{ connectionTester: new RealConnectionTester({ caFile: lab.caFile, timeoutMs: PATIENT_MS }) },
		);
	});
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

/** The same lab, with a server whose operator allowed nothing: a key cannot probe the network. */
describe('real connection tests toward targets that are not allowed', () => {
	let lab: MailLab;
	let server: TestServer;
	beforeAll(async () => {
		lab = await startMailLab();
		server = await startServer(
			{ connectionTest: 'real', mailCa: lab.caFile, log: false },
			{ connectionTester: new RealConnectionTester({ caFile: lab.caFile, timeoutMs: PATIENT_MS }) },
		);
	});
	afterAll(async () => {
		await server?.close();
		await lab?.stop();
	});

	const create = async (entry: Record<string, unknown>) =>
		server.call('POST', '/api/v1/inboxes', {
			key: (await server.newAccount()).apiKey,
			body: {
				emailAddress: USER,
				imapPassword: PASSWORD,
				smtpHost: 'smtp.gmail.com',
				smtpPort: 587,
				...entry,
			},
		});

	it('answers an open, a closed and a silent local port with one message, sending nothing', async () => {
		const commandsBefore = lab.cleartextCommands.length;
		const answers = await Promise.all(
			[lab.imapPort, lab.closedPort, lab.silentPort, lab.noStarttlsImapPort].map((port) =>
				create({ imapHost: 'localhost', imapPort: port }),
			),
		);
		const messages = answers.map((a) => {
			expect(a.status).toBe(422);
			expect(a.body.code).toBe('connection_failed');
			return (a.body.error as string).replace(/localhost:\d+/, 'localhost:PORT');
		});
		expect(new Set(messages).size).toBe(1);
		expect(messages[0]).toMatch(
			/refused: the IMAP server localhost:PORT is on a local, private or reserved network address.*--connection-test-allow/,
		);
		expect(lab.cleartextCommands.length).toBe(commandsBefore);
	});

	it('refuses cloud metadata, private and loopback addresses on mail ports', async () => {
		for (const imapHost of [
			'169.254.169.254',
			'10.1.2.3',
			'::ffff:127.0.0.1',
			'::1',
			'127.0.0.1',
			'localhost',
			'0.0.0.0',
		]) {
			const res = await create({ imapHost, imapPort: 993 });
			expect([imapHost, res.body.error]).toEqual([
				imapHost,
				expect.stringMatching(/local, private or reserved network address/),
			]);
		}
	});

	it('refuses a public address on a port that is not a mail port', async () => {
		const res = await create({ imapHost: '142.250.27.108', imapPort: 6379 });
		expect(res.status).toBe(422);
		expect(res.body.error).toMatch(/142\.250\.27\.108:6379 is not on a IMAP port \(143, 993\)/);
	});
});
