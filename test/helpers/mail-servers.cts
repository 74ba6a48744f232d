import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';
import { closedPort as findClosedPort, freePort, portOf } from './ports.cjs';

/**
 * Real mail servers on loopback for the connection tests: Dovecot (IMAP, STARTTLS) with a
 * passwd-file user, an SMTP server (smtp-server) with STARTTLS, both with certificates from a test
 * CA; plus servers that misbehave (no STARTTLS, untrusted certificate, silent).
 */
export const USER = 'alice@mail.test';
export const PASSWORD = 'correct horse battery staple';

export interface MailLab {
	dir: string;
	caFile: string;
	imapPort: number;
	smtpPort: number;
	untrustedImapPort: number;
	noStarttlsImapPort: number;
	noStarttlsSmtpPort: number;
	silentPort: number;
	closedPort: number;
	/** What the misbehaving servers received: a password must never arrive over cleartext. */
	cleartextCommands: string[];
	smtpAuthAttempts: string[];
	stop(): Promise<void>;
}

function openssl(args: string[], cwd: string): void {
	execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

function makeCertificates(dir: string): void {
	openssl(
		[
			'req',
			'-x509',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-days',
			'2',
			'-subj',
			'/CN=Lead Inbox Test CA',
			'-keyout',
			'ca.key',
			'-out',
			'ca.crt',
		],
		dir,
	);
	writeFileSync(
		join(dir, 'san.ext'),
		'subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n',
	);
	openssl(
		[
			'req',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-subj',
			'/CN=localhost',
			'-keyout',
			'server.key',
			'-out',
			'server.csr',
		],
		dir,
	);
	openssl(
		[
			'x509',
			'-req',
			'-in',
			'server.csr',
			'-CA',
			'ca.crt',
			'-CAkey',
			'ca.key',
			'-CAcreateserial',
			'-days',
			'2',
			'-extfile',
			'san.ext',
			'-out',
			'server.crt',
		],
		dir,
	);
	// a certificate nobody trusts (self-signed, not from the test CA)
	openssl(
		[
			'req',
			'-x509',
			'-newkey',
			'rsa:2048',
			'-nodes',
			'-days',
			'2',
			'-subj',
			'/CN=localhost',
			'-addext',
			'subjectAltName=DNS:localhost,IP:127.0.0.1',
			'-keyout',
			'rogue.key',
			'-out',
			'rogue.crt',
		],
		dir,
	);
}

function dovecotConfig(dir: string, name: string, port: number, cert: string, key: string): string {
	const base = join(dir, name);
	mkdirSync(join(base, 'run'), { recursive: true });
	mkdirSync(join(base, 'mail'), { recursive: true });
	chmodSync(base, 0o755);
	chmodSync(join(base, 'mail'), 0o777);
	const file = join(base, 'dovecot.conf');
	writeFileSync(
		file,
		`base_dir = ${base}/run
state_dir = ${base}/run
log_path = ${base}/dovecot.log
instance_name = leadinbox-${name}-${port}
protocols = imap
listen = 127.0.0.1
ssl = required
ssl_cert = <${join(dir, cert)}
ssl_key = <${join(dir, key)}
disable_plaintext_auth = yes
auth_mechanisms = plain login
auth_failure_delay = 0
mail_location = maildir:${base}/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${dir}/users
}
userdb {
  driver = static
  args = uid=nobody gid=nogroup home=${base}/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
`,
	);
	return file;
}

async function waitForPort(port: number, timeoutMs = 10000): Promise<void> {
	const until = Date.now() + timeoutMs;
	for (;;) {
		const ok = await new Promise<boolean>((resolve) => {
			const socket = net.connect(port, '127.0.0.1', () => {
				socket.destroy();
				resolve(true);
			});
			socket.on('error', () => resolve(false));
		});
		if (ok) return;
		if (Date.now() > until) throw new Error(`nothing listens on ${port}`);
		await new Promise((r) => setTimeout(r, 100));
	}
}

export async function startMailLab(): Promise<MailLab> {
	const dir = mkdtempSync(join(tmpdir(), 'lead-inbox-mail-'));
	chmodSync(dir, 0o755);
	makeCertificates(dir);
	for (const f of ['server.key', 'rogue.key']) chmodSync(join(dir, f), 0o644);
	writeFileSync(join(dir, 'users'), `${USER}:{PLAIN}${PASSWORD}::::::\n`);
	chmodSync(join(dir, 'users'), 0o644);

	// Dovecot must be told its port; the servers of this process listen on port 0 and are asked.
	const imapPort = await freePort();
	const untrustedImapPort = await freePort();
	const closedPort = await findClosedPort();
	const dovecots: ChildProcess[] = [
		spawn(
			'dovecot',
			['-F', '-c', dovecotConfig(dir, 'trusted', imapPort, 'server.crt', 'server.key')],
			{ stdio: 'ignore' },
		),
		spawn(
			'dovecot',
			['-F', '-c', dovecotConfig(dir, 'rogue', untrustedImapPort, 'rogue.crt', 'rogue.key')],
			{ stdio: 'ignore' },
		),
	];

	const smtpAuthAttempts: string[] = [];
	const smtp = new SMTPServer({
		secure: false,
		key: readFileSync(join(dir, 'server.key')),
		cert: readFileSync(join(dir, 'server.crt')),
		authMethods: ['PLAIN', 'LOGIN'],
		onAuth(auth, _session, callback) {
			smtpAuthAttempts.push(auth.username ?? '');
			if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER });
			else callback(new Error('Invalid username or password'));
		},
	});
	const plainSmtp = new SMTPServer({
		secure: false,
		disabledCommands: ['STARTTLS'],
		allowInsecureAuth: true,
		onAuth(auth, _session, callback) {
			smtpAuthAttempts.push(`cleartext:${auth.username}`);
			callback(null, { user: auth.username });
		},
	});
	await new Promise<void>((r) => smtp.listen(0, '127.0.0.1', r));
	await new Promise<void>((r) => plainSmtp.listen(0, '127.0.0.1', r));
	const smtpPort = portOf(smtp.server);
	const noStarttlsSmtpPort = portOf(plainSmtp.server);

	// An IMAP server that offers no STARTTLS, recording what clients send.
	const cleartextCommands: string[] = [];
	const plainImap = net.createServer((socket) => {
		socket.write('* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] plain server ready\r\n');
		socket.on('data', (chunk) => {
			for (const line of chunk.toString().split('\r\n').filter(Boolean)) {
				cleartextCommands.push(line);
				const [tag, command] = line.split(' ');
				if (/^CAPABILITY$/i.test(command))
					socket.write(`* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n${tag} OK done\r\n`);
				else if (/^(LOGIN|AUTHENTICATE)$/i.test(command)) socket.write(`${tag} OK logged in\r\n`);
				else if (/^LOGOUT$/i.test(command)) socket.end(`* BYE\r\n${tag} OK bye\r\n`);
				else socket.write(`${tag} OK\r\n`);
			}
		});
		socket.on('error', () => undefined);
	});
	await new Promise<void>((r) => plainImap.listen(0, '127.0.0.1', r));
	const noStarttlsImapPort = portOf(plainImap);
	// A server that accepts connections and never says a word (time-out).
	const sockets = new Set<net.Socket>();
	const silent = net.createServer((socket) => {
		sockets.add(socket);
		socket.on('error', () => undefined);
	});
	await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
	const silentPort = portOf(silent);

	await Promise.all([waitForPort(imapPort), waitForPort(untrustedImapPort)]);

	return {
		dir,
		caFile: join(dir, 'ca.crt'),
		imapPort,
		smtpPort,
		untrustedImapPort,
		noStarttlsImapPort,
		noStarttlsSmtpPort,
		silentPort,
		closedPort,
		cleartextCommands,
		smtpAuthAttempts,
		async stop() {
			for (const d of dovecots) d.kill('SIGTERM');
			for (const s of sockets) s.destroy();
			await Promise.all([
				new Promise((r) => smtp.close(() => r(undefined))),
				new Promise((r) => plainSmtp.close(() => r(undefined))),
				new Promise((r) => plainImap.close(() => r(undefined))),
				new Promise((r) => silent.close(() => r(undefined))),
			]);
			await Promise.all(
				dovecots.map((d) =>
					d.exitCode !== null ? Promise.resolve() : new Promise((r) => d.once('exit', r)),
				),
			);
			rmSync(dir, { recursive: true, force: true });
		},
	};
}
